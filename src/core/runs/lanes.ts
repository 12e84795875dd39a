/**
 * Episode lanes: independent episodes of one run, run side by side, each lane on its own copy of the models.
 *
 * A small model on onnxruntime's wasm backend gets one thread per worker on a 2-core machine (and half the cores, up to
 * four, elsewhere; src/runtime/threads.ts), so a run that waits on one model worker leaves the other cores idle. On
 * this machine's 2 cores, the Synchrony preset's 18 episodes ran to done in 37.3 s in two lanes against 52.2 s in one
 * (headless Chromium, wasm), with the same records, tensors and results. Episodes are seeded by their index
 * (episodeRng), so which lane runs an episode, and when, does not change its numbers; they are stored in index order.
 */
import { CancelledError, throwIfAborted } from '../cancel';

/** What decides how many lanes a run gets. */
export interface LaneInput {
  /** Episodes carry state from one to the next (RunPlan.chainLength): they must run in order, on one lane. */
  chained: boolean;
  /** The backend of each loaded model of the run ("wasm", "webgpu", …); empty for a run without models. */
  backends: readonly string[];
  /** Parameters of all the run's models together, roughly: each lane holds a copy of every one. */
  parameters: number;
  cores: number;
  /** Threads each model worker's wasm backend uses. */
  threadsPerWorker: number;
}

/** At most this many lanes, and only while every lane's copy of the models stays small. */
export const MAX_LANES = 4;
export const MAX_LANE_PARAMETERS = 50e6;
/**
 * Below this, a model's arithmetic is not what a run waits for: the Similarity population (four models of 4 layers ×
 * 64) took 53.6 s in two lanes against 47.6 s in one, since each call's fixed costs (the page's prompt building and
 * parsing, the worker's messages) stay the same and the second lane must first load all four models again.
 */
export const MIN_LANE_PARAMETERS = 1e6;

export interface LanePlan {
  lanes: number;
  /** In plain words, for the run's status line. */
  why: string;
}

/** How many lanes a run gets: one unless its episodes stand alone, run on wasm, and its models are small. */
export function episodeLanes(input: LaneInput): LanePlan {
  if (!input.backends.length) return { lanes: 1, why: 'no model to copy' };
  if (input.chained) return { lanes: 1, why: 'each episode continues the one before' };
  if (input.backends.some((b) => b !== 'wasm')) return { lanes: 1, why: 'a GPU runs one model call at a time' };
  if (input.parameters > MAX_LANE_PARAMETERS) return { lanes: 1, why: 'the models are too large to load twice' };
  if (input.parameters < MIN_LANE_PARAMETERS) return { lanes: 1, why: 'the models are so small that a second copy would only add loading' };
  const lanes = Math.max(1, Math.min(MAX_LANES, Math.floor(input.cores / Math.max(1, input.threadsPerWorker))));
  return lanes > 1
    ? { lanes, why: `${lanes} episodes at a time, one per ${input.threadsPerWorker === 1 ? 'core' : `${input.threadsPerWorker} cores`}` }
    : { lanes, why: 'the model already uses every core' };
}

/** A rough parameter count of a decoder with `layers` layers of width `hidden` (attention and a 4× MLP). */
export const decoderParameters = (layers: number, hidden: number): number => 12 * layers * hidden * hidden;

/** A run's progress across its lanes: the episodes finished, plus the fraction of each one under way. */
export class LaneProgress {
  private finished: number;
  private readonly underWay = new Map<number, number>();

  constructor(
    finished: number,
    private readonly total: number,
  ) {
    this.finished = finished;
  }

  /** Episode `index` is `fraction` done (0 when it starts). */
  set(index: number, fraction: number): void {
    this.underWay.set(index, fraction);
  }

  /** Episode `index` stopped: finished, or failed (then it is run again and counts once). */
  end(index: number, finished: boolean): void {
    this.underWay.delete(index);
    if (finished) this.finished++;
  }

  get fraction(): number {
    let f = this.finished;
    for (const x of this.underWay.values()) f += x;
    return f / Math.max(1, this.total);
  }
}

export interface LaneRun<E> {
  /** The first index to run (episodes before it are stored) and the run's episode count. */
  from: number;
  total: number;
  lanes: number;
  /** The host's signal: aborting it cancels every lane. */
  signal: AbortSignal;
  /** Gets lane `lane` (≥ 1) ready, e.g. loads its copy of the models; lane 0 is ready. A lane that fails to get
   *  ready is left out, and the others carry on. */
  prepare(lane: number, signal: AbortSignal): Promise<void>;
  /** Runs episode `index` on lane `lane`; rejects with CancelledError once `signal` is aborted. */
  run(index: number, lane: number, signal: AbortSignal): Promise<E>;
  /** Stores one finished episode; called one at a time, in index order, from `from` up. */
  store(index: number, episode: E): Promise<void>;
  /** A lane that could not get ready, and why (its episodes go to the other lanes). */
  onLaneLost?(lane: number, error: unknown): void;
}

/**
 * Runs episodes `from`..`total-1` on `lanes` lanes and stores each in index order as soon as every one before it is
 * stored. The first failure (or a cancel) stops the other lanes; what was stored before it stays stored, and the
 * error is thrown once every lane has stopped.
 */
export async function runInLanes<E>(job: LaneRun<E>): Promise<void> {
  const stop = new AbortController();
  const signal = AbortSignal.any([job.signal, stop.signal]);
  const finished = new Map<number, E>();
  let next = job.from;
  let stored = job.from;
  let failure: { error: unknown } | null = null;
  let storing = Promise.resolve();

  const fail = (error: unknown) => {
    failure ??= { error };
    stop.abort();
  };
  // One writer at a time, in index order: an episode that finishes early waits in `finished` for the ones before it.
  const flush = () =>
    (storing = storing.then(async () => {
      while (!failure && finished.has(stored)) {
        const episode = finished.get(stored)!;
        finished.delete(stored);
        await job.store(stored, episode);
        stored++;
      }
    }));

  const lane = async (k: number) => {
    if (k > 0) {
      try {
        await job.prepare(k, signal);
      } catch (e) {
        if (!signal.aborted) job.onLaneLost?.(k, e);
        return;
      }
    }
    while (!failure && next < job.total) {
      const index = next++;
      try {
        throwIfAborted(signal);
        finished.set(index, await job.run(index, k, signal));
        await flush();
      } catch (e) {
        fail(e);
      }
    }
  };

  await Promise.all(Array.from({ length: Math.max(1, job.lanes) }, (_, k) => lane(k)));
  await storing.catch(fail);
  if (failure) throw (failure as { error: unknown }).error;
  if (stored < job.total) throw job.signal.aborted ? new CancelledError() : new Error(`episodes ${stored + 1}..${job.total} were not run`);
}
