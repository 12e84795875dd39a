"""Recover a trainable PyTorch checkpoint from the committed fp32 ONNX graph (the training checkpoints in work/ are
gitignored, so a fresh checkout has only the ONNX files and the tokenizer).

Usage: from_onnx.py ONNX_PATH FIXTURE_PATH OUT_CKPT
  FIXTURE_PATH "-" skips check 2, for a graph whose fixture was not committed (the fine-tuned organisms'); checks 1
  and 3 (every initializer mapped, and a bit-identical re-export) still hold.
  e.g. from_onnx.py models/tiny-social/onnx/model.onnx models/tiny-social/reference.json \
                    models/tiny-social/work/ckpt_phase4.pt

Name mapping: the embedding table and the RMSNorm weights keep their PyTorch names in the graph; every Linear weight
was folded by torch.onnx.export into an anonymous initializer (`onnx::MatMul_NNNN`, stored as W^T, shape [in, out])
that is input 1 of the MatMul node `/model/layers.N/<self_attn|mlp>/<proj>/MatMul`; the node name gives the module.
The tied lm_head is a Transpose of `model.embed_tokens.weight` (export.py's tie_lm_head), so nothing to load there.

Checks (the script fails if any is not met):
  1. every parameter of py/model.py's model is loaded exactly once, and every initializer is used;
  2. the recovered model reproduces the PyTorch fixture written by export.py when the ONNX was made: top-5 logits at
     the last token to <= 1e-5, the same top-5 ids and greedy continuations, and the residual stream at the last
     token within the fixture's own fp32 tolerance (measured 1.5e-5 = 8 float32 ulps at |h| = 23 on our CPU, the
     same with 1 or 2 threads: the fixture was computed on another machine whose BLAS sums in another order);
  3. exporting the recovered model again (export.py's export_fp32) reproduces every ONNX initializer bit for bit.
"""
import json
import os
import sys
import tempfile

import numpy as np
import onnx
import torch
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(__file__))
from model import ARCH, LlamaForCausalLM  # noqa: E402

TOL = 1e-5


def load_onnx_weights(path):
    m = onnx.load(path)
    inits = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    used = set()
    # Weights stored in half precision (export.py store_half) are cast back to float32 by a Cast node: read them under
    # the cast's output name, which is the fp32 graph's initializer name.
    for node in m.graph.node:
        if node.op_type == "Cast" and node.input[0] in inits:
            inits[node.output[0]] = inits[node.input[0]].astype(np.float32)
            used.add(node.input[0])
    sd = {}
    for name, arr in inits.items():
        if name.startswith("model.") and name not in used:
            sd[name] = arr
            used.add(name)
    for node in m.graph.node:
        if node.op_type != "MatMul" or node.input[1] not in inits:
            continue
        # /model/layers.0/self_attn/q_proj/MatMul -> model.layers.0.self_attn.q_proj.weight
        mod = node.name.strip("/").rsplit("/", 1)[0].replace("/", ".")
        key = f"{mod}.weight"
        assert key not in sd, key
        sd[key] = inits[node.input[1]].T  # MatMul B is W^T
        used.add(node.input[1])
    unused = set(inits) - used
    assert not unused, f"initializers not mapped: {sorted(unused)}"
    return sd


def main():
    onnx_path, fixture_path, out = sys.argv[1], sys.argv[2], sys.argv[3]
    torch.set_num_threads(int(os.environ.get("THREADS", "2")))
    sd = load_onnx_weights(onnx_path)
    model = LlamaForCausalLM(ARCH)
    own = model.state_dict()
    want = {k for k in own if k != "lm_head.weight"}  # tied to the embedding
    assert set(sd) == want, (sorted(set(sd) ^ want))
    new = {}
    for k, v in own.items():
        src = sd["model.embed_tokens.weight"] if k == "lm_head.weight" else sd[k]
        assert tuple(src.shape) == tuple(v.shape), (k, src.shape, v.shape)
        new[k] = torch.from_numpy(np.array(src, dtype=np.float32))
    model.load_state_dict(new)
    assert model.lm_head.weight.data_ptr() == model.model.embed_tokens.weight.data_ptr()
    model.eval()

    if fixture_path == "-":
        print("fixture: none given, skipping check 2 (checks 1 and 3 still run)")
        return finish(model, sd, out)
    fx = json.load(open(fixture_path))
    eos = set(fx["eos_token_ids"])
    worst_h = worst_l = 0.0
    with torch.no_grad():
        for c in fx["cases"]:
            ids = torch.tensor(c["input_ids"])
            hs, logits = model.hidden_states(ids)
            ref = torch.tensor(c["hidden_last_token"])
            worst_h = max(worst_h, (hs[:, -1] - ref).abs().max().item())
            for i, v in c["logits_last_token_top5"]:
                worst_l = max(worst_l, abs(logits[-1, i].item() - v))
            top = torch.topk(logits[-1], 5).indices.tolist()
            assert top == [i for i, _ in c["logits_last_token_top5"]], (top, c["logits_last_token_top5"])
            seq, cont = list(c["input_ids"]), []
            for _ in range(len(c["greedy_continuation"])):
                x = torch.tensor(seq)[None]
                t = int(torch.argmax(model.train_logits(x, torch.ones_like(x))[0, -1]))
                cont.append(t)
                seq.append(t)
                if t in eos:
                    break
            assert cont == c["greedy_continuation"], (cont, c["greedy_continuation"])
    print(f"fixture: max |hidden - fixture| = {worst_h:.3g}, max |top-5 logit - fixture| = {worst_l:.3g}, "
          f"greedy continuations {len(fx['cases'])}/{len(fx['cases'])} equal")
    assert worst_l <= TOL, worst_l
    assert worst_h <= fx["tolerances"]["fp32"]["hidden_max_abs"], worst_h
    finish(model, sd, out)


def finish(model, sd, out):
    # round trip: export the recovered model again and compare every initializer with the committed graph
    from export import export_fp32  # noqa: E402
    with tempfile.TemporaryDirectory() as tmp:
        sd2 = load_onnx_weights(export_fp32(model, f"{tmp}/model.onnx") and f"{tmp}/model.onnx")
    assert set(sd2) == set(sd), sorted(set(sd2) ^ set(sd))
    for k, v in sd.items():
        assert np.array_equal(sd2[k], v), k
    back = model.state_dict()
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    torch.save(model.state_dict(), out)
    print(f"wrote {out} ({len(back)} tensors, re-export bit-identical)")


if __name__ == "__main__":
    main()
