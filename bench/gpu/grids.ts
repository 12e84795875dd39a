/**
 * Browser side of the grid benchmark (bench/suites/grids-browser.ts): the SyncR² and CKA grids of the Node suites,
 * on the app's grid pool (workers/grid-pool-web.ts: Web Workers, shared memory), timed in the page. The problems are
 * built here from the same seeds as in Node (bench/grid-problems.ts), so the numbers can be compared bit for bit.
 */
import { checksum, ckaStack, syncProblem, SYNC_SEEDS } from '../grid-problems';
import { cka } from '../../src/core/cka';
import { syncR2With } from '../../src/core/synchrony';
import { createWebGridExecutor } from '../../workers/grid-pool-web';
import { GridPool } from '../../workers/grid-pool';
import { GpuGram } from '../../src/gpu/gram';
import { gpuGridExecutor } from '../../src/gpu/ridge-grid';

export interface GridBenchResult {
  workers: number;
  pooled: boolean;
  crossOriginIsolated: boolean;
  cores: number;
  syncSeconds: number;
  syncR2: number;
  /** Σ of the SyncR² problem's states, to check that the page built the same problem as Node. */
  syncChecksum: number;
  syncGrids: number[][];
  ckaSeconds: number;
  ckaLinear: number[];
  ckaDebiased: number[];
}

export async function runGridBench(opts: { syncN?: number; ckaM?: number } = {}): Promise<GridBenchResult> {
  const executor = createWebGridExecutor();
  const { source, target, group } = syncProblem(opts.syncN ?? 1000);
  let t = performance.now();
  const sync = await syncR2With(executor, source, target, group, { alpha: 0.1, splitSeeds: SYNC_SEEDS });
  const syncSeconds = (performance.now() - t) / 1000;
  const x = ckaStack('cka-x', opts.ckaM ?? 1000);
  const y = ckaStack('cka-y', opts.ckaM ?? 1000);
  t = performance.now();
  const [gramsX, gramsY] = await Promise.all([executor.gramStats(x), executor.gramStats(y)]);
  const r = cka(x, y, { gramsX, gramsY });
  const ckaSeconds = (performance.now() - t) / 1000;
  const pooled = executor instanceof GridPool;
  if (executor instanceof GridPool) executor.close();
  return {
    workers: executor.workers,
    pooled,
    crossOriginIsolated,
    cores: navigator.hardwareConcurrency,
    syncSeconds,
    syncR2: sync.syncR2,
    syncChecksum: checksum(source.data) + checksum(target.data),
    syncGrids: sync.r2PerSplit.map((g) => Array.from(g)),
    ckaSeconds,
    ckaLinear: Array.from(r.linear.grid),
    ckaDebiased: Array.from(r.debiased.grid),
  };
}

export interface GpuCkaBenchResult {
  adapter: string;
  software: boolean;
  m: number;
  H: number;
  layers: number;
  /** Both models' Gram statistics on the GPU (28 products each), then the pairs' dot products on the CPU. */
  gpuSeconds: number;
  /** The same on the page's grid pool, float64. */
  cpuSeconds: number;
  /** Largest |Δ| of any linear or debiased CKA cell, GPU against float64. */
  maxAbsDiff: number;
}

/** The CKA grid of the Node bench (28 × 28, m = 1000, H = 1024) with its Gram products on the GPU, beside the pool. */
export async function runGpuCkaBench(opts: { ckaM?: number } = {}): Promise<GpuCkaBenchResult> {
  const gpu = await GpuGram.openOrThrow();
  const kernel = gpu.kernel;
  const x = ckaStack('cka-x', opts.ckaM ?? 1000);
  const y = ckaStack('cka-y', opts.ckaM ?? 1000);
  await kernel.gramInfo(x, 0); // warm-up: pipeline and first buffers
  let t = performance.now();
  const [gx, gy] = [await kernel.gramStats(x), await kernel.gramStats(y)];
  const onGpu = cka(x, y, { gramsX: gx, gramsY: gy });
  const gpuSeconds = (performance.now() - t) / 1000;
  kernel.destroy();
  const executor = createWebGridExecutor();
  t = performance.now();
  const [cx, cy] = await Promise.all([executor.gramStats(x), executor.gramStats(y)]);
  const onCpu = cka(x, y, { gramsX: cx, gramsY: cy });
  const cpuSeconds = (performance.now() - t) / 1000;
  if (executor instanceof GridPool) executor.close();
  let maxAbsDiff = 0;
  for (const k of ['linear', 'debiased'] as const) onGpu[k].grid.forEach((v, c) => (maxAbsDiff = Math.max(maxAbsDiff, Math.abs(v - onCpu[k].grid[c]))));
  return { adapter: gpu.adapter, software: gpu.software, m: x.n, H: x.H, layers: x.L, gpuSeconds, cpuSeconds, maxAbsDiff };
}

export interface GpuSyncBenchResult {
  adapter: string;
  n: number;
  /** SyncR² with the grids' target-side products on the GPU, and on the page's grid pool (float64), same run. */
  gpuSeconds: number;
  cpuSeconds: number;
  /** Largest |Δ| of any R² cell of any split, GPU against float64. */
  maxAbsDiff: number;
}

/** The SyncR² grid of the Node bench (30 × 30, H = 576, n = 1000, 3 splits) with the GPU grid path. */
export async function runGpuSyncBench(opts: { syncN?: number } = {}): Promise<GpuSyncBenchResult> {
  const gpu = await GpuGram.openOrThrow();
  const kernel = gpu.kernel;
  const executor = createWebGridExecutor();
  const { source, target, group } = syncProblem(opts.syncN ?? 1000);
  let t = performance.now();
  const onGpu = await syncR2With(gpuGridExecutor(executor, kernel), source, target, group, { alpha: 0.1, splitSeeds: SYNC_SEEDS });
  const gpuSeconds = (performance.now() - t) / 1000;
  kernel.destroy();
  t = performance.now();
  const onCpu = await syncR2With(executor, source, target, group, { alpha: 0.1, splitSeeds: SYNC_SEEDS });
  const cpuSeconds = (performance.now() - t) / 1000;
  if (executor instanceof GridPool) executor.close();
  let maxAbsDiff = 0;
  onGpu.r2PerSplit.forEach((g, k) => g.forEach((v, c) => (maxAbsDiff = Math.max(maxAbsDiff, Math.abs(v - onCpu.r2PerSplit[k][c])))));
  return { adapter: gpu.adapter, n: source.n, gpuSeconds, cpuSeconds, maxAbsDiff };
}

Object.assign(window as unknown as Record<string, unknown>, { runGridBench, runGpuCkaBench, runGpuSyncBench });
