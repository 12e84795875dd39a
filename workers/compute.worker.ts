import * as Comlink from 'comlink';
import { computeApi } from '../src/core/compute-api';
import { job, type ProgressFn } from '../src/core/analysis-api';
import type { GridExecutor } from '../src/core/grid-tasks';
import { syncR2With, type SyncResult } from '../src/core/synchrony';
import { labRunApi } from '../src/labs/run-api';
import { analyzeSynchrony } from '../src/labs/synchrony/analysis';
import type { SynchronyConfig } from '../src/labs/synchrony/queue';
import { readSynchronyEpisode } from '../src/labs/synchrony/records';
import type { Episode } from '../src/core/runs/types';
import type { LabName } from '../src/core/config/lab-definition';
import { createWebGridExecutor } from './grid-pool-web';
import { GridPool } from './grid-pool';

// The ridge grids run on a pool of grid workers (one per core), started when first needed.
let executor: GridExecutor | null = null;
const grids = () => (executor ??= createWebGridExecutor());

/**
 * What an analysis may keep to reuse work: an eighth of the device's memory (navigator.deviceMemory, which Chromium
 * rounds and caps at 8 GiB), at least 256 MiB and at most 1 GiB. Eight 1B-class models' Gram statistics (900 MB for
 * m = 1000) then stay in memory on an 8 GiB machine, and their pairs take the fast path.
 */
function analysisMemoryBudget(): number {
  const gib = (navigator as Navigator & { deviceMemory?: number }).deviceMemory ?? 2;
  return Math.min(2 ** 30, Math.max(256 * 2 ** 20, (gib * 2 ** 30) / 8));
}

const api = {
  ...computeApi,
  ...labRunApi,
  /**
   * The Synchrony lab's analysis of stored episodes (ridge maps and SyncR² for every condition) for one model pair,
   * its grids shared out over the grid pool; `cancel(jobId)` stops it. The stored episodes are parsed with the lab's
   * record schema first, so a row of the wrong shape is named rather than misread.
   */
  synchronyAnalysis(config: SynchronyConfig, episodes: Episode[], pairIndex?: number, onProgress?: ProgressFn, jobId?: string) {
    return job(jobId, (signal) => analyzeSynchrony(config, episodes.map(readSynchronyEpisode), pairIndex, { grids: grids(), signal, onProgress }));
  },
  /** A run's results, as labRunApi computes them, with the layer grids on the grid pool. */
  summarize(lab: LabName, config: unknown, episodes: Episode[]) {
    return labRunApi.summarize(lab, config, episodes, { grids: grids(), memoryBudgetBytes: analysisMemoryBudget() });
  },
  /** The core's syncR2 (same arguments), its split grids on the grid pool; progress in thousandths. */
  syncR2(...[source, target, group, options = {}, onProgress, jobId]: Parameters<typeof computeApi.syncR2>): Promise<SyncResult> {
    return job(jobId, (signal) =>
      syncR2With(grids(), source, target, group, { ...options, signal, onProgress: (f) => onProgress?.(Math.round(1000 * f), 1000) }),
    );
  },
  /** This compute worker's grid executor: a pool of `workers` grid workers, or the in-process one. */
  gridExecutor(): { pooled: boolean; workers: number } {
    const e = grids();
    return { pooled: e instanceof GridPool, workers: e.workers };
  },
};
export type ComputeWorkerApi = typeof api;

Comlink.expose(api);
