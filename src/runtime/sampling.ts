/**
 * Seeded token sampling. transformers.js samples from a process-wide generator, so the runtime samples itself:
 * a LogitsProcessor (runtime.ts) calls sampleToken() with a per-call seeded Rng (src/core/rng) and masks every
 * other token, after which transformers.js's greedy step picks the sampled one. Same seed, same logits → same token.
 */
import type { Rng } from '../core/rng';
import { MAX_BANNED } from '../core/runs/models';

import type { GenerateOptions } from './types';

export interface SamplingParams {
  temperature: number;
  topP: number;
  /**
   * Min-p cut (Nguyen et al. 2024, transformers' MinPLogitsWarper): tokens whose tempered probability is below minP
   * times the most likely one's are dropped. 0 or absent: no cut. Applied after top-p, as transformers orders them.
   */
  minP?: number;
  /**
   * Top-k cut (transformers' TopKLogitsWarper): only the k most likely tokens stay, and every token as likely as the
   * k-th (ties are kept, as torch.topk's threshold keeps them). 0, absent, NaN, negative or at least the vocabulary:
   * no cut; a fraction is rounded down (the CLI and bundles refuse one). Applied before top-p, whose mass then counts
   * the tokens top-k kept, as transformers orders them.
   */
  topK?: number;
  /**
   * The prompt's tokens raised before anything else (boostPromptTokens; transformers' `encoder_repetition_penalty`).
   * 1 or absent: no change. It applies to greedy calls too, as transformers' processors do.
   */
  promptBoost?: number;
  /**
   * Every token already in the sequence (the prompt and the reply so far) lowered (penaliseSeenTokens; transformers'
   * `repetition_penalty`, which Qwen2.5's instruct models ship at 1.05, the 0.5B and 1.5B at 1.1). 1 or absent: no
   * change. Greedy calls too.
   */
  repetitionPenalty?: number;
  /**
   * Token sequences never written (banSequences; transformers' `bad_words_ids`): a one-token sequence nowhere, a longer
   * one's last token wherever the reply so far ends with the rest. Empty or absent: none. Greedy calls too.
   */
  banned?: readonly (readonly number[])[];
}

/**
 * The sampling rule of a call: its own temperature (0, greedy, when absent), top-p, min-p, top-k, prompt boost and
 * repetition penalty, or the model's where the call gives none (LoadResult's, read from generation_config.json as
 * transformers' generate() reads it).
 */
export function samplingParams(
  o: Pick<GenerateOptions, 'temperature' | 'topP' | 'minP' | 'topK' | 'promptBoost' | 'repetitionPenalty' | 'banned'>,
  own: Omit<SamplingParams, 'temperature'> & { minP: number; topK: number } = { topP: 1, minP: 0, topK: 0 },
): Required<SamplingParams> {
  return {
    temperature: o.temperature ?? 0,
    topP: o.topP ?? own.topP,
    minP: o.minP ?? own.minP,
    topK: o.topK ?? own.topK,
    promptBoost: o.promptBoost ?? own.promptBoost ?? 1,
    repetitionPenalty: o.repetitionPenalty ?? own.repetitionPenalty ?? 1,
    banned: o.banned ?? own.banned ?? [],
  };
}

/** Whether a call's rule needs the runtime's own processor: sampling, or a penalty (which greedy calls get too). */
/** Whether a rule boosts the prompt or penalises repeats: only then does a pick need the row's tokens. */
export const hasPenalties = (params: SamplingParams): boolean => (params.promptBoost ?? 1) !== 1 || (params.repetitionPenalty ?? 1) !== 1;

/** Whether a rule bans token sequences: only then does a pick need the row's reply so far. */
export const hasBans = (params: SamplingParams): boolean => (params.banned?.length ?? 0) > 0;

/** Whether a call's rule needs the runtime's own processor: sampling, a penalty or a ban (which greedy calls get too). */
export const needsSampler = (params: SamplingParams): boolean => params.temperature > 0 || hasPenalties(params) || hasBans(params);

/**
 * transformers' own step for both penalties: a negative logit times `factor`, a positive one over it (a factor under 1
 * raises both, over 1 lowers both). The factor is rounded to fp32 as torch rounds a Python scalar for a float32
 * tensor, and each result is rounded to fp32 on the store, so the logits come out as torch's to the last bit.
 */
function scaleLogits(logits: Float32Array, tokens: Iterable<number>, factor: number): void {
  const f = Math.fround(factor);
  for (const t of tokens) {
    if (!(t >= 0 && t < logits.length)) continue;
    const l = logits[t];
    logits[t] = l < 0 ? l * f : l / f;
  }
}

