import * as Comlink from 'comlink';
import { computeApi } from '../src/core/compute-api';
import { job } from '../src/core/analysis-api';
import { labRunApi } from '../src/labs/run-api';
import { analyzeSynchronySteps } from '../src/labs/synchrony/analysis';
import { runStepsAsync } from '../src/core/steps';
import type { SynchronyConfig } from '../src/labs/synchrony/queue';
import type { Episode } from '../src/core/runs/types';

const api = {
  ...computeApi,
  ...labRunApi,
  /**
   * The Synchrony lab's analysis of stored episodes (ridge maps and SyncR² for every condition) for one model pair;
   * it yields between layers, so the heartbeat is answered and `cancel(jobId)` stops it.
   */
  synchronyAnalysis(config: SynchronyConfig, episodes: Episode[], pairIndex?: number, onProgress?: (done: number, total: number) => unknown, jobId?: string) {
    return job(jobId, (signal) => runStepsAsync(analyzeSynchronySteps(config, episodes, pairIndex), { onProgress, signal }));
  },
};
export type ComputeWorkerApi = typeof api;

Comlink.expose(api);
