/**
 * CKA between every pair of several models (the Similarity lab's analysis): each model's Gram statistics built once
 * and reused for all its pairs (src/labs/similarity/analysis.ts), against each pair building its own.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { BenchSuite } from '../run.ts';
import { cka, gramStatsSteps } from '../../src/core/cka.ts';
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
        const t = performance.now();
        const grams = await Promise.all(stacks.map((x) => pool.gramStats(x)));
        const gramS = (performance.now() - t) / 1000;
        let pairs = 0;
        for (let i = 0; i < M; i++) for (let j = i; j < M; j++, pairs++) cka(stacks[i], stacks[j], { gramsX: grams[i], gramsY: grams[j] });
        const total = (performance.now() - t) / 1000;
        lines.push(
          '',
          `${M} models × ${L} layers (H = ${H}, m = ${m}), all ${pairs} pairs, Grams once per model on the worker pool (${pool.workers} workers): ${total.toFixed(1)} s in all (Grams ${gramS.toFixed(1)} s, pairs ${(total - gramS).toFixed(1)} s in one thread). Goal ≤ 10 s.`,
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