/**
 * transformers' RepetitionPenaltyLogitsProcessor (generation_config `repetition_penalty`, Keskar et al. 2019), in
 * place: every token already in the sequence, the prompt's included as transformers counts them for a decoder-only
 * model, has its logit lowered (a positive one divided by `penalty`, a negative one multiplied), once however often
 * it occurs. 1, absent or not a positive number: no change. After the prompt boost, before temperature and the cuts.
 */
export function penaliseSeenTokens(logits: Float32Array, seen: Iterable<number>, penalty = 1): void {
  if (penalty > 0 && penalty !== 1) scaleLogits(logits, seen, penalty);
}

/**
 * transformers' EncoderRepetitionPenaltyLogitsProcessor (generation_config `encoder_repetition_penalty`), in place:
 * every token that occurs in the prompt has its logit raised (a positive one multiplied by `penalty`, a negative one
 * divided by it), once however often it occurs. Meant against "hallucination in input-grounded tasks": a penalty above
 * 1 favours the prompt's own pieces, so a name or word copied from the prompt is more likely to go on as it does
 * there. 1, absent or not a positive number: no change. Applied to the raw logits, before temperature and the cuts.
 */
export function boostPromptTokens(logits: Float32Array, promptTokens: Iterable<number>, penalty = 1): void {
  // transformers keeps 1 / penalty and applies it the repetition penalty's way round
  if (penalty > 0 && penalty !== 1) scaleLogits(logits, promptTokens, 1 / penalty);
}

/**
 * transformers' NoBadWordsLogitsProcessor (generation_config `bad_words_ids`), in place: a one-token sequence's token
 * is never picked, and a longer sequence's last token is not picked where the reply so far ends with the sequence's
 * other tokens. transformers matches those against the whole sequence, prompt included; here they are matched within
 * the reply, since a prompt ends with the chat template's assistant header, which no ban's prefix ends with. After the
 * penalties, before temperature and the cuts (a banned token is -Infinity, so the order changes nothing).
 */
export function banSequences(logits: Float32Array, banned: readonly (readonly number[])[], reply: readonly number[]): void {
  for (const seq of banned) {
    const last = seq[seq.length - 1];
    const k = seq.length - 1;
    if (!(last >= 0 && last < logits.length) || k > reply.length) continue;
    let ends = true;
    for (let i = 0; i < k && ends; i++) ends = reply[reply.length - k + i] === seq[i];
    if (ends) logits[last] = -Infinity;
  }
}

export { MAX_BANNED };

/**
 * generation_config.json's `bad_words_ids` as banSequences reads it: a list of non-empty lists of token ids (below
 * `vocabSize` where known). Absent: []. Anything else, or past MAX_BANNED: null, for the caller to warn and ban nothing.
 */
export function readBannedSequences(value: unknown, vocabSize?: number): number[][] | null {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_BANNED.sequences) return null;
  const ok = (t: unknown) => Number.isSafeInteger(t) && (t as number) >= 0 && (vocabSize === undefined || (t as number) < vocabSize);
  const wellFormed = value.every((s) => Array.isArray(s) && s.length > 0 && s.length <= MAX_BANNED.tokens && s.every(ok));
  return wellFormed ? (value as number[][]).map((s) => [...s]) : null;
}

/** A prompt's distinct token ids, for boostPromptTokens (a token is boosted once however often it occurs). */
export function distinctTokens(ids: Iterable<number | bigint>): Int32Array {
  return Int32Array.from(new Set(Array.from(ids, Number)));
}

/** What a pick may ask of its row: each asked for only when the rule needs it, so a caller may build it lazily. */
export interface RowTokens {
  /** The prompt's distinct tokens (the prompt boost's). */
  prompt(): Iterable<number>;
  /** Every token of the sequence so far, prompt included (the repetition penalty's). */
  seen(): Iterable<number>;
  /** The reply's tokens so far, in order (the bans'). */
  reply(): readonly number[];
}

/**
 * One row's token under a rule: its prompt's tokens boosted, the tokens it has seen penalised and the banned ones
 * removed (in place, each only when the rule asks for it), then sampled. The seeded sampler and the batched sampler's
 * first pick both draw through here.
 */
