"""Scores continuations with a training checkpoint, so that a build can look at a half-trained organism without
exporting it: reads [{"context": ChatML text, "text": continuation}, ...] and writes the summed log-probability of
each continuation (the same quantity as the runtime's scoreText); an item {"context", "generate": N} gets the greedy
reply instead (at most N tokens, up to <|im_end|> or a newline). Used by organisms/probe.ts.

  python3 organisms/probe.py CKPT TOKENIZER_JSON IN.json OUT.json
"""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "models", "tiny-social", "py"))
from model import LlamaForCausalLM  # noqa: E402
from tok import Encoder, bytes_to_unicode  # noqa: E402


BYTE_OF = {u: b for b, u in bytes_to_unicode().items()}


def greedy(model, enc, inv, context, n):
    """The greedy continuation of `context` (`inv`: token id → string), decoded from byte-level BPE, up to
    <|im_end|> or a newline. No KV cache: each token reruns the whole sequence (fine for a probe's dozens)."""
    ids = enc.encode(context)
    out = []
    for _ in range(n):
        if len(ids) + len(out) >= 1024:  # the model's context
            break
        x = torch.tensor([ids + out])
        nxt = int(model.train_logits(x, torch.ones_like(x))[0, -1].argmax())
        if inv[nxt] == "<|im_end|>":
            break
        out.append(nxt)
        if "\u010a" in inv[nxt]:  # the byte-level newline
            break
    text = bytes(BYTE_OF[c] for t in out for c in inv[t] if c in BYTE_OF).decode("utf8", errors="replace")
    return text.split("\n")[0]


def main():
    ckpt, tokenizer, src, dst = sys.argv[1:5]
    torch.set_num_threads(int(os.environ.get("THREADS", "1")))
    state = torch.load(ckpt, map_location="cpu")
    state = state.get("model", state)
    model = LlamaForCausalLM()
    model.load_state_dict(state)
    model.eval()
    enc = Encoder.load(tokenizer)
    items = json.load(open(src))
    out = []
    inv = {i: t for t, i in enc.vocab.items()}  # once, not per generated reply
    with torch.no_grad():
        for it in items:
            if "generate" in it:
                out.append(greedy(model, enc, inv, it["context"], int(it["generate"])))
                continue
            c = enc.encode(it["context"])
            t = enc.encode(it["text"])
            ids = torch.tensor([c + t])
            logits = model.train_logits(ids, torch.ones_like(ids))[0]
            logp = torch.log_softmax(logits.float(), dim=-1)
            out.append(float(sum(logp[len(c) + i - 1, tok] for i, tok in enumerate(t))))
    json.dump(out, open(dst, "w"))


if __name__ == "__main__":
    main()
