import * as Comlink from 'comlink';
import { computeApi } from '../src/core/compute-api';
import { labRunApi } from '../src/labs/run-api';
import { analyzeSynchrony } from '../src/labs/synchrony/analysis';
import type { SynchronyConfig } from '../src/labs/synchrony/queue';
import type { Episode } from '../src/core/runs/types';

const api = {
  ...computeApi,
  ...labRunApi,
  /** The Synchrony lab's analysis of stored episodes (ridge maps and SyncR² for every condition) for one model pair. */
  synchronyAnalysis(config: SynchronyConfig, episodes: Episode[], pairIndex?: number) {
    return analyzeSynchrony(config, episodes, pairIndex);
  },
};
export type ComputeWorkerApi = typeof api;

Comlink.expose(api);
