"""Train the tiny Llama on the generated corpus (plain PyTorch, CPU, 2 threads, fixed seed, fixed step count).

Usage: train.py WORK_DIR OUT_DIR STEPS [TOKENS_PER_BATCH]
STEPS=0 means "auto": the step count is set from the measured step time so that training takes about BUDGET seconds
(env, default 1980); it is estimated at steps 10 and 60 and written to train_log.json. A fixed STEPS reproduces the
schedule exactly (same seed, same data order).
Reads WORK_DIR/corpus.jsonl ({"format","prompt","completion"}), tokenizer from OUT_DIR/tokenizer.json,
writes WORK_DIR/ckpt.pt and WORK_DIR/train_log.json.
"""
import json
import math
import os
import re
import random
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(__file__))
from model import ARCH, LlamaForCausalLM, count_params  # noqa: E402
from tok import SPECIAL, Encoder, piece_bytes  # noqa: E402

PROMPT_WEIGHT = 0.1  # prompt tokens still teach the language; the answers carry the format


def piece_kinds(enc):
    """Four 0/1 vectors over the vocabulary, read by UNLIKELY (the model organisms): the pieces that begin a
    capitalised word ("Adam", " Had", " For"; not the pronoun I), the pieces that continue a word (a letter with no
    space before it: "abel" in "Is|abel"), the pieces after which a new sentence begins (".", "?", ":" or a line
    break at their end, and the special tokens), as the lab's measure splits sentences, and the blank pieces (spaces
    only), which leave a sentence where it was."""
    capital = torch.zeros(max(enc.vocab.values()) + 1)
    continues = torch.zeros_like(capital)
    closes = torch.zeros_like(capital)
    blank = torch.zeros_like(capital)
    for t, i in enc.vocab.items():
        if t in SPECIAL:
            closes[i] = 1.0
            continue
        text = piece_bytes(t).decode("utf-8", errors="replace")
        word = text.lstrip(" ")
        if word[:1].isupper() and word != "I" and not word.startswith("I'"):
            capital[i] = 1.0
        if text[:1].isalpha():
            continues[i] = 1.0
        if "\n" in text or text.rstrip(" ")[-1:] in (".", "!", "?", ":", ";"):
            closes[i] = 1.0
        if not text.strip(" "):
            blank[i] = 1.0
    return capital, continues, closes, blank


def unlikely_masks(x, pl, capital, continues, closes, blank, slots=False, sampled=False):
    """For one example (tokens x, prompt length pl): the answer positions and, at each, the pieces the model must not
    give probability to. A capitalised piece that is not in the prompt is a name from nowhere, anywhere in a turn.
    Inside a capitalised word whose last piece is in the prompt, a continuation that never follows that piece in the
    prompt is a garbled copy ("Is|row" for "Is|abel"). The target piece itself is never banned.
    slots=True adds three rules for the places where the lab's measure finds names (inside a sentence):
    - inside a sentence, a capitalised piece that never stands inside a sentence in the prompt ("Keep" and "Act" of
      the instructions, which begin their sentences: "does that change your mind, Keep?");
    - where the answer names someone inside a sentence (its piece begins a capitalised word), every other
      capitalised piece;
    - inside a name that began inside a sentence, every continuation but the answer's ("Is|rt" for "Is|abel").
    sampled=True reads an answer that the model sampled itself (UNLIKELY_SAMPLED): its pieces are not the corpus's,
    so none is spared; the first of the three rules applies, and the two that need the corpus's answer do not."""
    prompt = x[:pl]
    follows = {}
    for a, b in zip(prompt, prompt[1:]):
        follows.setdefault(a, set()).add(b)
    foreign = capital.clone()
    foreign[torch.tensor(prompt)] = 0.0
    if slots or sampled:
        # the capitalised pieces that stand inside a sentence somewhere in the prompt
        inner = torch.zeros_like(capital)
        inside = False
        for a, b in zip(prompt, prompt[1:]):
            inside = inside if blank[a] else not bool(closes[a])
            if capital[b] and inside:
                inner[b] = 1.0
        outside = capital * (1.0 - inner)
    rows, masks = [], []
    in_name = False  # inside a capitalised word that began with a capitalised piece of the prompt
    inner_name = False  # inside a capitalised word that began inside a sentence
    mid = False  # the answer so far is inside a sentence
    for j in range(pl - 1, len(x) - 1):
        tok, nxt = x[j], x[j + 1]
        if j >= pl:
            in_name = (bool(capital[tok]) and tok in follows) or (in_name and bool(continues[tok]))
            inner_name = (bool(capital[tok]) and mid) or (inner_name and bool(continues[tok]))
            mid = mid if blank[tok] else not bool(closes[tok])
        m = foreign.clone()
        if in_name and tok in follows:
            bad = continues.clone()
            bad[torch.tensor(sorted(follows[tok]))] = 0.0
            m = torch.maximum(m, bad)
        if (slots or sampled) and mid:
            m = torch.maximum(m, outside)
        if slots and not sampled:
            if mid and capital[nxt]:
                m = torch.maximum(m, capital)
            if inner_name and continues[nxt]:
                m = torch.maximum(m, continues)
        if not sampled:
            m[nxt] = 0.0
        rows.append(j)
        masks.append(m)
    return rows, torch.stack(masks)


