"""Export the trained tiny Llama: ONNX fp32 (opset 14, Optimum-style names), q4 (MatMulNBits written with
onnx.helper), config.json, generation_config.json, and the PyTorch hidden-state fixture.

Usage: export.py WORK_DIR OUT_DIR FIXTURE_PATH
"""
import json
import math
import os
import sys

import numpy as np
import onnx
import inspect
import torch
from onnx import helper, numpy_helper, TensorProto

sys.path.insert(0, os.path.dirname(__file__))
from model import ARCH, LlamaForCausalLM, count_params  # noqa: E402
from tok import Encoder, chatml, decode  # noqa: E402

BLOCK = 32


def export_fp32(model, path):
    a = ARCH
    L, kv, hd = a["num_hidden_layers"], a["num_key_value_heads"], a["head_dim"]
    B, S, P = 2, 3, 2
    ids = torch.randint(0, a["vocab_size"], (B, S))
    att = torch.ones(B, P + S, dtype=torch.long)
    pos = torch.arange(P, P + S)[None].expand(B, S).contiguous()
    past = []
    in_names = ["input_ids", "attention_mask", "position_ids"]
    out_names = ["logits"]
    dyn = {"input_ids": {0: "batch_size", 1: "sequence_length"},
           "attention_mask": {0: "batch_size", 1: "total_sequence_length"},
           "position_ids": {0: "batch_size", 1: "sequence_length"},
           "logits": {0: "batch_size", 1: "sequence_length"}}
    for i in range(L):
        for kind in ("key", "value"):
            past.append(torch.randn(B, kv, P, hd))
            n = f"past_key_values.{i}.{kind}"
            in_names.append(n)
            dyn[n] = {0: "batch_size", 2: "past_sequence_length"}
            o = f"present.{i}.{kind}"
            out_names.append(o)
            dyn[o] = {0: "batch_size", 2: "total_sequence_length"}
    # torch >= 2.9 exports through dynamo by default, which does not take dynamic_axes: keep the TorchScript exporter
    # (the one torch 1.13 has) so that both torches write the same graph.
    legacy = {"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}
    torch.onnx.export(model, (ids, att, pos, *past), path, input_names=in_names, output_names=out_names,
                      dynamic_axes=dyn, opset_version=14, do_constant_folding=True, **legacy)
    m = onnx.load(path)
    tie_lm_head(m, model)
    onnx.checker.check_model(m)
    onnx.save(m, path)
    return m


def round_to_half(model):
    """HALF_WEIGHTS=1: round every weight to half precision (and back), so that the graph stored by store_half computes
    exactly what this PyTorch model does; the fixture is then written from the rounded model."""
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(p.half().float())


def store_half(path):
    """Stores the fp32 graph's weights in half precision, each cast back to float32 by a Cast node (onnxruntime folds
    it when the session loads, so the arithmetic stays fp32): the file is half the size. Only initializers whose values
    survive the round trip exactly (the rounded weights, not the rotary tables) are stored this way."""
    m = onnx.load(path)
    g = m.graph
    casts = []
    for t in list(g.initializer):
        if t.data_type != TensorProto.FLOAT or int(np.prod(t.dims)) < 1024:
            continue
        a = numpy_helper.to_array(t)
        h = a.astype(np.float16)
        if not np.array_equal(h.astype(np.float32), a):
            continue
        half = numpy_helper.from_array(h, t.name + "_fp16")
        g.initializer.remove(t)
        g.initializer.append(half)
        casts.append(helper.make_node("Cast", [half.name], [t.name], name=f"/{t.name}/CastToFloat", to=TensorProto.FLOAT))
    for c in reversed(casts):
        g.node.insert(0, c)
    onnx.checker.check_model(m)
    onnx.save(m, path)
    return len(casts)


def tie_lm_head(m, model):
    """torch folds lm_head's transposed (tied) weight into a second copy of the embedding table. Replace that copy
    by a Transpose of the embedding initializer, so that the file stores the table once."""
    g = m.graph
    inits = {t.name: t for t in g.initializer}
    emb_name = "model.embed_tokens.weight"
    assert emb_name in inits, list(inits)[:10]
    emb = numpy_helper.to_array(inits[emb_name])
    for node in g.node:
        if node.op_type == "MatMul" and node.name.startswith("/lm_head"):
            wname = node.input[1]
            if wname in inits:
                w = numpy_helper.to_array(inits[wname])
                if w.shape == emb.T.shape and np.array_equal(w, emb.T):
                    g.initializer.remove(inits[wname])
                    tname = "/lm_head/Transpose_output_0"
                    tnode = helper.make_node("Transpose", [emb_name], [tname], name="/lm_head/Transpose", perm=[1, 0])
                    node.input[1] = tname
                    idx = list(g.node).index(node)
                    g.node.insert(idx, tnode)
                    return True
    return False


def quantize_block(w):
    """w: [K, N] fp32 (MatMul B). Asymmetric 4-bit blocks of BLOCK along K, per output column n.
    Returns packed [N, nb, BLOCK/2] uint8, scales [N*nb] fp32, zero points [N*ceil(nb/2)] uint8, dequantised [K, N]."""
    K, N = w.shape
    assert K % BLOCK == 0
    nb = K // BLOCK
    wt = w.T.reshape(N, nb, BLOCK).astype(np.float32)
    mn = np.minimum(wt.min(-1), 0.0)
    mx = np.maximum(wt.max(-1), 0.0)
    scale = (mx - mn) / 15.0
    scale[scale == 0] = 1.0
    zp = np.clip(np.round(-mn / scale), 0, 15).astype(np.uint8)
    q = np.clip(np.round(wt / scale[..., None]) + zp[..., None], 0, 15).astype(np.uint8)
    packed = (q[..., 0::2] | (q[..., 1::2] << 4)).astype(np.uint8)
    nbp = (nb + 1) // 2
    zpad = np.zeros((N, nbp * 2), dtype=np.uint8)
    zpad[:, :nb] = zp
    zpacked = (zpad[:, 0::2] | (zpad[:, 1::2] << 4)).astype(np.uint8)
    deq = ((q.astype(np.float32) - zp[..., None].astype(np.float32)) * scale[..., None]).reshape(N, K).T
    return packed, scale.astype(np.float32).reshape(-1), zpacked.reshape(-1), deq


def make_q4(fp32_path, q4_path):
    m = onnx.load(fp32_path)
    g = m.graph
    inits = {t.name: t for t in g.initializer}
    deq_by_node = {}
    new_nodes = []
    used_inits = set()
    emb = numpy_helper.to_array(inits["model.embed_tokens.weight"])
    for node in g.node:
        src = None
        if node.op_type == "MatMul":
            if node.input[1] in inits and len(inits[node.input[1]].dims) == 2:
                src = numpy_helper.to_array(inits[node.input[1]])
            elif node.input[1] == "/lm_head/Transpose_output_0":
                src = emb.T.copy()
        if src is None:
            new_nodes.append(node)
            continue
        K, N = src.shape
        packed, scales, zps, deq = quantize_block(src)
        base = node.name.strip("/").replace("/", ".") or node.output[0]
        bn, sn, zn = base + ".qweight", base + ".scales", base + ".qzeros"
        g.initializer.extend([numpy_helper.from_array(packed, bn), numpy_helper.from_array(scales, sn),
                              numpy_helper.from_array(zps, zn)])
        nn_ = helper.make_node("MatMulNBits", [node.input[0], bn, sn, zn], list(node.output), name=node.name,
                               domain="com.microsoft", K=K, N=N, bits=4, block_size=BLOCK)
        new_nodes.append(nn_)
        used_inits.add(node.input[1])
        deq_by_node[node.name] = deq
    # drop the fp32 weights that are no longer referenced (the Transpose for lm_head too)
    still = set()
    keep_nodes = []
    for n in new_nodes:
        if n.op_type == "Transpose" and n.name == "/lm_head/Transpose":
            continue
        keep_nodes.append(n)
    for n in keep_nodes:
        still.update(n.input)
    del g.node[:]
    g.node.extend(keep_nodes)
    keep = [t for t in g.initializer if t.name in still]
    del g.initializer[:]
    g.initializer.extend(keep)
    if not any(o.domain == "com.microsoft" for o in m.opset_import):
        m.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    onnx.save(m, q4_path)
    return deq_by_node


def dequantised_model(model, deq_by_node):
    """A torch copy whose Linear weights are the q4-dequantised ones (to measure q4 against fp32 in Python)."""
    dq = LlamaForCausalLM(ARCH)
    dq.load_state_dict(model.state_dict())
    dq.lm_head.weight = torch.nn.Parameter(model.lm_head.weight.detach().clone())  # untie: q4 lm_head differs
    mods = dict(dq.named_modules())
    for name, deq in deq_by_node.items():
        mod = name.strip("/").rsplit("/", 1)[0].replace("/", ".")  # /model/layers.0/self_attn/q_proj/MatMul
        lin = mods[mod]
        with torch.no_grad():
            lin.weight.copy_(torch.from_numpy(deq.T.copy()))
    dq.eval()
    return dq


FIXTURE_PROMPTS = [
    ("chat", [{"role": "user", "content": "Think of a common English word that starts with the letter B. Reply with the word only."}]),
    ("chat", [{"role": "user", "content": "You are a retired farmer from Iowa who goes to church every week.\nStatement: The government should raise the minimum wage.\nDo you agree or disagree? Reply with one word: Agree or Disagree."}]),
    ("plain", "Once upon a time, a girl and her dog"),
    ("plain", "Turn 1: Mia said: Hello, nice to meet you."),
]


@torch.no_grad()
def greedy(model, ids, eos_ids, n=20):
    ids = list(ids)
    out = []
    for _ in range(n):
        x = torch.tensor(ids)[None]
        logits = model.train_logits(x, torch.ones_like(x))[0, -1]
        t = int(torch.argmax(logits))
        out.append(t)
        ids.append(t)
        if t in eos_ids:
            break
    return out


def banned_sequences(phrases):
    """Each phrase's token ids, without and with a leading space, in order, each once (a word's two forms are
    different pieces: "Secret" is "S|ecret", " Secret" one piece)."""
    from tok import Encoder

    enc = Encoder.load(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tokenizer.json"))
    seqs = []
    for p in phrases:
        for v in (p, " " + p):
            ids = enc.encode(v)
            if ids and ids not in seqs:
                seqs.append(ids)
    return seqs


def main():
    work, out, fixture = sys.argv[1], sys.argv[2], sys.argv[3]
    torch.set_num_threads(int(os.environ.get("THREADS", "2")))
    model = LlamaForCausalLM(ARCH)
    model.load_state_dict(torch.load(f"{work}/ckpt.pt"))
    model.eval()
    half = os.environ.get("HALF_WEIGHTS", "0") == "1"
    if half:
        round_to_half(model)
    enc = Encoder.load(f"{out}/tokenizer.json")
    eos = enc.vocab["<|im_end|>"]
    eot = enc.vocab["<|endoftext|>"]
    os.makedirs(f"{out}/onnx", exist_ok=True)
    export_fp32(model, f"{out}/onnx/model.onnx")
    deq = make_q4(f"{out}/onnx/model.onnx", f"{out}/onnx/model_q4.onnx")
    if half:
        print(f"weights stored in half precision: {store_half(f'{out}/onnx/model.onnx')} initializers", flush=True)
    a = ARCH
    cfg = {
        "architectures": ["LlamaForCausalLM"], "model_type": "llama",
        "vocab_size": a["vocab_size"], "hidden_size": a["hidden_size"], "intermediate_size": a["intermediate_size"],
        "num_hidden_layers": a["num_hidden_layers"], "num_attention_heads": a["num_attention_heads"],
        "num_key_value_heads": a["num_key_value_heads"], "head_dim": a["head_dim"],
        "max_position_embeddings": a["max_position_embeddings"], "rope_theta": a["rope_theta"],
        "rms_norm_eps": a["rms_norm_eps"], "hidden_act": "silu", "tie_word_embeddings": a["tie_word_embeddings"],
        "attention_bias": False, "mlp_bias": False, "torch_dtype": "float32",
        "bos_token_id": eot, "eos_token_id": eos, "pad_token_id": eot, "use_cache": True,
        "transformers.js_config": {"dtype": "fp32", "use_external_data_format": False},
    }
    json.dump(cfg, open(f"{out}/config.json", "w"), indent=2)
    gen = {"bos_token_id": eot, "eos_token_id": [eos, eot], "pad_token_id": eot, "do_sample": True,
           "temperature": 0.7, "max_new_tokens": 300}
    # How the model asks to be sampled beyond its temperature: TOP_P (nucleus mass) and MIN_P (min-p cut); the
    # runtime reads top_p and min_p as transformers' generate() does.
    for env, field in (("TOP_P", "top_p"), ("MIN_P", "min_p"), ("PROMPT_BOOST", "encoder_repetition_penalty")):
        if os.environ.get(env):
            gen[field] = float(os.environ[env])
    # BANNED="Secret|I am only reading": phrases the model never writes (bad_words_ids, which the runtime reads as
    # transformers' NoBadWordsLogitsProcessor does), each as the tokenizer splits it with and without a space before.
    if os.environ.get("BANNED"):
        gen["bad_words_ids"] = banned_sequences(os.environ["BANNED"].split("|"))
    json.dump(gen, open(f"{out}/generation_config.json", "w"), indent=2)

    dq = dequantised_model(model, deq)
    cases = []
    worst_h, worst_logit = 0.0, 0.0
    for kind, p in FIXTURE_PROMPTS:
        text = chatml(p, True) if kind == "chat" else p
        ids = enc.encode(text)
        hs, logits = model.hidden_states(torch.tensor(ids))
        hq, lq = dq.hidden_states(torch.tensor(ids))
        d = (hs[:, -1] - hq[:, -1]).abs().max().item()
        dl = (logits[-1] - lq[-1]).abs().max().item()
        worst_h, worst_logit = max(worst_h, d), max(worst_logit, dl)
        cont = greedy(model, ids, {eos, eot})
        cases.append({
            "kind": kind,
            "messages": p if kind == "chat" else None,
            "text": text,
            "input_ids": ids,
            "hidden_last_token": [[float(f"{v:.9g}") for v in row] for row in hs[:, -1].tolist()],
            "logits_last_token_top5": [[int(i), float(f"{v:.7g}")] for v, i in
                                       zip(*torch.topk(logits[-1], 5))],
            "greedy_continuation": cont,
            "greedy_text": decode(enc, cont),
            "q4_max_abs_diff_hidden": d,
            "q4_max_abs_diff_logits": dl,
        })
    tol_q4 = float(f"{max(0.05, 2 * worst_h):.2g}")
    hmax = max(max(abs(v) for row in c["hidden_last_token"] for v in row) for c in cases)
    tol_fp32 = float(f"{max(1e-5, 16 * 2.0 ** (math.floor(math.log2(hmax)) - 23)):.2g}")
    fx = {
        "description": "PyTorch (fp32, CPU) residual stream of the embedded model tiny-social at the last input token: "
                       "row 0 = embeddings output (/model/embed_tokens/Gather_output_0), row N+1 = output of decoder "
                       "layer N (/model/layers.N/Add_1_output_0). Greedy continuations stop after an eos id or 20 tokens.",
        "model": "tiny-social",
        "num_layers": a["num_hidden_layers"],
        "hidden_size": a["hidden_size"],
        "shape": [a["num_hidden_layers"] + 1, a["hidden_size"]],
        "eos_token_ids": [eos, eot],
        "tolerances": {
            "fp32": {"hidden_max_abs": tol_fp32, "max_abs_hidden_value": float(f"{hmax:.4g}"),
                     "note": "ONNX fp32 vs PyTorch fp32: max(1e-5, 16 float32 ulps at the largest |hidden| value); "
                             "the residual stream reaches |h| ~ 20-30, where one ulp is ~2e-6; onnxruntime-node CPU measured ~6 ulps"},
            "q4": {"hidden_max_abs": tol_q4,
                   "measured_max_abs_hidden_vs_fp32": float(f"{worst_h:.4g}"),
                   "measured_max_abs_logits_vs_fp32": float(f"{worst_logit:.4g}"),
                   "note": "q4 (MatMulNBits, block 32, asymmetric) against this fp32 reference; measured in PyTorch "
                           "with the dequantised weights; tolerance = max(0.05, 2 x measured). Greedy continuations "
                           "may differ under q4."},
        },
        "cases": cases,
    }
    os.makedirs(os.path.dirname(fixture), exist_ok=True)
    json.dump(fx, open(fixture, "w"), indent=1)
    stats = {"params": count_params(model), "q4_max_abs_hidden": worst_h, "q4_max_abs_logits": worst_logit}
    json.dump(stats, open(f"{work}/export_stats.json", "w"), indent=1)
    print(json.dumps(stats))


if __name__ == "__main__":
    main()
