/**
 * How a run's episodes split into jobs for a sweep (cli/sweep): each job is a list of episode indices that one
 * worker runs in order. Episodes that stand alone go in blocks of `block`; a chain of episodes that carry state
 * (RunPlan.chainLength) is never split, because each of its episodes reads the one before.
 */
export function planJobs(episodes: number, opts: { block?: number; chainLength?: number } = {}): number[][] {
  const block = Math.max(1, Math.floor(opts.block ?? 1));
  const size = opts.chainLength && opts.chainLength > 0 ? Math.floor(opts.chainLength) : block;
  const jobs: number[][] = [];
  for (let start = 0; start < episodes; start += size) {
    jobs.push(Array.from({ length: Math.min(size, episodes - start) }, (_, i) => start + i));
  }
  return jobs;
}

/** Whether episode `index` reads the episode before it (a chain's later episode). */
export const needsPrevious = (index: number, chainLength?: number): boolean => !!chainLength && index % chainLength !== 0;