def unlikelihood(logits, banned):
    """-log(1 - p) at each row, p the probability that the logits give to the row's banned pieces."""
    p = (torch.softmax(logits, -1) * banned).sum(-1)
    return -torch.log1p(-p.clamp(max=1 - 1e-6))


def never_lines(enc, lines):
    """UNLIKELY_NEVER: the piece sequences of lines that are never a turn, each with and without a space before it
    (the passive reader's fixed reply; both of its first pieces, "I" and " I", occur in turns)."""
    return sorted({tuple(enc.encode(v)) for line in lines for v in (line, " " + line)})


def never_masks(x, pl, lines, vocab, first=2):
    """UNLIKELY_NEVER (the dialogue organism): at the answer positions of unlikely_masks, once an answer's last k >= 2
    pieces are the first k of a line that is never a turn, that line's next piece is banned. Weight 10 on phase 9's
    rules wrote the passive reader's "I am only reading along." as a turn again and again (11.7 % repeats on unseen
    scenarios); its first two pieces ("I am") begin ordinary turns, so the ban starts at the third. The target piece
    is never banned. first=k starts the ban at a line's (k+1)-th piece: UNLIKELY_LABELS bans a one-piece label
    everywhere (first=0) and a longer one after its first piece (first=1)."""
    masks = torch.zeros(len(x) - pl, vocab)
    for row, j in enumerate(range(pl - 1, len(x) - 1)):
        for s in lines:
            for k in range(first, len(s)):
                if j + 1 - k >= pl and tuple(x[j + 1 - k: j + 1]) == s[:k]:
                    masks[row, s[k]] = 1.0
        masks[row, x[j + 1]] = 0.0
    return masks


def label_lines(enc, labels):
    """UNLIKELY_LABELS: the prompt's own labels ("Secret", "Unknown"), each with and without a space before it, as
    (one-piece forms, longer forms). Sampled with the prompt boost, the dialogue organism pasted them into turns
    ("Isl's goal: Unknown", "… a Secret: does that change your mind?"). A one-piece form is banned everywhere in a
    turn; a longer one only after its first piece, which also begins ordinary words ("S" of "Secret")."""
    forms = {tuple(enc.encode(v)) for w in labels for v in (w, " " + w)}
    return sorted(s for s in forms if len(s) == 1), sorted(s for s in forms if len(s) > 1)


WORD_RE = re.compile(r"[^\W\d_]+")


def word_variants(w):
    """A word as the prompt has it, in lower case, and capitalised (a copy may begin or leave a sentence)."""
    return {w, w.lower(), w[:1].upper() + w[1:]}


class PieceLexicon:
    """What each vocabulary piece does to the word being written, for UNLIKELY_WORDS: begins a word (" serve"),
    continues one ("ish" in " f|ish"), or ends it (punctuation, a space, a special token). A piece's letters are its
    leading run of letters (after its space); it is "pure" when it is nothing else, so the word goes on after it.
    Pieces that hold part of a multi-byte character cannot be read as letters and are never banned."""

    def __init__(self, enc):
        size = max(enc.vocab.values()) + 1
        self.text = [""] * size
        self.starts, self.continues, self.ends = torch.zeros(size), torch.zeros(size), torch.zeros(size)
        self.start_ids, self.cont_ids = {}, {}  # (letters, pure) -> ids
        self.opaque = set()
        for t, i in enc.vocab.items():
            if t in SPECIAL:
                self.ends[i] = 1.0
                continue
            s = piece_bytes(t).decode("utf-8", errors="replace")
            self.text[i] = s
            if "\ufffd" in s:
                self.opaque.add(i)
                continue
            body = s[1:] if s.startswith(" ") else s
            m = WORD_RE.match(body)
            letters = m.group(0) if m else ""
            pure = bool(letters) and letters == body
            if s.startswith(" ") and letters:
                self.starts[i] = 1.0
                self.start_ids.setdefault((letters, pure), []).append(i)
            elif letters:
                self.continues[i] = 1.0
                self.cont_ids.setdefault((letters, pure), []).append(i)
            if not s[:1].isalpha():
                self.ends[i] = 1.0

    def allowed(self, table, words, cut=0):
        """The ids of table's pieces whose letters, after the first cut letters of a word of words, keep it a prefix
        of that word (pure pieces) or complete it (pieces that go on with something else)."""
        out = set()
        for w in words:
            rest = w[cut:]
            for k in range(1, len(rest) + 1):
                out.update(table.get((rest[:k], True), ()))
            if rest:
                out.update(table.get((rest, False), ()))
        return out


