"""Widen a trained tiny Llama without changing what it computes: more attention heads (with their own key/value
heads), a wider MLP in every layer and a wider residual stream, the new units' output weights zero. A later phase
then has more room to copy with. The dialogue organism's ninth build (organisms/build.sh, phase 8) widens its eighth and trains every layer, the
states that carry its synchrony contrasts anchored to the eighth build's (train.py ANCHOR); the try below trained
only the last layers (TRAIN_FROM_LAYER) instead. Every weight is rounded to half precision first, so that
a half-precision export (export.py HALF_WEIGHTS=1) stores exactly the model that was trained.

Usage: widen.py IN_CKPT OUT_CKPT NEW_ARCH_JSON   (ARCH_JSON, if set, is the shape of IN_CKPT)

A wider residual stream ("hidden_size" in NEW_ARCH_JSON) was tried on the eleventh build on 2026-12-06 (128 -> 160,
not shipped: docs/organisms.md).

The dialogue organism's try of 2026-12-06 (not shipped; models/organism-dialogue/model-card.md), from the seventh
build's phase 6 (START_PHASE=7 organisms/build.sh dialogue recovers it as organisms/work/dialogue/ckpt_phase6.pt):

  W=organisms/work/dialogue-w2; mkdir -p $W/out; cp models/tiny-social/{tokenizer,tokenizer_config,special_tokens_map}.json $W/out/
  echo '{"intermediate_size": 768, "num_attention_heads": 8, "num_key_value_heads": 4}' > $W/arch.json
  npx tsx organisms/dialogue/corpus.ts --seed 1 --n 16000 --replay 2000 --letters 500 --nonce 0.3 --early 0.3 \
    --judge 25 --copy 4000 --wide-names 0.85 --real-names 0.5 --hidden 0.5 --out $W/corpus_phase7.jsonl
  python3 models/tiny-social/py/widen.py organisms/work/dialogue/ckpt_phase6.pt $W/ckpt_phase6w.pt $W/arch.json
  ARCH_JSON=$W/arch.json PHASE=7 LR=5e-4 INIT_CKPT=$W/ckpt_phase6w.pt CORPUS=corpus_phase7.jsonl TRAIN_FROM_LAYER=3 \
    python3 models/tiny-social/py/train.py $W $W/out 1000 2048
  ARCH_JSON=$W/arch.json HALF_WEIGHTS=1 python3 models/tiny-social/py/export.py $W $W/out $W/hidden_states.json
"""
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(__file__))
from model import ARCH, LlamaForCausalLM, count_params  # noqa: E402


def main():
    src_path, out_path, arch_path = sys.argv[1:4]
    old_a = dict(ARCH)
    new_a = dict(ARCH, **json.load(open(arch_path)))
    assert new_a["hidden_size"] >= old_a["hidden_size"] and new_a["head_dim"] == old_a["head_dim"], "the head size stays"
    assert new_a["num_attention_heads"] // new_a["num_key_value_heads"] == old_a["num_attention_heads"] // old_a["num_key_value_heads"], \
        "each key/value head keeps serving as many query heads (GQA maps query head h to key/value head h // rep)"
    old = LlamaForCausalLM(old_a)
    old.load_state_dict(torch.load(src_path))
    torch.manual_seed(int(os.environ.get("SEED", "1")))
    new = LlamaForCausalLM(new_a)
    hd = old_a["head_dim"]
    # A wider residual stream: its new dimensions start at zero (zero embedding columns, zero output rows), so only
    # the RMS norms see them, as a smaller mean square; their weights are scaled by sqrt(old / new) to make up for it.
    h0 = old_a["hidden_size"]
    norm_scale = (h0 / new_a["hidden_size"]) ** 0.5
    q_rows, kv_rows, mlp_rows = old_a["num_attention_heads"] * hd, old_a["num_key_value_heads"] * hd, old_a["intermediate_size"]
    sd_old, sd = old.state_dict(), new.state_dict()
    with torch.no_grad():
        for name, w in sd.items():
            o = sd_old[name]
            if name.endswith("norm.weight"):
                w.fill_(float(o.mean()) * norm_scale)
                w[:h0] = o * norm_scale
            elif o.shape == w.shape:
                w.copy_(o)
            elif name.endswith(("embed_tokens.weight", "lm_head.weight")):  # tied: one tensor, two names
                w.zero_()
                w[:, :h0] = o
            elif name.endswith("q_proj.weight"):
                w[:q_rows, :h0] = o
            elif name.endswith(("k_proj.weight", "v_proj.weight")):
                w[:kv_rows, :h0] = o
            elif name.endswith(("gate_proj.weight", "up_proj.weight")):
                w[:mlp_rows, :h0] = o
            elif name.endswith("o_proj.weight"):
                w.zero_()
                w[:h0, :q_rows] = o
            elif name.endswith("down_proj.weight"):
                w.zero_()
                w[:h0, :mlp_rows] = o
            else:
                raise ValueError(f"{name}: {tuple(o.shape)} -> {tuple(w.shape)}")
            w.copy_(w.half().float())
    new.load_state_dict(sd)
    # The widened model computes what the rounded original does.
    old.load_state_dict({k: v.half().float() for k, v in sd_old.items()})
    ids = torch.randint(0, new_a["vocab_size"], (40,))
    h_old, _ = old.eval().hidden_states(ids)
    h_new, _ = new.eval().hidden_states(ids)
    assert h_new.shape[-1] == h0 or h_new[..., h0:].abs().max().item() == 0.0, "the new residual dimensions start at zero"
    # the rescaled norm weights are rounded to half precision too, so a wider residual matches to about 1e-3
    diff = ((h_old - h_new[..., :h0]).abs().max() / h_old.abs().max()).item()
    assert diff < (1e-4 if h0 == new_a["hidden_size"] else 5e-3), diff
    torch.save(new.state_dict(), out_path)
    print(f"widened {count_params(old)} -> {count_params(new)} parameters; max |hidden difference| / max |hidden| {diff:.2g}")


if __name__ == "__main__":
    main()
