"""Train the byte-level BPE on the corpus and write tokenizer.json / tokenizer_config.json.
Usage: train_tokenizer.py WORK_DIR OUT_DIR"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from model import ARCH  # noqa: E402
from tok import train, save, Encoder  # noqa: E402

work, out = sys.argv[1], sys.argv[2]
texts = []
with open(f"{work}/corpus.jsonl") as f:
    for line in f:
        r = json.loads(line)
        texts.append(r["prompt"] + r["completion"])
vocab, merges = train(texts, ARCH["vocab_size"])
assert len(vocab) == ARCH["vocab_size"], f"vocab {len(vocab)} < {ARCH['vocab_size']}: corpus too small"
os.makedirs(out, exist_ok=True)
save(out, vocab, merges, ARCH["max_position_embeddings"])
enc = Encoder.load(f"{out}/tokenizer.json")
n = sum(len(enc.encode(t)) for t in texts[:2000])
c = sum(len(t) for t in texts[:2000])
print(f"tokenizer: {len(vocab)} tokens, {len(merges)} merges, {c / n:.2f} chars/token")
