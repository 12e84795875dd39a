"""A small Llama in plain PyTorch, with Hugging Face module names so that the ONNX export names its nodes the way
Optimum does (`/model/layers.N/Add_1_output_0` is the residual stream after decoder layer N).

Export-friendly choices (DESIGN.md section 4): RoPE as cos/sin lookup tables gathered by position_ids, GQA by
expand+reshape (not repeat_interleave), and the causal/padding mask built at the LlamaModel scope so that the only
`Add` nodes directly inside a decoder layer's scope are its two residual additions.
"""
import json
import math
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

ARCH = dict(
    vocab_size=3072,
    hidden_size=128,
    intermediate_size=384,
    num_hidden_layers=6,
    num_attention_heads=4,
    num_key_value_heads=2,
    head_dim=32,
    max_position_embeddings=1024,
    rope_theta=10000.0,
    rms_norm_eps=1e-5,
    tie_word_embeddings=True,
)
# ARCH_JSON: a JSON file whose keys replace the defaults above (the Similarity population's smaller models,
# organisms/similarity/law.ts POPULATION_ARCH); train, export and the checks all read ARCH from here.
if os.environ.get("ARCH_JSON"):
    ARCH.update(json.load(open(os.environ["ARCH_JSON"])))

MASK_VALUE = -1e9  # finite, so that a fully masked (left-padding) row stays finite


class LlamaRMSNorm(nn.Module):
    def __init__(self, hidden, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden))
        self.eps = eps

    def forward(self, x):
        var = x.pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(var + self.eps))


class LlamaRotaryEmbedding(nn.Module):
    def __init__(self, head_dim, max_pos, theta):
        super().__init__()
        inv_freq = 1.0 / (theta ** (torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim))
        t = torch.arange(max_pos, dtype=torch.float64)
        freqs = torch.outer(t, inv_freq)
        emb = torch.cat([freqs, freqs], dim=-1)
        self.register_buffer("cos_cached", emb.cos().float(), persistent=False)
        self.register_buffer("sin_cached", emb.sin().float(), persistent=False)

    def forward(self, position_ids):
        # Gather rows by position id: exact on every backend (no Cos/Sin ops in the graph).
        cos = F.embedding(position_ids, self.cos_cached)[:, None, :, :]
        sin = F.embedding(position_ids, self.sin_cached)[:, None, :, :]
        return cos, sin


def rotate_half(x):
    h = x.shape[-1] // 2
    return torch.cat([-x[..., h:], x[..., :h]], dim=-1)


class LlamaAttention(nn.Module):
    def __init__(self, a):
        super().__init__()
        self.n_heads = a["num_attention_heads"]
        self.n_kv = a["num_key_value_heads"]
        self.hd = a["head_dim"]
        H = a["hidden_size"]
        self.q_proj = nn.Linear(H, self.n_heads * self.hd, bias=False)
        self.k_proj = nn.Linear(H, self.n_kv * self.hd, bias=False)
        self.v_proj = nn.Linear(H, self.n_kv * self.hd, bias=False)
        self.o_proj = nn.Linear(self.n_heads * self.hd, H, bias=False)

    def forward(self, x, cos, sin, bias, past_k=None, past_v=None):
        B, L, _ = x.shape
        q = self.q_proj(x).view(B, L, self.n_heads, self.hd).transpose(1, 2)
        k = self.k_proj(x).view(B, L, self.n_kv, self.hd).transpose(1, 2)
        v = self.v_proj(x).view(B, L, self.n_kv, self.hd).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        if past_k is not None:
            k = torch.cat([past_k, k], dim=2)
            v = torch.cat([past_v, v], dim=2)
        present = (k, v)
        rep = self.n_heads // self.n_kv
        T = k.shape[2]
        kk = k[:, :, None, :, :].expand(B, self.n_kv, rep, T, self.hd).reshape(B, self.n_heads, T, self.hd)
        vv = v[:, :, None, :, :].expand(B, self.n_kv, rep, T, self.hd).reshape(B, self.n_heads, T, self.hd)
        scores = torch.matmul(q, kk.transpose(2, 3)) * (1.0 / math.sqrt(self.hd)) + bias
        probs = torch.softmax(scores, dim=-1)
        out = torch.matmul(probs, vv).transpose(1, 2).reshape(B, L, self.n_heads * self.hd)
        return self.o_proj(out), present


