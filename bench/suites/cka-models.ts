/**
 * CKA between every pair of several models (the Similarity lab's analysis): each model's Gram statistics built once
 * and reused for all its pairs (src/labs/similarity/analysis.ts), against each pair building its own.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { BenchSuite } from '../run.ts';
import { cka, gramStatsSteps, pairDots, type CkaResult } from '../../src/core/cka.ts';
import { crossDotsAllWith } from '../../src/core/grid-tasks.ts';
import { gemmKernelKind } from '../../src/core/simd-gemm.ts';
import { runSteps } from '../../src/core/steps.ts';
import { createRng } from '../../src/core/rng.ts';
import { createNodeGridPool } from '../../cli/grid-pool-node.ts';

const SHAPES = [
  { models: 4, L: 7, H: 128, m: 258, note: 'the Similarity population on the bundled paragraphs' },
  { models: 4, L: 13, H: 576, m: 400, note: 'four 135M-class models, 400 probes' },
];

const suite: BenchSuite = {
  title: 'CKA for several models: each Gram matrix once',
  async run() {
    const lines = [
      'Every unordered pair of the models, self-pairs included (as the lab compares them), on random states; float64, one thread. "same" compares every grid value of the two ways.',
      '',
      '| models × layers × H, probes | pairs | each pair its own Grams | Grams once per model | speed-up | same |',
      '|---|---|---|---|---|---|',
    ];
    for (const s of SHAPES) {
      const r = createRng(`cka-models-${s.L}`);
      const stacks = Array.from({ length: s.models }, () => ({
        data: Float32Array.from({ length: s.m * s.L * s.H }, () => r.normal()),
        n: s.m,
        L: s.L,
        H: s.H,
      }));
      const pairs: [number, number][] = [];
      for (let i = 0; i < s.models; i++) for (let j = i; j < s.models; j++) pairs.push([i, j]);
      let t = performance.now();
      const own = pairs.map(([i, j]) => cka(stacks[i], stacks[j]));
      const ownS = (performance.now() - t) / 1000;
      t = performance.now();
      const grams = stacks.map((x) => runSteps(gramStatsSteps(x)));
      const shared = pairs.map(([i, j]) => cka(stacks[i], stacks[j], { gramsX: grams[i], gramsY: grams[j] }));
      const sharedS = (performance.now() - t) / 1000;
      const same = own.every(
        (o, k) =>
          o.linear.grid.every((v, c) => Object.is(v, shared[k].linear.grid[c])) && o.debiased.grid.every((v, c) => Object.is(v, shared[k].debiased.grid[c])),
      );
      lines.push(
        `| ${s.models} × ${s.L} × ${s.H}, ${s.m} (${s.note}) | ${pairs.length} | ${ownS.toFixed(2)} s | ${sharedS.toFixed(2)} s | ${(ownS / sharedS).toFixed(2)}× | ${same ? 'yes' : 'no'} |`,
      );
    }
    // The many-models shape: 8 models × 28 layers (H = 1024, m = 1000), all 36 pairs, Grams on the pool.
    {
      const M = 8;
      const L = 28;
      const H = 1024;
      const m = 1000;
      const r = createRng('cka-models-8');
      const stacks = Array.from({ length: M }, () => ({ data: Float32Array.from({ length: m * L * H }, () => r.normal()), n: m, L, H }));
      const pool = createNodeGridPool();
      try {
        let t = performance.now();
        const grams = await Promise.all(stacks.map((x) => pool.gramStats(x)));
        const gramS = (performance.now() - t) / 1000;
        t = performance.now();
        const all = await crossDotsAllWith(pool, grams);
        const dotS = (performance.now() - t) / 1000;
        t = performance.now();
        const results: CkaResult[] = [];
        for (let i = 0; i < M; i++)
          for (let j = i; j < M; j++) results.push(cka(stacks[i], stacks[j], { gramsX: grams[i], gramsY: grams[j], dots: pairDots(all, i, L, j, L) }));
        const pairS = (performance.now() - t) / 1000;
        // The pairs computed as the lab did before (each its own blocks of dot products, in this thread), for the same bits.
        t = performance.now();
        const alone = cka(stacks[0], stacks[1], { gramsX: grams[0], gramsY: grams[1] });
        const aloneS = (performance.now() - t) / 1000;
        const same = alone.linear.grid.every((v, c) => Object.is(v, results[1].linear.grid[c]));
        lines.push(
          '',
          `${M} models × ${L} layers (H = ${H}, m = ${m}), all ${results.length} pairs, on the worker pool (${pool.workers} workers, ${gemmKernelKind()} kernel): **${(gramS + dotS + pairS).toFixed(1)} s** in all. Goal ≤ 10 s.`,
          '',
          '| step | seconds |',
          '|---|---|',
          `| each model's Gram statistics, once (${M * L} products of ${m} × ${m} over H = ${H}, shared out by layer) | ${gramS.toFixed(2)} |`,
          `| the dot products of every layer pair of every model: one symmetric product over the ${all.layers} triangles, shared out by groups of slices | ${dotS.toFixed(2)} |`,
          `| the ${results.length} pairs' grids from them (one thread) | ${pairS.toFixed(2)} |`,
          `| for comparison, one pair with its own blocks of dot products (one thread), as before; same bits: ${same ? 'yes' : 'NO'} | ${aloneS.toFixed(2)} (× ${results.length} pairs ≈ ${(aloneS * results.length).toFixed(1)}) |`,
        );
      } finally {
        pool.close();
      }
    }
    // Memory for a 1B-shaped model, each measurement in a process of its own (bench/cka-memory-child.ts).
    {
      const child = (mode: string) =>
        JSON.parse(
          execFileSync(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, '../cka-memory-child.ts'), mode], {
            encoding: 'utf8',
            timeout: 10 * 60_000,
          }),
        ) as { peakMiB: number; aboveBaseMiB: number; stackMiB: number; seconds: number };
      const w = child('worker');
      const p = child('pool');
      lines.push(
        '',
        `Memory, a 1B-shaped model (16 layers × H = 2048, m = 2000 probes; its states are ${w.stackMiB.toFixed(0)} MiB of float32, shared with the workers): ` +
          `one grid worker's work (every layer's Gram statistics, one at a time) peaks ${w.aboveBaseMiB.toFixed(0)} MiB above the states (goal: ≤ 1 GB per worker); ` +
          `the whole process for the model against itself on a 2-worker pool peaks at ${p.peakMiB.toFixed(0)} MiB of RSS (host and both workers; ${p.seconds.toFixed(1)} s).`,
      );
    }
    lines.push(
      '',
      'With M models a model is in M pairs (its self-pair counts twice), so building its Grams once saves most of the work; the pairs then cost one packed dot product per layer pair. The lab keeps the statistics while they fit in 256 MiB and otherwise builds them per pair.',
    );
    return lines.join('\n');
  },
};

export default suite;
