import * as Comlink from 'comlink';
import { runSweep } from '../src/labs/opinions/sweep';
import type { OpinionsConfig } from '../src/labs/opinions/graph';

/** A dedicated worker, so a long sweep never delays the live simulation; the page stops it by terminating it. */
const api = {
  sweep(config: OpinionsConfig, progress: (done: number, total: number, chi: number[]) => void) {
    return runSweep(config, progress, () => new Promise((r) => setTimeout(r, 0)));
  },
};
export type SweepWorkerApi = typeof api;
Comlink.expose(api);