class LlamaMLP(nn.Module):
    def __init__(self, a):
        super().__init__()
        H, I = a["hidden_size"], a["intermediate_size"]
        self.gate_proj = nn.Linear(H, I, bias=False)
        self.up_proj = nn.Linear(H, I, bias=False)
        self.down_proj = nn.Linear(I, H, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class LlamaDecoderLayer(nn.Module):
    def __init__(self, a):
        super().__init__()
        self.self_attn = LlamaAttention(a)
        self.mlp = LlamaMLP(a)
        self.input_layernorm = LlamaRMSNorm(a["hidden_size"], a["rms_norm_eps"])
        self.post_attention_layernorm = LlamaRMSNorm(a["hidden_size"], a["rms_norm_eps"])

    def forward(self, x, cos, sin, bias, past_k=None, past_v=None):
        a, present = self.self_attn(self.input_layernorm(x), cos, sin, bias, past_k, past_v)
        h = x + a  # -> /model/layers.N/Add
        out = h + self.mlp(self.post_attention_layernorm(h))  # -> /model/layers.N/Add_1 (the residual stream)
        return out, present


class LlamaModel(nn.Module):
    def __init__(self, a):
        super().__init__()
        self.embed_tokens = nn.Embedding(a["vocab_size"], a["hidden_size"])
        self.layers = nn.ModuleList([LlamaDecoderLayer(a) for _ in range(a["num_hidden_layers"])])
        self.norm = LlamaRMSNorm(a["hidden_size"], a["rms_norm_eps"])
        self.rotary_emb = LlamaRotaryEmbedding(a["head_dim"], a["max_position_embeddings"], a["rope_theta"])

    def forward(self, input_ids, attention_mask, position_ids, past=None, want_hidden=False):
        x = self.embed_tokens(input_ids)
        L = input_ids.shape[1]
        P = 0 if past is None else past[0][0].shape[2]
        T = attention_mask.shape[1]
        cos, sin = self.rotary_emb(position_ids)
        key_pos = torch.arange(T, device=input_ids.device)
        query_pos = torch.arange(L, device=input_ids.device) + (T - L)
        causal = key_pos[None, :] <= query_pos[:, None]  # [L, T]
        allowed = causal[None, None, :, :] & (attention_mask[:, None, None, :] > 0)
        zero = torch.zeros((), dtype=x.dtype)
        neg = torch.full((), MASK_VALUE, dtype=x.dtype)
        bias = torch.where(allowed, zero, neg)
        hidden = [x] if want_hidden else None
        presents = []
        for i, layer in enumerate(self.layers):
            pk, pv = (None, None) if past is None else past[i]
            x, pr = layer(x, cos, sin, bias, pk, pv)
            presents.append(pr)
            if want_hidden:
                hidden.append(x)
        return self.norm(x), presents, hidden


class LlamaForCausalLM(nn.Module):
    def __init__(self, a=ARCH):
        super().__init__()
        self.arch = dict(a)
        self.model = LlamaModel(a)
        self.lm_head = nn.Linear(a["hidden_size"], a["vocab_size"], bias=False)
        if a["tie_word_embeddings"]:
            self.lm_head.weight = self.model.embed_tokens.weight
        self.apply(self._init)
        # GPT-2 style: scale the residual-branch output projections by depth
        for n, p in self.named_parameters():
            if n.endswith("o_proj.weight") or n.endswith("down_proj.weight"):
                nn.init.normal_(p, std=0.02 / math.sqrt(2 * a["num_hidden_layers"]))

    @staticmethod
    def _init(m):
        if isinstance(m, (nn.Linear, nn.Embedding)):
            nn.init.normal_(m.weight, std=0.02)

    def forward(self, input_ids, attention_mask, position_ids, *flat_past):
        """ONNX signature: flat past (k0, v0, k1, v1, ...) -> logits, present k0, v0, ..."""
        past = None
        if len(flat_past) > 0:
            past = [(flat_past[2 * i], flat_past[2 * i + 1]) for i in range(len(flat_past) // 2)]
        h, presents, _ = self.model(input_ids, attention_mask, position_ids, past)
        logits = self.lm_head(h)
        out = [logits]
        for k, v in presents:
            out += [k, v]
        return tuple(out)

    def train_logits(self, input_ids, attention_mask, want_hidden=False):
        """Logits for a padded batch; with want_hidden also the residual stream after each decoder layer (list)."""
        pos = torch.arange(input_ids.shape[1])[None, :].expand_as(input_ids)
        h, _, hidden = self.model(input_ids, attention_mask, pos, want_hidden=want_hidden)
        return (self.lm_head(h), hidden[1:]) if want_hidden else self.lm_head(h)

    def hidden_states(self, input_ids):
        """[L+1, T, H] residual stream (embeddings, then after each decoder layer) for one unpadded sequence."""
        ids = input_ids[None, :]
        pos = torch.arange(ids.shape[1])[None, :]
        mask = torch.ones_like(ids)
        h, _, hidden = self.model(ids, mask, pos, want_hidden=True)
        return torch.stack([t[0] for t in hidden]), self.lm_head(h)[0]


def count_params(m):
    seen, n = set(), 0
    for p in m.parameters():
        if id(p) not in seen:
            seen.add(id(p))
            n += p.numel()
    return n
