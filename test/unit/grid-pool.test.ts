// The grid pool on real worker_threads: the numbers must not depend on the number of workers (bitwise equal to
// the one-thread path and to numpy's fixture), and cancel, a bad input and a dead worker must each leave a pool that
// still works.
import { afterAll, describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import { createNodeGridPool, nodeGridWorker } from '../../cli/grid-pool-node';
import { isCancelledError } from '../../src/core/cancel';
import { createInProcessExecutor } from '../../src/core/grid-tasks';
import { createRng } from '../../src/core/rng';
import { cka, crossDots, crossDotsGroups } from '../../src/core/cka';
import type { LayerStack } from '../../src/core/layer-stack';
import { chooseAlphaGroupedCV, chooseAlphaWith, syncR2, syncR2With } from '../../src/core/synchrony';
import { GridPool } from '../../workers/grid-pool';
import { ridgeCases } from './ridge-fixture';

const fixture = ridgeCases[0];

function stacks(n: number, L: number, H: number, seed: string): { source: LayerStack; target: LayerStack; group: Int32Array } {
  const rng = createRng(seed);
  const latent = Float64Array.from({ length: n * 4 }, () => rng.normal());
  const make = (shift: number): LayerStack => {
    const data = new Float32Array(n * L * H);
    for (let i = 0; i < n; i++)
      for (let l = 0; l < L; l++) for (let h = 0; h < H; h++) data[(i * L + l) * H + h] = latent[i * 4 + ((h + l + shift) % 4)] * (1 + l / L) + rng.normal();
    return { data, n, L, H };
  };
  return { source: make(0), target: make(1), group: Int32Array.from({ length: n }, (_, i) => Math.floor(i / 4)) };
}

const pools: GridPool[] = [];
const createTracked = (workers: number, options = {}) => {
  const p = createNodeGridPool(workers, options);
  pools.push(p);
  return p;
};
const pool = (workers: number) => createTracked(workers);
afterAll(() => pools.forEach((p) => p.close()));

describe('grid pool (worker_threads)', { timeout: 120_000 }, () => {
  const { source, target, group } = stacks(160, 5, 24, 'pool');
  const seeds = [0, 1, 2, 3];

  it('gives bitwise the same grids with 1, 2 and 4 workers as in one thread', async () => {
    const local = syncR2(source, target, group, { alpha: 0.5, splitSeeds: seeds });
    const inProcess = await syncR2With(createInProcessExecutor(), source, target, group, { alpha: 0.5, splitSeeds: seeds });
    expect(inProcess.r2PerSplit).toEqual(local.r2PerSplit);
    for (const w of [1, 2, 4]) {
      const r = await syncR2With(pool(w), source, target, group, { alpha: 0.5, splitSeeds: seeds });
      expect(r.r2PerSplit).toEqual(local.r2PerSplit);
      expect(r.syncR2).toBe(local.syncR2);
      expect(r.se).toBe(local.se);
    }
    // A grid whose source rows exceed the pool's budget runs whole on one worker: the same bits again.
    const whole = await syncR2With(createTracked(2, { rowsBudgetBytes: 1 }), source, target, group, { alpha: 0.5, splitSeeds: seeds });
    expect(whole.r2PerSplit).toEqual(local.r2PerSplit);
  });

  it("matches numpy's fixture through the pool", async () => {
    const c = fixture;
    const s: LayerStack = { data: Float64Array.from(c.source), n: c.n, L: c.LA, H: c.HA };
    const t: LayerStack = { data: Float64Array.from(c.target), n: c.n, L: c.LB, H: c.HB };
    const r = await syncR2With(pool(2), s, t, c.group, { alpha: c.alpha, splits: c.masks.map((m) => Uint8Array.from(m)) });
    r.r2PerSplit.forEach((g, k) => g.forEach((v, i) => expect(Math.abs(v - c.r2PerSplit[k][i])).toBeLessThan(1e-8)));
  });

  it("builds CKA's Gram statistics layer by layer on the pool, with bitwise the one-thread CKA", async () => {
    const p = pool(2);
    const [gramsX, gramsY] = await Promise.all([p.gramStats(source), p.gramStats(target)]);
    const pooled = cka(source, target, { permutations: 3, gramsX, gramsY });
    const local = cka(source, target, { permutations: 3 });
    expect(pooled.linear).toEqual(local.linear);
    expect(pooled.debiased).toEqual(local.debiased);
  });

  it("shares CKA's dot products out by groups of slices, with bitwise the one-thread result for 1, 2 and 4 workers", async () => {
    const r = createRng('cross-dots');
    const vectors = Array.from({ length: 7 }, () => Float64Array.from({ length: 70_001 }, () => r.normal()));
    expect(crossDotsGroups(70_001)).toBe(3);
    const local = crossDots(vectors, null);
    expect(await createInProcessExecutor().crossDots(vectors)).toEqual(local);
    for (const workers of [1, 2, 4]) expect(await pool(workers).crossDots(vectors)).toEqual(local);
    // Each cell is the dot product of its two vectors.
    let d = 0;
    for (let k = 0; k < 70_001; k++) d += vectors[2][k] * vectors[5][k];
    expect(Math.abs(local[2 * 7 + 5] - d)).toBeLessThan(1e-9);
    expect(local[5 * 7 + 2]).toBe(local[2 * 7 + 5]);
  });

  it('chooses the same α by grouped CV as the one-thread search, with the same scores', async () => {
    const alphas = [0.01, 1, 100];
    const local = chooseAlphaGroupedCV(source, target, group, alphas);
    const pooled = await chooseAlphaWith(pool(2), source, target, group, alphas);
    expect(pooled).toEqual(local);
  });

  it('reports progress up to the end of the batch', async () => {
    const seen: number[] = [];
    await syncR2With(pool(2), source, target, group, { splitSeeds: seeds, onProgress: (f) => seen.push(f) });
    expect(seen.length).toBeGreaterThan(seeds.length);
    expect(Math.max(...seen)).toBeCloseTo(1, 9);
  });

  it('cancels a running batch, then runs the next one with the same numbers', async () => {
    const big = stacks(500, 8, 160, 'big');
    const p = pool(2);
    const ctrl = new AbortController();
    const run = syncR2With(p, big.source, big.target, big.group, { splitSeeds: seeds, signal: ctrl.signal, onProgress: (f) => f > 0.05 && ctrl.abort() });
    const err = await run.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isCancelledError(err)).toBe(true);
    const again = await syncR2With(p, source, target, group, { alpha: 0.5, splitSeeds: seeds });
    expect(again.r2PerSplit).toEqual(syncR2(source, target, group, { alpha: 0.5, splitSeeds: seeds }).r2PerSplit);
  });

  it('names a bad input and keeps working', async () => {
    const p = pool(2);
    const bad = { ...source, data: Float32Array.from(source.data) };
    bad.data[(3 * source.L + 1) * source.H + 2] = NaN;
    const mask = Uint8Array.from({ length: source.n }, (_, i) => (i % 5 === 0 ? 1 : 0));
    await expect(p.grids([{ source: bad, target, mask, alpha: 1 }])).rejects.toThrow(/non-finite value NaN at sample 3, layer 1, unit 2/);
    expect((await syncR2With(p, source, target, group, { splitSeeds: [0] })).r2PerSplit).toEqual(syncR2(source, target, group, { splitSeeds: [0] }).r2PerSplit);
  });

  it('replaces a worker that dies under a task', async () => {
    let spawned = 0;
    // The first worker exits at once; the pool must say so, and start a good one for the next batch.
    const p = new GridPool(1, () => (++spawned === 1 ? nodeGridWorker(new Worker('process.exit(7)', { eval: true })) : nodeGridWorker()));
    pools.push(p);
    await expect(syncR2With(p, source, target, group, { splitSeeds: [0] })).rejects.toThrow(/grid worker stopped \(exit code 7\)/);
    expect((await syncR2With(p, source, target, group, { splitSeeds: [0] })).r2PerSplit).toEqual(syncR2(source, target, group, { splitSeeds: [0] }).r2PerSplit);
    expect(spawned).toBe(2);
  });
});
