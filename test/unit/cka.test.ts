import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cka, crossDotsAll, gramStatsSteps, pairDots, poolGrid, thirds, type CkaGrid } from '../../src/core/cka';
import { createRng } from '../../src/core/rng';
import { runSteps } from '../../src/core/steps';
import type { LayerStack } from '../../src/core/ridge';

const f = JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures/compute/cka.json'), 'utf8'));
const x: LayerStack = { data: Float32Array.from(f.x), n: f.m, L: f.L1, H: f.H1 };
const y: LayerStack = { data: Float32Array.from(f.y), n: f.m, L: f.L2, H: f.H2 };

function maxAbs(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

function checkGrid(got: CkaGrid, ref: { grid: number[]; global: number; maxAligned: number; regions: Record<string, number>; p: Record<string, unknown> }) {
  expect(maxAbs(got.grid, ref.grid)).toBeLessThan(1e-10);
  expect(Math.abs(got.global - ref.global)).toBeLessThan(1e-10);
  expect(Math.abs(got.maxAligned - ref.maxAligned)).toBeLessThan(1e-10);
  for (const r of ['early', 'mid', 'late'] as const) expect(Math.abs(got.regions[r] - ref.regions[r])).toBeLessThan(1e-10);
}

describe('CKA vs a direct numpy implementation', () => {
  it('linear and debiased grids, poolings and regions', () => {
    const r = cka(x, y);
    checkGrid(r.linear, f.linear);
    checkGrid(r.debiased, f.debiased);
    expect(r.linear.p).toBeUndefined();
  });

  it('permutation p-values with the same sample orders as numpy', () => {
    const r = cka(x, y, { orders: f.orders });
    for (const kind of ['linear', 'debiased'] as const) {
      const p = r[kind].p!;
      expect(Array.from(p.grid)).toEqual(f[kind].p.grid);
      expect(p.global).toBeCloseTo(f[kind].p.global, 12);
      expect(p.maxAligned).toBeCloseTo(f[kind].p.maxAligned, 12);
      for (const reg of ['early', 'mid', 'late'] as const) expect(p.regions[reg]).toBeCloseTo(f[kind].p.regions[reg], 12);
    }
    expect(() => cka(x, y, { orders: [[0, 0, 1]] })).toThrow(/not a permutation/);
  });

  it('seeded permutations are reproducible, and a model against itself is max-aligned 1', () => {
    const a = cka(x, y, { permutations: 5, seed: 3 });
    const b = cka(x, y, { permutations: 5, seed: 3 });
    expect(Array.from(a.linear.p!.grid)).toEqual(Array.from(b.linear.p!.grid));
    const self = cka(x, x);
    expect(self.linear.maxAligned).toBeCloseTo(f.selfMaxAligned, 12);
    expect(self.linear.maxAligned).toBeCloseTo(1, 12);
  });

  it('Gram statistics built once give, to the last bit, what each pair builds for itself (self-pairs too)', () => {
    const gx = runSteps(gramStatsSteps(x));
    const gy = runSteps(gramStatsSteps(y));
    expect(gx).toHaveLength(f.L1);
    for (const [a, b, ga, gb] of [
      [x, y, gx, gy],
      [x, x, gx, gx],
      [y, x, gy, gx],
    ] as const) {
      const own = cka(a, b, { permutations: 3, seed: 5 });
      const shared = cka(a, b, { permutations: 3, seed: 5, gramsX: ga, gramsY: gb });
      expect(shared).toEqual(own);
    }
    // The cached statistics stay whole for the next pair.
    expect(cka(x, y, { gramsX: gx, gramsY: gy })).toEqual(cka(x, y));
    expect(() => cka(x, y, { gramsX: gy })).toThrow(/gramsX has/);
  });

  it('the dot products of several models in one product give each pair, to the last bit, what it computes alone', () => {
    // Small probe sets and odd layer counts, so that some slices of the triangles are short (m = 101: 5,050 values,
    // slices of 4,096 and 954): a short slice of one pair is a small product, and must still take the same kernel.
    const r = createRng('dots-all');
    const stack = (L: number, H: number, m: number): LayerStack => ({ data: Float32Array.from({ length: m * L * H }, () => r.normal()), n: m, L, H });
    for (const m of [9, 101]) {
      const stacks = [stack(3, 5, m), stack(4, 7, m), stack(2, 3, m)];
      const grams = stacks.map((s) => runSteps(gramStatsSteps(s)));
      const all = crossDotsAll(grams);
      expect(all.layers).toBe(9);
      for (let i = 0; i < 3; i++)
        for (let j = i; j < 3; j++) {
          const dots = pairDots(all, i, stacks[i].L, j, stacks[j].L);
          const alone = cka(stacks[i], stacks[j]);
          expect(cka(stacks[i], stacks[j], { gramsX: grams[i], gramsY: grams[j], dots })).toEqual(alone);
        }
      expect(() => cka(stacks[0], stacks[1], { dots: new Float64Array(5) })).toThrow(/dots has 5 cells/);
    }
  });

  it('thirds follow numpy array_split', () => {
    expect(thirds(28)).toEqual([0, 10, 19, 28]);
    expect(thirds(30)).toEqual([0, 10, 20, 30]);
    expect(thirds(5)).toEqual([0, 2, 4, 5]);
    const p = poolGrid([1, 2, 3, 4], 2, 2);
    expect(p.global).toBe(2.5);
    expect(p.maxAligned).toBe(0.5 * ((2 + 4) / 2 + (3 + 4) / 2));
  });
});
