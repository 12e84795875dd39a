import { episodeRng, type ComputeContext } from '../core/runs/runner';
import type { Episode } from '../core/runs/types';
import type { LabName } from '../core/config/lab-definition';
import { JobAborts } from '../core/cancel';
import { openLabByName } from './registry';

const aborts = new JobAborts();

/**
 * Episode execution as the compute worker exposes it. Jobs are named by the caller so that `cancelEpisode`,
 * which arrives as a separate message, can abort the one in flight (runners yield between chunks to see it).
 */
export const labRunApi = {
  async runEpisode(
    job: string,
    lab: LabName,
    config: unknown,
    /** The run's seed (RunMeta.seed): episode `index` draws from episodeRng(seed, index), as in the page. */
    seed: number,
    index: number,
    previous: Episode | undefined,
    onProgress?: (fraction: number, note?: string) => void,
  ): Promise<Episode> {
    // A stale cancel (one that arrived after an earlier try of this episode ended) must not stop this try.
    aborts.end(job);
    const signal = aborts.start(job);
    try {
      return await openLabByName(lab).runEpisode(config, {
        index,
        rng: episodeRng(seed, index),
        previous,
        signal,
        progress: (f, note) => onProgress?.(f, note),
      });
    } finally {
      aborts.end(job);
    }
  },
  cancelEpisode(job: string) {
    aborts.abort(job);
  },
  async summarize(lab: LabName, config: unknown, episodes: Episode[], compute?: ComputeContext) {
    return await openLabByName(lab).summarize(config, episodes, compute);
  },
  /** For the crash-recovery test and for diagnosing: makes this worker die the way a real crash would. */
  crashForTest() {
    setTimeout(() => {
      throw new Error('simulated worker crash');
    });
  },
};