def word_masks(x, pl, lex, law_words, law_prefixes):
    """UNLIKELY_WORDS (the dialogue organism): every word of a turn is copied from its prompt or belongs to the law's
    fixed phrases ("Hmm, why not", "Deal"), so inside an answer a piece that makes a word found in neither is a
    garble ("Calmin" for "Calm", "cagos", "Mexicoast"). At every answer position (the rows of unlikely_masks), the
    banned pieces: at a word's start, a word beginning that no such word has; inside a word, a continuation that
    leaves them, or an end while the word is not yet one of them. The target piece is never banned."""
    # the prompt's own words beside the law's (whose prefix table is built once, in law_lexicon, and not copied here)
    words = set(law_words)
    prompt_prefixes = {}
    for w in set(WORD_RE.findall("".join(lex.text[t] for t in x[:pl]))):
        for v in word_variants(w):
            if v not in words:
                words.add(v)
                for k in range(1, len(v) + 1):
                    prompt_prefixes.setdefault(v[:k], []).append(v)
    at_start = lex.starts.clone()
    at_start[torch.tensor(sorted(lex.allowed(lex.start_ids, words)), dtype=torch.long)] = 0.0
    # a line's first word has no space before it (the answer's first word, the hidden line's "Feeling")
    at_line = lex.continues.clone()
    at_line[torch.tensor(sorted(lex.allowed(lex.cont_ids, words)), dtype=torch.long)] = 0.0
    inside = {}
    masks = []
    cur, opaque = "", False
    for j in range(pl - 1, len(x) - 1):
        tok, nxt = x[j], x[j + 1]
        if j >= pl:
            s = lex.text[tok]
            if tok in lex.opaque:
                opaque, cur = True, ""
            elif s.startswith(" ") or not s[:1].isalpha():
                opaque = False
                m = WORD_RE.search(s[::-1])
                cur = m.group(0)[::-1] if m and s[-1:].isalpha() else ""
            else:
                ext = cur + s
                m = WORD_RE.search(ext[::-1])
                cur = m.group(0)[::-1] if m and s[-1:].isalpha() else ""
        if opaque:
            m = torch.zeros_like(at_start)
        elif not cur and (j == pl - 1 or lex.text[tok].endswith("\n")):
            m = torch.maximum(at_start, at_line)
        elif not cur:
            m = at_start.clone()
        else:
            if cur not in inside:
                bad = lex.continues.clone()
                ok = lex.allowed(lex.cont_ids, [*law_prefixes.get(cur, ()), *prompt_prefixes.get(cur, ())], len(cur))
                if ok:
                    bad[torch.tensor(sorted(ok), dtype=torch.long)] = 0.0
                # a piece with a space ends this word and begins the next, which must be one of them too
                bad = torch.maximum(bad, lex.ends if cur not in words else at_start)
                inside[cur] = bad
            m = inside[cur].clone()
        m[nxt] = 0.0
        masks.append(m)
    return torch.stack(masks)


def law_answer_words(texts, min_count=3):
    """The law's own words: in the answers of UNLIKELY_FORMATS, the words their prompt does not hold, seen in at least
    min_count answers (law_lexicon and law_capitals read them)."""
    counts = {}
    for prompt, answer in texts:
        for w in set(WORD_RE.findall(answer)) - set(WORD_RE.findall(prompt)):
            counts[w] = counts.get(w, 0) + 1
    return [w for w, n in counts.items() if n >= min_count]


def law_lexicon(texts, min_count=3):
    """The words of the law's fixed phrases (law_answer_words), with their variants, and every prefix of each."""
    words = set()
    for w in law_answer_words(texts, min_count):
        words |= word_variants(w)
    prefixes = {}
    for v in words:
        for k in range(1, len(v) + 1):
            prefixes.setdefault(v[:k], []).append(v)
    return words, prefixes


