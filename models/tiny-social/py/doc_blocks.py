"""Fill the generated blocks of docs/embedded-model.md (sizes, architecture, training, fixture) from the built files.
Usage: doc_blocks.py REPO_ROOT"""
import json
import os
import sys

root = sys.argv[1]
here = os.path.join(root, "models/tiny-social")
doc_path = os.path.join(root, "docs/embedded-model.md")
cfg = json.load(open(os.path.join(here, "config.json")))
log = json.load(open(os.path.join(here, "train_log.json")))
fx = json.load(open(os.path.join(root, "models/tiny-social/reference.json")))
sys.path.insert(0, os.path.join(here, "py"))
from model import ARCH, LlamaForCausalLM, count_params  # noqa: E402

params = count_params(LlamaForCausalLM(ARCH))
emb = cfg["vocab_size"] * cfg["hidden_size"]


def size(p):
    return os.path.getsize(os.path.join(root, p))


files = ["models/tiny-social/config.json", "models/tiny-social/generation_config.json", "models/tiny-social/tokenizer.json",
         "models/tiny-social/tokenizer_config.json", "models/tiny-social/special_tokens_map.json",
         "models/tiny-social/onnx/model.onnx", "models/tiny-social/onnx/model_q4.onnx", "models/tiny-social/train_log.json",
         "models/tiny-social/reference.json"]
rows = [f"| `{f}` | {size(f):,} |" for f in files]
total = sum(size(f) for f in files)
blocks = {
    "sizes": "| file | bytes |\n|---|---|\n" + "\n".join(rows) + f"\n| **total** | **{total:,}** ({total / 2**20:.1f} MiB; budget 20 MB) |",
    "arch": (
        f"| | |\n|---|---|\n| layers | {cfg['num_hidden_layers']} |\n| hidden size | {cfg['hidden_size']} |\n"
        f"| attention heads / kv heads / head dim | {cfg['num_attention_heads']} / {cfg['num_key_value_heads']} / {cfg['head_dim']} |\n"
        f"| MLP (SwiGLU) size | {cfg['intermediate_size']} |\n| vocabulary | {cfg['vocab_size']} |\n"
        f"| context (RoPE table rows) | {cfg['max_position_embeddings']} |\n"
        f"| parameters | **{params:,}** ({emb:,} in the tied embedding, {params - emb:,} in the layers and norms) |"
    ),
    "training": (
        "Committed build, seed " + str(log["phases"][0]["seed"]) + ": "
        + "; ".join(
            f"phase {i + 1}: **{p['steps']} steps** of {p['tokens_per_batch']} tokens at peak lr {p.get('lr')} "
            f"({p['train_seconds'] / 60:.1f} min; auto step estimates {json.dumps(p.get('step_estimates'))})"
            for i, p in enumerate(log["phases"]))
        + f". Total **{log['steps']} steps, {log['train_seconds'] / 60:.1f} min** wall on 2 shared CPU cores. "
        f"Final answer-token loss (EMA) **{log['final_answer_loss_ema']}**.\n\nLoss curve (answer tokens, noisy: "
        "batches are length buckets, so one batch may hold only judge prompts): "
        + " | ".join(", ".join(f"{r['step']}: {r['answer_loss']}" for r in p["loss"]) for p in log["phases"])
    ),
    "fixture": (
        f"Tolerances stated in the file: fp32 ≤ {fx['tolerances']['fp32']['hidden_max_abs']} (ONNX vs PyTorch); "
        f"q4 ≤ {fx['tolerances']['q4']['hidden_max_abs']} against the fp32 reference, from the measured q4-vs-fp32 "
        f"deviation of **{fx['tolerances']['q4']['measured_max_abs_hidden_vs_fp32']}** (hidden, max abs over all "
        f"rows and prompts) and {fx['tolerances']['q4']['measured_max_abs_logits_vs_fp32']} (last-token logits), "
        f"measured in PyTorch with the dequantised q4 weights; the build also measures it with onnxruntime-node "
        f"(`verify.ts`)."
    ),
}
doc = open(doc_path).read()
for k, v in blocks.items():
    s, e = f"<!-- {k}:start -->", f"<!-- {k}:end -->"
    if s in doc and e in doc:
        doc = doc[: doc.index(s)] + s + "\n" + v + "\n" + doc[doc.index(e):]
open(doc_path, "w").write(doc)
print("docs blocks updated; total bytes", total)
