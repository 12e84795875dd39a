"""Byte-level BPE, trained and applied by our own code, saved in the Hugging Face `tokenizers` JSON format
(BPE model, ByteLevel pre-tokenizer and decoder) so that transformers.js loads it.

The corpus is ASCII (corpus.ts asserts this), for which Python's `re` with [^\\W\\d_] / \\d reproduces the GPT-2
pre-tokenizer pattern (\\p{L} / \\p{N}) that transformers.js applies.
"""
import json
import re
from collections import Counter, defaultdict

SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
PAT = re.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?[^\W\d_]+| ?\d+| ?(?:[^\s\w]|_)+|\s+(?!\S)|\s+""")
SPECIAL_RE = re.compile("(" + "|".join(re.escape(s) for s in SPECIAL) + ")")

CHAT_TEMPLATE = (
    "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}"
    "{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)


def bytes_to_unicode():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, [chr(c) for c in cs]))


B2U = bytes_to_unicode()
U2B = {u: b for b, u in B2U.items()}


def piece_bytes(piece):
    """The bytes a vocabulary piece stands for ("Ġthe" -> b" the")."""
    return bytes(U2B[c] for c in piece)


def pretokenize(text):
    return [m.group(0) for m in PAT.finditer(text)]


def to_units(word):
    return "".join(B2U[b] for b in word.encode("utf-8"))


def train(texts, vocab_size):
    counts = Counter()
    for t in texts:
        for seg in SPECIAL_RE.split(t):
            if seg in SPECIAL or not seg:
                continue
            for w in pretokenize(seg):
                counts[to_units(w)] += 1
    words = [list(w) for w in counts]
    freq = [counts[w] for w in counts]
    vocab = {s: i for i, s in enumerate(SPECIAL)}
    for b in range(256):
        vocab[B2U[b]] = len(vocab)
    pair_count = Counter()
    where = defaultdict(set)
    for wi, w in enumerate(words):
        for a, b in zip(w, w[1:]):
            pair_count[(a, b)] += freq[wi]
            where[(a, b)].add(wi)
    merges = []
    while len(vocab) < vocab_size and pair_count:
        best = max(pair_count.items(), key=lambda kv: (kv[1], kv[0]))
        (a, b), c = best
        if c < 2:
            break
        merges.append((a, b))
        ab = a + b
        vocab[ab] = len(vocab)
        for wi in list(where[(a, b)]):
            w = words[wi]
            f = freq[wi]
            for x, y in zip(w, w[1:]):
                pair_count[(x, y)] -= f
                if pair_count[(x, y)] <= 0:
                    del pair_count[(x, y)]
            nw, i = [], 0
            while i < len(w):
                if i + 1 < len(w) and w[i] == a and w[i + 1] == b:
                    nw.append(ab)
                    i += 2
                else:
                    nw.append(w[i])
                    i += 1
            words[wi] = nw
            for x, y in zip(nw, nw[1:]):
                pair_count[(x, y)] += f
                where[(x, y)].add(wi)
        where.pop((a, b), None)
    return vocab, merges


class Encoder:
    def __init__(self, vocab, merges):
        self.vocab = vocab
        self.ranks = {m: i for i, m in enumerate(merges)}
        self.cache = {}

    @staticmethod
    def load(path):
        j = json.load(open(path))
        merges = [tuple(m.split(" ")) if isinstance(m, str) else tuple(m) for m in j["model"]["merges"]]
        vocab = dict(j["model"]["vocab"])
        for t in j["added_tokens"]:
            vocab[t["content"]] = t["id"]
        return Encoder(vocab, merges)

    def bpe(self, units):
        if units in self.cache:
            return self.cache[units]
        w = list(units)
        while len(w) > 1:
            best, bi = None, -1
            for i in range(len(w) - 1):
                r = self.ranks.get((w[i], w[i + 1]))
                if r is not None and (best is None or r < best):
                    best, bi = r, i
            if best is None:
                break
            w = w[:bi] + [w[bi] + w[bi + 1]] + w[bi + 2:]
        ids = [self.vocab[t] for t in w]
        self.cache[units] = ids
        return ids

    def encode(self, text):
        ids = []
        for seg in SPECIAL_RE.split(text):
            if not seg:
                continue
            if seg in SPECIAL:
                ids.append(self.vocab[seg])
                continue
            for w in pretokenize(seg):
                ids.extend(self.bpe(to_units(w)))
        return ids


def save(out_dir, vocab, merges, max_len):
    added = [
        {"id": vocab[s], "content": s, "single_word": False, "lstrip": False, "rstrip": False, "normalized": False,
         "special": True}
        for s in SPECIAL
    ]
    # The special tokens are in the model's vocabulary too (as in GPT-2's own tokenizer.json), so that every reader
    # gives them ids 0-2: Python's `tokenizers` appends added tokens missing from the vocabulary after it (3069-3071).
    model_vocab = dict(vocab)
    tok = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": added,
        "normalizer": None,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
        "post_processor": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False, "use_regex": True},
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
        "model": {
            "type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
            "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
            "vocab": model_vocab, "merges": [a + " " + b for a, b in merges],
        },
    }
    with open(f"{out_dir}/tokenizer.json", "w") as f:
        json.dump(tok, f, ensure_ascii=False, separators=(",", ":"))
    cfg = {
        "add_bos_token": False,
        "add_eos_token": False,
        "bos_token": "<|endoftext|>",
        "eos_token": "<|im_end|>",
        "pad_token": "<|endoftext|>",
        "unk_token": None,
        "chat_template": CHAT_TEMPLATE,
        "clean_up_tokenization_spaces": False,
        "model_max_length": max_len,
        "tokenizer_class": "PreTrainedTokenizerFast",
        "added_tokens_decoder": {
            str(vocab[s]): {"content": s, "lstrip": False, "normalized": False, "rstrip": False, "single_word": False,
                            "special": True} for s in SPECIAL
        },
    }
    with open(f"{out_dir}/tokenizer_config.json", "w") as f:
        json.dump(cfg, f, indent=2)
    with open(f"{out_dir}/special_tokens_map.json", "w") as f:
        json.dump({"bos_token": "<|endoftext|>", "eos_token": "<|im_end|>", "pad_token": "<|endoftext|>"}, f, indent=2)


def chatml(messages, add_generation_prompt):
    s = "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages)
    return s + ("<|im_start|>assistant\n" if add_generation_prompt else "")


def decode(enc, ids):
    inv = {v: k for k, v in enc.vocab.items()}
    out = bytearray()
    for i in ids:
        t = inv[i]
        if t in SPECIAL:
            out.extend(t.encode())
        else:
            out.extend(piece_bytes(t))
    return out.decode("utf-8", errors="replace")
