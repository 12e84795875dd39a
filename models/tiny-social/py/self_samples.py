"""Rejection-sampled answers for self-training (the dialogue organism; not used by any shipped build yet).

Usage: self_samples.py CKPT TOKENIZER_DIR CORPUS_IN OUT_JSONL N [SEED]
The model (CKPT, the architecture of ARCH_JSON) answers N turn prompts drawn from CORPUS_IN (formats of
UNLIKELY_FORMATS, default the Synchrony organism's turn formats) at the lab's temperature 0.7, and writes the answers
that pass every check below as examples ({"format": "<format>.self", "prompt", "completion"}). The corpus's answers are
written by the law; these are the model's own, so training on them lifts the turns it already writes well and takes
probability from its garbles without teaching it a new kind of turn (rejection-sampling fine-tuning, "expert
iteration"). The checks mirror organisms/dialogue/measure.ts: every word is in the prompt or the law's phrases (the
words rule of train.py), no capitalised word inside a sentence that the prompt lacks or that is a prompt label, no
template text, no copy of an earlier turn, and the hidden line well formed where the format asks for it. The
rejected answers go to OUT_JSONL.rejected, with the checks they failed.
"""
import json
import os
import random
import re
import sys

import torch

sys.path.insert(0, os.path.dirname(__file__))
from model import ARCH, LlamaForCausalLM  # noqa: E402
from tok import Encoder, decode  # noqa: E402
from train import WORD_RE, law_lexicon, sample_answers, word_variants  # noqa: E402

LABELS = {"Scenario", "Fact", "Relationship", "Public", "Personality", "Decides", "Secret", "Conversation", "Turn",
          "Name", "Unknown", "Imagine", "Act", "Keep", "When", "Reply", "Rate"}
TEMPLATE = [re.compile(p, re.I) for p in (r"believability|social_rules|financial_and_material_benefits", r"-?\d+\.\.-?\d+",
            r"\breply as\b", r"\byour turn\b", r"\bturn \d+\s*:", r"goal:\s*unknown", r"imagine you are", r"<\|im_", r"said:")]
HIDDEN = re.compile(r"\nFeeling: [a-z]+; Action: [a-z]+$")


def problems(prompt, answer, fmt, law_words):
    """Why an answer would fail the lab's measures (an empty list when it passes)."""
    out = []
    have = set(WORD_RE.findall(prompt))
    words = set(law_words)
    for w in have:
        words |= word_variants(w)
    if any(w not in words for w in WORD_RE.findall(answer)):
        out.append("word")
    for sentence in re.split(r"(?<=[.!?:;])\s+", answer):
        ws = WORD_RE.findall(sentence)
        if any(re.fullmatch(r"[A-Z][a-z]+", w) and (w not in have or w in LABELS) for w in ws[1:]):
            out.append("capital")
            break
    if any(p.search(answer) for p in TEMPLATE):
        out.append("template")
    turns = re.findall(r"^Turn \d+: .*? said: (.*)$", prompt, re.M)
    if answer.split("\n")[0].strip() in {t.strip() for t in turns}:
        out.append("repeat")
    if fmt.endswith("turn-hidden") and not HIDDEN.search(answer):
        out.append("hidden")
    if fmt.endswith(".turn") and "\n" in answer:
        out.append("lines")
    return out


def main():
    ckpt, tok_dir, corpus, out_path, n = sys.argv[1:6]
    seed = int(sys.argv[6]) if len(sys.argv) > 6 else 1
    random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(int(os.environ.get("THREADS", "2")))
    formats = set(os.environ.get("UNLIKELY_FORMATS", "organism.synchrony.turn,organism.synchrony.turn-hidden").split(","))
    enc = Encoder.load(f"{tok_dir}/tokenizer.json")
    rows = [r for r in map(json.loads, open(corpus)) if r["format"] in formats]
    law_words, _ = law_lexicon([(r["prompt"], r["completion"]) for r in rows])
    model = LlamaForCausalLM(ARCH)
    model.load_state_dict(torch.load(ckpt))
    model.eval()
    end = enc.vocab["<|im_end|>"]
    picks = random.sample(rows, int(n))
    kept, why = 0, {}
    batch = int(os.environ.get("BATCH", "16"))
    with open(out_path, "w") as f, open(out_path + ".rejected", "w") as rej:
        for b in range(0, len(picks), batch):
            group = picks[b: b + batch]
            prompts = [enc.encode(r["prompt"]) for r in group]
            room = ARCH["max_position_embeddings"] - max(len(q) for q in prompts)
            seqs = sample_answers(model, prompts, end, 0.7, min(64, room))
            for r, q, s in zip(group, prompts, seqs):
                pieces = s[len(q):]
                if not pieces or pieces[-1] != end:
                    why["unfinished"] = why.get("unfinished", 0) + 1
                    continue
                answer = decode(enc, pieces[:-1])
                bad = problems(r["prompt"], answer, r["format"], law_words)
                for k in bad:
                    why[k] = why.get(k, 0) + 1
                if bad:
                    rej.write(json.dumps({"why": bad, "completion": answer}) + "\n")
                if not bad:
                    kept += 1
                    f.write(json.dumps({"format": r["format"] + ".self", "prompt": r["prompt"],
                                        "completion": answer + "<|im_end|>"}) + "\n")
            print(f"{b + len(group)} sampled, {kept} kept; rejected for {why}", flush=True)


if __name__ == "__main__":
    main()