export function pickToken(logits: Float32Array, params: SamplingParams, rng: Rng, tokens: RowTokens): number {
  if ((params.promptBoost ?? 1) !== 1) boostPromptTokens(logits, tokens.prompt(), params.promptBoost);
  if ((params.repetitionPenalty ?? 1) !== 1) penaliseSeenTokens(logits, tokens.seen(), params.repetitionPenalty);
  if (hasBans(params)) banSequences(logits, params.banned ?? [], tokens.reply());
  return sampleToken(logits, params, rng);
}

/** Scratch for finding the k-th largest weight (kthLargest reorders it). */
let selectScratch = new Float64Array(0);

/**
 * The k-th largest (1-based) of xs[0..n), found in place by Hoare's selection: O(n) on average, where a sort of a hub
 * model's 150k-token vocabulary at every token would cost O(n log n). Only the value is used, so which algorithm
 * finds it changes nothing.
 */
function kthLargest(xs: Float64Array, n: number, k: number): number {
  const target = k - 1;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const pivot = xs[(lo + hi) >>> 1];
    let i = lo;
    let j = hi;
    // Descending: after the pass, [lo, j] >= pivot, [i, hi] <= pivot, and anything between equals it.
    while (i <= j) {
      while (xs[i] > pivot) i++;
      while (xs[j] < pivot) j--;
      if (i <= j) {
        const t = xs[i];
        xs[i++] = xs[j];
        xs[j--] = t;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return xs[target];
  }
  return xs[lo];
}

/** Scratch for the tempered probabilities: sampleToken runs at every token of every row, so it does not allocate. */
let scratch = new Float64Array(0);

/** Samples an index from logits with temperature, top-k, nucleus (top-p) and min-p filtering. temperature <= 0 is argmax. */
export function sampleToken(logits: ArrayLike<number>, { temperature, topP, minP = 0, topK = 0 }: SamplingParams, rng: Rng): number {
  const n = logits.length;
  let best = 0;
  for (let i = 1; i < n; i++) if (logits[i] > logits[best]) best = i;
  if (!(temperature > 0)) return best;
  const max = logits[best];
  if (scratch.length < n) scratch = new Float64Array(n);
  const probs = scratch;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const p = Math.exp((logits[i] - max) / temperature);
    probs[i] = p;
    sum += p;
  }
  const p = Math.min(1, Math.max(topP, 0));
  // The most likely token's tempered weight is exp(0) = 1, so min-p keeps the weights >= minP (NaN: no cut).
  const floor = minP > 0 ? Math.min(1, minP) : 0;
  const k = topK >= 1 && topK < n ? Math.floor(topK) : 0;
  if (p >= 1 && floor === 0 && k === 0) {
    // Every token is a candidate, in index order: the total is `sum`, added up in the same order.
    let x = rng.next() * sum;
    for (let i = 0; i < n; i++) {
      x -= probs[i];
      if (x < 0) return i;
    }
    return n - 1;
  }
  // Top-k: the k-th largest weight (ties with it stay, as torch.topk's threshold keeps them), and the total of the
  // tokens at or above it, which top-p's mass is a share of (transformers renormalises after top-k).
  let least = 0;
  let total = sum;
  if (k > 0) {
    if (selectScratch.length < n) selectScratch = new Float64Array(n);
    selectScratch.set(probs.subarray(0, n));
    least = kthLargest(selectScratch, n, k);
    total = 0;
    for (let i = 0; i < n; i++) if (probs[i] >= least) total += probs[i];
  }
  // The cuts of top-k and min-p first: the tokens they drop are the lightest, so they come after every kept one in the
  // order below, and leaving them out of the sort changes nothing but its cost (most of a vocabulary sits under them).
  const cut = Math.max(floor, least);
  const kept: number[] = [];
  for (let i = 0; i < n; i++) if (probs[i] >= cut) kept.push(i);
  // sort by probability, ties by index, so the order does not depend on the sort implementation
  kept.sort((a, b) => probs[b] - probs[a] || a - b);
  const candidates: number[] = [];
  let mass = 0;
  for (const i of kept) {
    // top-p's mass counts every token top-k kept, and the ones min-p dropped would only have come after these
    candidates.push(i);
    mass += probs[i] / total;
    if (mass >= p) break;
  }
  // Only when no weight is finite (every logit -Infinity or NaN): fall back to argmax, as temperature 0 would.
  if (!candidates.length) return best;
  let weight = 0;
  for (const i of candidates) weight += probs[i];
  let x = rng.next() * weight;
  for (const i of candidates) {
    x -= probs[i];
    if (x < 0) return i;
  }
  return candidates[candidates.length - 1];
}