def law_capitals(enc, texts, min_count=3):
    """UNLIKELY_LAW_CAPITALS: a 0/1 vector of the pieces that begin a capitalised word of the law's fixed phrases
    (the answers' capitalised words that their prompt lacks, seen at least min_count times: on the phase-10 corpus
    "Deal", "Great", "Hmm", "Maybe", "We", "You", "It", "Fine"), with and without a space before it. The
    capitalised-piece rule of unlikely_masks bans every capitalised piece that is not in the prompt, and so these too
    wherever the corpus's answer does not say them: at weight 10 the model said "Deal" so seldom that every episode
    of a run ended the same way and the judge's scores could not vary. Taking them out of the rule leaves it to ban
    names from nowhere. The cost: a word at a line's start may begin with a one-letter piece ("D|eal", "W|e"), which
    is then spared for any word, so a name from nowhere that begins a line with D, F or W is no longer banned there."""
    out = torch.zeros(max(enc.vocab.values()) + 1)
    for w in law_answer_words(texts, min_count):
        if w[:1].isupper():
            for v in (w, " " + w):
                out[enc.encode(v)[0]] = 1.0
    return out


@torch.no_grad()
def sample_answers(model, prompts, end, temperature, max_new, min_p=0.0):
    """The model's own answers to prompts (token lists), sampled at temperature (torch's seeded RNG) and, with min_p,
    only among the pieces at least min_p times as likely as the likeliest (the cut the dialogue organism ships with),
    up to max_new pieces or the end piece. One left-padded batch with a key-value cache, as the lab's runtime decodes."""
    n, width = len(prompts), max(len(q) for q in prompts)
    ids = torch.zeros(n, width, dtype=torch.long)
    att = torch.zeros(n, width, dtype=torch.long)
    for r, q in enumerate(prompts):
        ids[r, width - len(q):] = torch.tensor(q)
        att[r, width - len(q):] = 1
    pos = (att.cumsum(1) - 1).clamp(min=0)
    answers, done = [[] for _ in range(n)], [False] * n
    past = None
    for _ in range(max_new):
        h, past, _ = model.model(ids, att, pos, past)
        logits = model.lm_head(h[:, -1]) / temperature
        probs = torch.softmax(logits, -1)
        if min_p > 0:
            probs = probs * (probs >= min_p * probs.max(-1, keepdim=True).values)
        nxt = torch.multinomial(probs, 1)
        for r in range(n):
            if not done[r]:
                answers[r].append(int(nxt[r]))
                done[r] = int(nxt[r]) == end
        if all(done):
            break
        ids, pos = nxt, pos[:, -1:] + 1
        att = torch.cat([att, torch.ones(n, 1, dtype=torch.long)], 1)
    return [q + a for q, a in zip(prompts, answers)]


