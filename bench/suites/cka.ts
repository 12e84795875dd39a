import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadavg } from 'node:os';
import type { BenchSuite } from '../run.ts';
import { cka } from '../../src/core/cka.ts';
import { withPool, WORKER_COUNTS } from '../node-pool.ts';
import { ckaStack } from '../grid-problems.ts';
import { writeSafetensors } from '../../src/core/safetensors.ts';

/** A CKA grid the size of two 1B-class models on the seed's probe count: 28 × 28 layers, m = 1000, H = 1024. */
const M = 1000;
const L = 28;
const H = 1024;
const PY = '/usr/bin/python3';

const NOTES = `What was tried: each layer's centred Gram matrix is computed once (m²H/2 multiply-adds, 0.5 G per layer,
14.3 G for 56 layers; only the upper triangle, never mirrored) and kept as a packed triangle with its diagonal, row
sums and total, so that biased and debiased HSIC for a pair cost one dot product of 0.5 M terms, done as blocked
products of the triangles (0.4 G for the 784 pairs). The Gram products run in the WebAssembly SIMD kernel: ~10
GMAC/s on one core with relaxed SIMD's fused multiply-add (8.6 without; ~1.8 for the best JS tile), its 2 × 4
register tile bound by loads rather than arithmetic (a 3 × 4 tile spills registers). The pool shares the layers out:
two workers are 1.5–1.6× one here, since the two cores share their caches and memory bandwidth. The Gram step is
irreducible for exact float64 CKA with H ≥ m (the feature-space form ‖XᵀY‖² costs H²m per pair), so the ≤ 1.5 s goal
would need ~20 GMAC/s over the two cores: native BLAS (numpy's, or onnxruntime-node's MLAS at 22 GMAC/s a thread,
see "Gram products"), which the page cannot use, or the GPU path (cka.engine = gpu, float32, bench/gpu/).`;

const suite: BenchSuite = {
  title: 'CKA grid (28 × 28 layers, m = 1000 probes, H = 1024)',
  async run() {
    const x = ckaStack('cka-x', M);
    const y = ckaStack('cka-y', M);
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const r = cka(x, y);
    const ours = (performance.now() - t0) / 1000;
    const cu = process.cpuUsage(c0);
    const oursCpu = (cu.user + cu.system) / 1e6;
    // The Gram statistics on the worker pool (one layer per task, both models at once), then the pairs here.
    const poolRows: string[] = [];
    let poolOne = NaN;
    for (const w of WORKER_COUNTS) {
      const { pr, gramS, sec } = await withPool(w, async (pool) => {
        const p0 = performance.now();
        const [gramsX, gramsY] = await Promise.all([pool.gramStats(x), pool.gramStats(y)]);
        const gramS = (performance.now() - p0) / 1000;
        const pr = cka(x, y, { gramsX, gramsY });
        return { pr, gramS, sec: (performance.now() - p0) / 1000 };
      });
      if (w === 1) poolOne = sec;
      const same = pr.linear.grid.every((v, i) => Object.is(v, r.linear.grid[i])) && pr.debiased.grid.every((v, i) => Object.is(v, r.debiased.grid[i]));
      poolRows.push(
        `| worker pool, ${w} worker${w > 1 ? 's' : ''}: Grams ${gramS.toFixed(2)} s on the pool, pairs ${(sec - gramS).toFixed(2)} s here | ${sec.toFixed(2)} s | – | ${(poolOne / sec).toFixed(2)}× vs 1 worker; ${same ? 'bitwise equal to one thread' : 'DIFFERENT from one thread'} |`,
      );
    }
    let pyLine = '| numpy (BLAS Gram per layer, then pair sums) | skipped: /usr/bin/python3 with numpy not found | | |';
    let ratio = '';
    if (existsSync(PY)) {
      const dir = mkdtempSync(join(tmpdir(), 'bench-cka-'));
      try {
        const file = join(dir, 'cka.safetensors');
        writeFileSync(file, writeSafetensors({ x: { shape: [M, L, H], data: x.data }, y: { shape: [M, L, H], data: y.data } }));
        const out = execFileSync(PY, [resolve(import.meta.dirname, '../py/seed_cka.py'), file], {
          encoding: 'utf8',
          maxBuffer: 64 * 2 ** 20,
          timeout: 20 * 60_000,
        });
        const py = JSON.parse(out) as { seconds: number; cpu: number; linear: number[][] };
        let maxDiff = 0;
        py.linear.forEach((row, i) => row.forEach((v, j) => (maxDiff = Math.max(maxDiff, Math.abs(v - r.linear.grid[i * L + j])))));
        pyLine = `| numpy (BLAS Gram per layer, then pair sums) | ${py.seconds.toFixed(2)} s | ${py.cpu.toFixed(2)} s | linear only; max abs diff vs ours ${maxDiff.toExponential(2)} |`;
        ratio = `\n\nRatio ours / numpy = ${(ours / py.seconds).toFixed(2)} wall, ${(oursCpu / py.cpu).toFixed(2)} CPU time.`;
      } catch (e) {
        pyLine = `| numpy | failed: ${(e as Error).message.split('\n')[0]} | | |`;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    return [
      '| method | wall time | CPU time (all threads) | note |',
      '|---|---|---|---|',
      `| ours (TypeScript + wasm SIMD, float64, one thread): Gram once per layer, packed-triangle dots per pair | ${ours.toFixed(2)} s | ${oursCpu.toFixed(2)} s | linear + debiased, poolings, regions |`,
      ...poolRows,
      pyLine,
      ratio,
      '',
      `linear global ${r.linear.global.toFixed(4)}, max-aligned ${r.linear.maxAligned.toFixed(4)}; debiased global ${r.debiased.global.toFixed(4)}. Goal (issue 16): ≤ 1.5 s.`,
      `Load average during the run: ${loadavg()
        .map((v) => v.toFixed(1))
        .join(' / ')} (1/5/15 min) — other jobs share this machine.`,
      '',
      NOTES,
    ].join('\n');
  },
};

export default suite;
