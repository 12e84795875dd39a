/**
 * At most one job in flight; inputs pushed while it runs are coalesced into one rerun with the latest input.
 * Used for the live analysis: episodes land while the ridge grids are computing, and only the newest set matters.
 */
export interface LatestOnly<T> {
  push(input: T): void;
  /** True while a job runs. */
  readonly running: boolean;
  /** Resolves when no job runs and none is pending. */
  idle(): Promise<void>;
  /** Drops a pending rerun (the job in flight still finishes, but its result is flagged stale). */
  reset(): void;
}

/**
 * `run(input, isStale)` is called for the first input and then, after each finish, for the latest input pushed
 * meanwhile. `isStale()` turns true once a newer input or a reset arrived, so a finished job can drop its result.
 */
export function latestOnly<T>(run: (input: T, isStale: () => boolean) => Promise<void>, onError?: (e: unknown) => void): LatestOnly<T> {
  let running = false;
  let pending: { input: T } | null = null;
  let generation = 0;
  let waiters: Array<() => void> = [];
  const settle = () => {
    if (running || pending) return;
    const w = waiters;
    waiters = [];
    w.forEach((f) => f());
  };
  async function loop(input: T) {
    running = true;
    let next: { input: T } | null = { input };
    while (next) {
      const mine = ++generation;
      try {
        await run(next.input, () => generation !== mine || pending !== null);
      } catch (e) {
        onError?.(e);
      }
      next = pending;
      pending = null;
    }
    running = false;
    settle();
  }
  return {
    push(input: T) {
      if (running) pending = { input };
      else void loop(input);
    },
    get running() {
      return running;
    },
    idle() {
      return running || pending ? new Promise<void>((r) => waiters.push(r)) : Promise.resolve();
    },
    reset() {
      pending = null;
      generation++;
    },
  };
}