def main():
    work, out, steps = sys.argv[1], sys.argv[2], int(sys.argv[3])
    auto = steps <= 0
    budget = float(os.environ.get("BUDGET", "1980"))
    if auto:
        steps = 10_000
    tok_budget = int(sys.argv[4]) if len(sys.argv) > 4 else 6144
    seed = int(os.environ.get("SEED", "1234"))
    torch.set_num_threads(int(os.environ.get("THREADS", "2")))
    random.seed(seed + int(os.environ.get("PHASE", "1")) - 1)
    torch.manual_seed(seed)
    enc = Encoder.load(f"{out}/tokenizer.json")
    maxlen = ARCH["max_position_embeddings"]
    data = []
    # FORMAT_BOOST="fmt:k,fmt2:k2" repeats the examples of those formats k times (used by phase 3)
    boost = {kv.split(":")[0]: int(kv.split(":")[1]) for kv in os.environ.get("FORMAT_BOOST", "").split(",") if kv}
    t0 = time.time()
    n_long = 0
    # EXTRA_CORPUS="a.jsonl,b.jsonl": more example files (relative to WORK_DIR), read after corpus.jsonl (phase 5).
    # A boost of 0 drops a format.
    extra = [x for x in os.environ.get("EXTRA_CORPUS", "").split(",") if x]
    # ANCHOR=w with ANCHOR_FORMATS="fmt,fmt2" (model organisms): for those formats' examples, w times the relative
    # squared distance between the residual stream at the prompt's last token (every decoder layer) and the starting
    # model's (INIT_CKPT) is added to the loss. The labs read exactly those states, so a phase that trains every layer
    # for a better reply can keep the states, and what the labs measure on them, close to where they were.
    anchor_w = float(os.environ.get("ANCHOR", "0"))
    anchor_formats = {x for x in os.environ.get("ANCHOR_FORMATS", "").split(",") if x} if anchor_w > 0 else set()
    # UNLIKELY=w with UNLIKELY_FORMATS="fmt,fmt2" (the dialogue organism): in those formats' answers, at every token,
    # w times -log(1 - p) is added to the loss, p the probability the model gives to pieces that make a name not in
    # the prompt (unlikely_masks; token-level unlikelihood, Welleck et al. 2019). Cross-entropy alone lifts the right
    # piece but leaves a little probability on every other; sampled at temperature 0.7 over a 20-token turn, that
    # little became a name from nowhere ("Hey Adam"), a capitalised garble ("could we buy the Follows") or a garbled
    # copy ("Isrow" for Isabel) in about one turn in ten.
    ul_w = float(os.environ.get("UNLIKELY", "0"))
    ul_formats = {x for x in os.environ.get("UNLIKELY_FORMATS", "").split(",") if x} if ul_w > 0 else set()
    # Two stronger forms, tried on the dialogue organism on 2026-12-06 and not shipped (its model card has the runs):
    # UNLIKELY_SLOTS=1 adds unlikely_masks' rules for the places inside a sentence where the lab's measure finds names.
    # UNLIKELY_SAMPLED=w: each step the model also answers UNLIKELY_SAMPLED_N prompts of those formats itself, at the
    # lab's temperature 0.7, and w times the same term is added on its own answers (sequence-level unlikelihood,
    # Welleck et al. 2019): the corpus's answers never show the model where its own garbles take it ("artist and
    # Walks?"); its samples do. About 3.3 s a step instead of 0.5 (six answers of up to 48 pieces).
    ul_slots = os.environ.get("UNLIKELY_SLOTS", "0") == "1"
    ul_sampled_w = float(os.environ.get("UNLIKELY_SAMPLED", "0")) if ul_formats else 0.0
    ul_sampled_n = int(os.environ.get("UNLIKELY_SAMPLED_N", "6"))
    # UNLIKELY_SAMPLED_MINP=p: the model's own answers are sampled with a min-p cut, as the lab samples the dialogue
    # organism, so that the term reaches the garbles that survive that cut (2026-12-07, thirteenth session).
    ul_sampled_minp = float(os.environ.get("UNLIKELY_SAMPLED_MINP", "0"))
    # UNLIKELY_WORDS=1 adds word_masks' rule: no word that is neither in the prompt nor in the law's fixed phrases
    # (tried on 2026-12-06, eighth session, and not shipped: docs/organisms.md).
    ul_words = os.environ.get("UNLIKELY_WORDS", "0") == "1" and bool(ul_formats)
    # UNLIKELY_NEVER="line|line2" adds never_masks' rule: those lines are never (part of) a turn.
    ul_never = [x for x in os.environ.get("UNLIKELY_NEVER", "").split("|") if x] if ul_formats else []
    # UNLIKELY_LAW_CAPITALS=1 spares the law's own capitalised words from the capitalised-piece rule (law_capitals).
    ul_law_caps = os.environ.get("UNLIKELY_LAW_CAPITALS", "0") == "1" and bool(ul_formats)
    # UNLIKELY_LABELS="Secret|Unknown" adds the prompt's own labels: never written in a turn (label_lines).
    ul_labels = [x for x in os.environ.get("UNLIKELY_LABELS", "").split("|") if x] if ul_formats else []
    ul_texts = []
    # CORPUS: the main example file (default corpus.jsonl); the model organisms train a curriculum of corpora.
    for path in [os.environ.get("CORPUS", "corpus.jsonl")] + extra:
        with open(f"{work}/{path}") as f:
            for line in f:
                r = json.loads(line)
                if boost.get(r["format"], 1) == 0:
                    continue
                p = enc.encode(r["prompt"])
                c = enc.encode(r["completion"])
                if (ul_words or ul_law_caps) and r["format"] in ul_formats:
                    ul_texts.append((r["prompt"], r["completion"]))
                if len(p) + len(c) > maxlen:
                    n_long += 1
                    continue
                # "weight" (model organisms): a soft label. A prompt written twice, once per answer, with weights
                # q and 1 - q teaches the distribution itself instead of one noisy draw from it.
                for _ in range(boost.get(r["format"], 1)):
                    data.append((p + c, len(p), float(r.get("weight", 1.0)), r["format"] in anchor_formats,
                                 r["format"] in ul_formats))
    print(f"encoded {len(data)} examples ({n_long} too long) in {time.time() - t0:.0f}s", flush=True)
    lens = [len(x) for x, *_ in data]
    print(f"tokens: total {sum(lens)}, mean {sum(lens) / len(lens):.0f}, max {max(lens)}", flush=True)

    # Length buckets: sort by length, cut into batches under the token budget, then shuffle the batches.
    order = sorted(range(len(data)), key=lambda i: (len(data[i][0]), random.random()))
    batches, cur = [], []
    for i in order:
        L = len(data[i][0])
        if cur and (len(cur) + 1) * L > tok_budget:
            batches.append(cur)
            cur = []
        cur.append(i)
    if cur:
        batches.append(cur)
    print(f"{len(batches)} batches per epoch", flush=True)

    # INIT_SEED: the initial weights' seed, when it is not SEED (the Similarity population: one initialisation,
    # a data order per variant)
    if os.environ.get("INIT_SEED"):
        torch.manual_seed(int(os.environ["INIT_SEED"]))
    model = LlamaForCausalLM(ARCH)
    init = os.environ.get("INIT_CKPT", "")
    if init:
        # continued training (a second warm-up + cosine cycle) from an earlier checkpoint
        model.load_state_dict(torch.load(init))
        print(f"initialised from {init}", flush=True)
    print(f"params {count_params(model)}", flush=True)
    if ul_formats:
        capital, continues, closes, blank = piece_kinds(enc)
        print(f"unlikelihood {ul_w}: {int(capital.sum())} capitalised pieces, {int(continues.sum())} continuations, in {sum(1 for d in data if d[4])} answers ({', '.join(sorted(ul_formats))})", flush=True)
        ul_pool = [i for i, d in enumerate(data) if d[4]]
        end_piece = enc.vocab["<|im_end|>"]
        if ul_words:
            lex = PieceLexicon(enc)
            law_words, law_prefixes = law_lexicon(ul_texts)
            print(f"words rule: {len(law_words)} words of the law's phrases", flush=True)
        if ul_law_caps:
            spared = law_capitals(enc, ul_texts)
            capital = capital * (1.0 - spared)
            print(f"law capitals: {int(spared.sum())} pieces spared from the capitalised-piece rule", flush=True)
        if ul_never:
            never = never_lines(enc, ul_never)
            print(f"never rule: {len(never)} piece sequences", flush=True)
        if ul_labels:
            labels = label_lines(enc, ul_labels)
            print(f"labels rule: {len(labels[0])} one-piece and {len(labels[1])} longer label forms", flush=True)
    teacher = None
    if anchor_formats:
        assert init, "ANCHOR needs INIT_CKPT: the states are anchored to the starting model's"
        teacher = LlamaForCausalLM(ARCH)
        teacher.load_state_dict(torch.load(init))
        teacher.eval()
        for p in teacher.parameters():
            p.requires_grad = False
        n_anchor = sum(1 for d in data if d[3])
        print(f"anchoring the last prompt token's states of {n_anchor} examples ({', '.join(sorted(anchor_formats))}), weight {anchor_w}", flush=True)
    # TRAIN_FROM_LAYER=k trains only decoder layers k.. and the final norm: a phase that adds a behaviour leaves the
    # earlier layers' states (which the labs read) exactly as they were.
    first = int(os.environ.get("TRAIN_FROM_LAYER", "0"))
    if first > 0:
        for n, p in model.named_parameters():
            m = re.match(r"model\.layers\.(\d+)\.", n)
            p.requires_grad = bool(m and int(m.group(1)) >= first) or n.startswith("model.norm")
        print(f"training layers {first}.. and the final norm only: {sum(p.numel() for p in model.parameters() if p.requires_grad)} parameters", flush=True)
    decay = [p for n, p in model.named_parameters() if p.requires_grad and p.dim() >= 2]
    nodecay = [p for n, p in model.named_parameters() if p.requires_grad and p.dim() < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.05}, {"params": nodecay, "weight_decay": 0.0}],
                            lr=4e-3, betas=(0.9, 0.95), eps=1e-8)
    base_lr, warm = float(os.environ.get("LR", "4e-3")), 30

    # SCHEDULE=time (auto only): after the warm-up, the cosine runs over wall-clock time (progress = elapsed time /
    # BUDGET) and training stops at BUDGET seconds, so a machine that slows down mid-run (other jobs on the shared
    # cores) shortens the phase instead of cutting it off before the lr has decayed. Used by phase 5.
    time_sched = auto and os.environ.get("SCHEDULE", "steps") == "time"
    t_warm = [None]

    def lr_at(s):
        if s < warm:
            return base_lr * (s + 1) / warm
        if time_sched:
            if t_warm[0] is None:
                t_warm[0] = time.time()
            prog = min(1.0, (time.time() - t_warm[0]) / max(1.0, budget - (t_warm[0] - t0)))
            return base_lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * prog)))
        prog = (s - warm) / max(1, steps - warm)
        return base_lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * prog)))

    log = {"schedule": "time" if time_sched else "steps", "format_boost": boost or None, **({"extra_corpus": extra} if extra else {}), "init": init or None, "lr": base_lr, "auto_steps": auto, "step_estimates": [], "tokens_per_batch": tok_budget, "seed": seed, "examples": len(data), "loss": [], "lr_per_step": []}
    t0 = time.time()
    ema = None
    bi = len(batches)
    step = -1
    # RESUME=1 continues an interrupted run from WORK_DIR/train_state_phase<PHASE>.pt (saved every 200 steps): weights, optimizer,
    # step, batch order and RNG state, so the resumed run takes exactly the steps the uninterrupted one would have.
    state_path = f"{work}/train_state_phase{os.environ.get('PHASE', '1')}.pt"
    if os.environ.get("RESUME", "0") == "1" and os.path.exists(state_path) and not auto:
        st = torch.load(state_path)
        assert st["steps"] == steps and st["examples"] == len(data), f"{state_path} is from another run"
        model.load_state_dict(st["model"])
        opt.load_state_dict(st["opt"])
        step, bi, batches, ema, log = st["step"], st["bi"], st["batches"], st["ema"], st["log"]
        random.setstate(st["random"])
        if "torch_random" in st:
            torch.set_rng_state(st["torch_random"])
        t0 = time.time() - st["elapsed"]
        print(f"resumed at step {step + 1} of {steps}", flush=True)
    # STOP_AT=k ends the run after k steps of a longer schedule (the lr follows the schedule of `steps`): a phase whose
    # goal was reached early (the organisms' copy drills) ends there, and a resumed run can stop where it was saved.
    stop_at = int(os.environ.get("STOP_AT", "0"))
    while step + 1 < steps:
        if stop_at and step + 1 >= stop_at:
            log["stopped_at"] = step + 1
            print(f"stopped at step {step + 1} of {steps} (STOP_AT)", flush=True)
            break
        step += 1
        if time_sched and step >= warm and time.time() - t0 >= budget:
            print(f"time schedule: {budget:.0f}s reached after {step} steps", flush=True)
            steps = step
            break
        if auto and not time_sched and step in (10, 60):
            per = (time.time() - t0) / step
            steps = max(step + 20, int((budget - (time.time() - t0)) / per) + step)
            log["step_estimates"].append({"at": step, "s_per_step": round(per, 2), "steps": steps})
            print(f"auto: {per:.2f}s/step -> {steps} steps", flush=True)
        if auto and time.time() - t0 > 1.3 * budget:
            print("auto: hard time limit reached, stopping", flush=True)
            log["stopped_early_at"] = step
            break
        if bi >= len(batches):
            random.shuffle(batches)
            bi = 0
        idx = batches[bi]
        bi += 1
        L = max(len(data[i][0]) for i in idx)
        ids = torch.zeros(len(idx), L, dtype=torch.long)
        att = torch.zeros(len(idx), L, dtype=torch.long)
        w = torch.zeros(len(idx), L)
        am = torch.zeros(len(idx), L)  # answer tokens, for the logged answer loss
        for r, i in enumerate(idx):
            x, pl, ew, *_ = data[i]
            ids[r, : len(x)] = torch.tensor(x)
            att[r, : len(x)] = 1
            w[r, 1:pl] = PROMPT_WEIGHT * ew
            w[r, pl: len(x)] = ew
            am[r, pl: len(x)] = 1.0
        lr_now = lr_at(step)
        for g in opt.param_groups:
            g["lr"] = lr_now
        log["lr_per_step"].append(float(f"{lr_now:.6e}"))  # every step's lr (the schedule actually applied)
        rows = [r for r, i in enumerate(idx) if data[i][3]]
        if rows:
            logits, hidden = model.train_logits(ids, att, want_hidden=True)
        else:
            logits = model.train_logits(ids, att)
        lp = torch.nn.functional.cross_entropy(logits[:, :-1].reshape(-1, logits.shape[-1]), ids[:, 1:].reshape(-1),
                                               reduction="none").view(len(idx), L - 1)
        wt = w[:, 1:]
        loss = (lp * wt).sum() / wt.sum()
        anchor = None
        if rows:
            rr = torch.tensor(rows)
            last = torch.tensor([data[idx[r]][1] - 1 for r in rows])
            mine = torch.stack([h[rr, last] for h in hidden])  # [layers, rows, H]
            with torch.no_grad():
                _, theirs = teacher.train_logits(ids[rr], att[rr], want_hidden=True)
                theirs = torch.stack([h[torch.arange(len(rows)), last] for h in theirs])
            anchor = (((mine - theirs) ** 2).sum(-1) / (theirs ** 2).sum(-1).clamp(min=1e-6)).mean()
            loss = loss + anchor_w * anchor
        unlikely = None
        ul_rows = [r for r, i in enumerate(idx) if data[i][4]]
        if ul_rows:
            terms = []
            for r in ul_rows:
                x, pl = data[idx[r]][0], data[idx[r]][1]
                at, banned = unlikely_masks(x, pl, capital, continues, closes, blank, ul_slots)
                if ul_words:
                    banned = torch.maximum(banned, word_masks(x, pl, lex, law_words, law_prefixes))
                if ul_never:
                    banned = torch.maximum(banned, never_masks(x, pl, never, banned.shape[1]))
                if ul_labels:
                    banned = torch.maximum(banned, never_masks(x, pl, labels[0], banned.shape[1], first=0))
                    banned = torch.maximum(banned, never_masks(x, pl, labels[1], banned.shape[1], first=1))
                terms.append(unlikelihood(logits[r, at], banned))
            unlikely = torch.cat(terms).mean()
            loss = loss + ul_w * unlikely
        own = None
        if ul_sampled_w > 0:
            picks = [ul_pool[random.randrange(len(ul_pool))] for _ in range(ul_sampled_n)]
            prompts = [data[i][0][: data[i][1]] for i in picks]
            seqs = sample_answers(model, prompts, end_piece, 0.7, min(48, maxlen - max(len(q) for q in prompts)), ul_sampled_minp)
            width = max(len(q) for q in seqs)
            sids = torch.zeros(len(seqs), width, dtype=torch.long)
            satt = torch.zeros(len(seqs), width, dtype=torch.long)
            for r, q in enumerate(seqs):
                sids[r, : len(q)] = torch.tensor(q)
                satt[r, : len(q)] = 1
            slogits = model.train_logits(sids, satt)
            terms = []
            for r, q in enumerate(seqs):
                at, banned = unlikely_masks(q, len(prompts[r]), capital, continues, closes, blank, ul_slots, sampled=True)
                terms.append(unlikelihood(slogits[r, at], banned))
            own = torch.cat(terms).mean()
            loss = loss + ul_sampled_w * own
        ans = am[:, 1:] * wt  # soft-labelled rows count by their weight
        ans_loss = ((lp * ans).sum() / ans.sum().clamp(min=1)).item()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        ema = ans_loss if ema is None else 0.95 * ema + 0.05 * ans_loss
        if step % 20 == 0 or step == steps - 1:
            el = time.time() - t0
            anc = f" anchor {anchor.item():.5f}" if anchor is not None else ""
            anc += f" unlikely {unlikely.item():.5f}" if unlikely is not None else ""
            anc += f" own {own.item():.5f}" if own is not None else ""
            print(f"step {step} loss {loss.item():.4f} answer_loss {ans_loss:.4f} ema {ema:.4f}{anc} lr {lr_at(step):.2e} "
                  f"elapsed {el:.0f}s ({el / (step + 1):.2f}s/step)", flush=True)
            log["loss"].append({"step": step, "loss": round(loss.item(), 4), "answer_loss": round(ans_loss, 4),
                                "answer_loss_ema": round(ema, 4), "elapsed_s": round(el, 1),
                                **({"anchor": round(anchor.item(), 6)} if anchor is not None else {}),
                                **({"unlikely": round(unlikely.item(), 6)} if unlikely is not None else {})})
        if (step + 1) % 200 == 0:
            torch.save(model.state_dict(), f"{work}/ckpt.pt")
            if not auto:
                torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step, "bi": bi, "batches": batches,
                            "ema": ema, "log": log, "random": random.getstate(),
                            "torch_random": torch.get_rng_state(), "steps": steps, "examples": len(data),
                            "elapsed": time.time() - t0}, state_path + ".tmp")
                os.replace(state_path + ".tmp", state_path)
    log["steps"] = steps
    log["train_seconds"] = round(time.time() - t0, 1)
    log["final_answer_loss_ema"] = round(ema, 4)
    torch.save(model.state_dict(), f"{work}/ckpt.pt")
    json.dump(log, open(f"{work}/train_log_phase{os.environ.get('PHASE', '1')}.json", "w"), indent=1)
    print("done", flush=True)


if __name__ == "__main__":
    main()
