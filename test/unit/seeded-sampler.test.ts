/**
 * The runtime's logits processor (src/runtime/generation.ts seededSampler), step by step on a stand-in for
 * transformers.js's tensors: it penalises what each row has picked, counts the tokens a row had before its first call,
 * boosts only that row's prompt, bans sequences after the row's own reply, and leaves a row that has ended alone (its
 * Rng not drawn).
 */
import { describe, expect, it } from 'vitest';
import type { Rng } from '../../src/core/rng';
import { seededSampler } from '../../src/runtime/generation';
import { firstPicks } from '../../src/runtime/samples';

// What seededSampler needs of transformers.js: a LogitsProcessor base class, and tensors with dims and data.
const tf = { LogitsProcessor: class {} };
type Step = { _call(ids: unknown, logits: { dims: number[]; data: Float32Array }): unknown };
/** One decoding step: the same raw logits for every row; returns each row's pick (the one finite logit left). */
function step(sampler: Step, rows: number, raw: readonly number[]): number[] {
  const data = new Float32Array(rows * raw.length);
  for (let b = 0; b < rows; b++) data.set(raw, b * raw.length);
  sampler._call(null, { dims: [rows, raw.length], data });
  return Array.from({ length: rows }, (_, b) => data.subarray(b * raw.length, (b + 1) * raw.length).findIndex(Number.isFinite));
}
const countingRng = (): Rng & { draws: number } => {
  const r = { draws: 0, next: () => (r.draws++, 0.5) };
  return r as unknown as Rng & { draws: number };
};

describe('the seeded sampler, step by step', () => {
  it("penalises each row's own picks at later steps, and the tokens it had before its first call", () => {
    const raw = [1, 0.9, 0.1, 0.05];
    const sampler = seededSampler(
      tf,
      { temperature: 0, topP: 1, repetitionPenalty: 2 },
      {
        rng: countingRng,
        prompt: () => Int32Array.from([3]),
        before: (b) => (b === 1 ? [0] : []),
      },
    ) as Step;
    // row 0: token 0 (1 > 0.9); row 1 already had token 0, so 0.5 < 0.9: token 1
    expect(step(sampler, 2, raw)).toEqual([0, 1]);
    // row 0's pick is penalised now (0.5 < 0.9); row 1 has both 0 and 1 behind it (0.5 > 0.45)
    expect(step(sampler, 2, raw)).toEqual([1, 0]);
    // row 0: 0.5 > 0.45
    expect(step(sampler, 2, raw)[0]).toBe(0);
  });

  it("boosts only the row's own prompt, afresh at every step", () => {
    const prompts = [Int32Array.from([2]), Int32Array.from([1])];
    const sampler = seededSampler(tf, { temperature: 0, topP: 1, promptBoost: 2 }, { rng: countingRng, prompt: (b) => prompts[b] }) as Step;
    for (let k = 0; k < 3; k++) expect(step(sampler, 2, [1, 0.45, 0.6, 0])).toEqual([2, 0]);
  });

  it("bans a sequence's last token only where the row's own reply ends with the rest, the tokens before its first call included", () => {
    // ban "0 then 1" and token 3 everywhere; greedy, so the untouched pick is always the largest logit
    const sampler = seededSampler(
      tf,
      { temperature: 0, topP: 1, banned: [[0, 1], [3]] },
      { rng: countingRng, prompt: () => new Int32Array(0), before: (b) => (b === 1 ? [0] : []) },
    ) as Step;
    // row 0 has no reply yet: token 1 is free; row 1 had token 0 before its first call: 1 is banned, 2 is next
    expect(step(sampler, 2, [0.2, 1, 0.9, 5])).toEqual([1, 2]);
    // row 0 picks 0 now, row 1 (after 2) is free to pick 1 ...
    expect(step(sampler, 2, [1, 0.9, 0.1, 5])).toEqual([0, 0]);
    // ... and after a 0 both rows are barred from 1; token 3 stays banned throughout
    expect(step(sampler, 2, [0.2, 1, 0.9, 5])).toEqual([2, 2]);
  });

  it('leaves a row that has ended alone: no draw from its Rng', () => {
    const rngs = [countingRng(), countingRng()];
    const sampler = seededSampler(
      tf,
      { temperature: 0.7, topP: 1, repetitionPenalty: 1.5 },
      {
        rng: (b) => rngs[b],
        prompt: () => new Int32Array(0),
        ended: (b) => b === 1,
      },
    ) as Step;
    step(sampler, 2, [1, 0.9, 0.1, 0.05]);
    step(sampler, 2, [1, 0.9, 0.1, 0.05]);
    expect(rngs[0].draws).toBe(2);
    expect(rngs[1].draws).toBe(0);
  });
});

describe("the batched sampler's first picks", () => {
  it("penalises a copy of the prompt's logits for each of its seeds, never the shared ones", () => {
    // Token 0 stays first after one penalty (1 / 1.2 = 0.83 > 0.7) but not after two: every seed must pick it.
    const logits = Float32Array.from([1, 0.7, 0.1]);
    const rows = [0, 1, 2].map(() => ({ prompt: 0, rng: countingRng() }));
    const params = { temperature: 0, topP: 1, minP: 0, topK: 0, promptBoost: 1, repetitionPenalty: 1.2, banned: [] };
    expect(firstPicks(logits, 3, rows, () => Int32Array.from([0]), params)).toEqual([0, 0, 0]);
    expect(Array.from(logits)).toEqual([1, Math.fround(0.7), Math.fround(0.1)]);
    // and each prompt boosts its own tokens: prompt 1's boost does not reach prompt 0's row
    const two = Float32Array.from([1, 0.9, 1, 0.9]);
    const boosted = { ...params, repetitionPenalty: 1, promptBoost: 1.5 };
    const picks = firstPicks(
      two,
      2,
      [
        { prompt: 0, rng: countingRng() },
        { prompt: 1, rng: countingRng() },
      ],
      (p) => [Int32Array.from([]), Int32Array.from([1])][p],
      boosted,
    );
    expect(picks).toEqual([0, 1]);
  });

  it('bans the one-token sequences at the first pick, on a copy of the shared logits', () => {
    const logits = Float32Array.from([1, 0.7, 0.1]);
    const rows = [0, 1].map(() => ({ prompt: 0, rng: countingRng() }));
    const params = { temperature: 0, topP: 1, minP: 0, topK: 0, promptBoost: 1, repetitionPenalty: 1, banned: [[0], [2, 1]] };
    // [2, 1] needs a 2 before it: at the first pick nothing is before, so 1 stays
    expect(firstPicks(logits, 3, rows, () => new Int32Array(0), params)).toEqual([1, 1]);
    expect(Array.from(logits)).toEqual([1, Math.fround(0.7), Math.fround(0.1)]);
  });
});
