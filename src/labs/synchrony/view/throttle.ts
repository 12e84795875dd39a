/**
 * At most one job in flight; inputs pushed while it runs are coalesced into one rerun with the latest input.
 * Used for the live analysis: episodes land while the ridge grids are computing, and only the newest set matters.
 */
export interface LatestOnly<T> {
  /** `urgent`: start at once, without the pause (the run's last episodes: the final figure should not wait). */
  push(input: T, urgent?: boolean): void;
  /** True while a job runs. */
  readonly running: boolean;
  /** Resolves when no job runs and none is pending. */
  idle(): Promise<void>;
  /** Starts a paused rerun now (the run it follows has ended). */
  expedite(): void;
  /** Drops a pending rerun (the job in flight still finishes, but its result is flagged stale). */
  reset(): void;
}

/**
 * `pace`: after each job, wait `idleRatio` times as long as it took (at most `maxWaitMs`) before the next non-urgent
 * one, so that a live analysis takes at most 1 / (1 + idleRatio) of a core from the run that feeds it.
 */
export interface Pace {
  idleRatio: number;
  maxWaitMs: number;
}

/**
 * `run(input, isStale)` is called for the first input and then, after each finish, for the latest input pushed
 * meanwhile. `isStale()` turns true once a newer input or a reset arrived, so a finished job can drop its result.
 */
export function latestOnly<T>(run: (input: T, isStale: () => boolean) => Promise<void>, onError?: (e: unknown) => void, pace?: Pace): LatestOnly<T> {
  let running = false;
  let pending: { input: T; urgent: boolean } | null = null;
  /** Ends the pause early (an urgent push, or a reset). */
  let wake: (() => void) | null = null;
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
      const started = Date.now();
      try {
        await run(next.input, () => generation !== mine || pending !== null);
      } catch (e) {
        onError?.(e);
      }
      const took = Date.now() - started;
      if (pace && pending && !pending.urgent) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(
            () => {
              wake = null;
              resolve();
            },
            Math.min(pace.maxWaitMs, took * pace.idleRatio),
          );
          wake = () => {
            clearTimeout(timer);
            wake = null;
            resolve();
          };
        });
      }
      next = pending;
      pending = null;
    }
    running = false;
    settle();
  }
  return {
    push(input: T, urgent = false) {
      if (running) {
        pending = { input, urgent };
        if (urgent) wake?.();
      } else void loop(input);
    },
    get running() {
      return running;
    },
    idle() {
      return running || pending ? new Promise<void>((r) => waiters.push(r)) : Promise.resolve();
    },
    expedite() {
      if (pending) pending.urgent = true;
      wake?.();
    },
    reset() {
      pending = null;
      generation++;
      wake?.();
    },
  };
}
