import * as Comlink from 'comlink';
import { computeApi } from '../src/core/compute-api';
import { job } from '../src/core/analysis-api';
import { labRunApi } from '../src/labs/run-api';
import { analyzeSynchronySteps } from '../src/labs/synchrony/analysis';
import { runStepsAsync } from '../src/core/steps';
import type { SynchronyConfig } from '../src/labs/synchrony/queue';
import { readSynchronyEpisode } from '../src/labs/synchrony/records';
import type { Episode } from '../src/core/runs/types';

const api = {
  ...computeApi,
  ...labRunApi,
  /**
   * The Synchrony lab's analysis of stored episodes (ridge maps and SyncR² for every condition) for one model pair;
   * it yields between layers, so the heartbeat is answered and `cancel(jobId)` stops it. The stored episodes are
   * parsed with the lab's record schema first, so a row of the wrong shape is named rather than misread.
   */
  synchronyAnalysis(config: SynchronyConfig, episodes: Episode[], pairIndex?: number, onProgress?: (done: number, total: number) => unknown, jobId?: string) {
    return job(jobId, (signal) => runStepsAsync(analyzeSynchronySteps(config, episodes.map(readSynchronyEpisode), pairIndex), { onProgress, signal }));
  },
};
export type ComputeWorkerApi = typeof api;

Comlink.expose(api);
