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

(window as unknown as { runGridBench: typeof runGridBench }).runGridBench = runGridBench;
