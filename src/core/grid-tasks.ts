/**
 * Ridge R² grids (and CKA's Gram statistics) as independent tasks, so that a host can run them on several cores.
 *
 * A SyncR² computation is one grid per split (and, with α chosen by cross-validation, one per candidate α and fold).
 * The grids of one batch do not depend on each other, so an executor may run them in any order and on any worker.
 * Their numbers must not depend on that: every task computes its grid in exactly the same way, through the moment
 * path of `ridgeOperator` (each split's XᵀX or kernel derived from the source layer's full-sample moments), whether
 * or not those moments were already cached by an earlier task on the same worker. So a grid is bitwise the same in
 * one thread, in a pool of two workers or of four (test/unit/grid-pool.test.ts checks it).
 *
 * Pure TypeScript: the worker pools that run these tasks live in workers/ (page) and cli/ (Node).
 */
import { throwIfAborted } from './cancel';
import type { LayerStack } from './layer-stack';
import { crossDotsSteps, gramStatsSteps, triangles, type AllDots, type GramStats } from './cka';
import { momentCacheBytes, ridgeR2GridSteps, type MomentCache } from './ridge';
import { runStepsAsync, type Progress } from './steps';

export interface GridTask {
  source: LayerStack;
  target: LayerStack;
  /** 1 = test sample. */
  mask: Uint8Array;
  alpha: number;
}

export interface BatchOptions {
  signal?: AbortSignal;
  /** Fraction of the batch done, in [0, 1], after each layer of any task. */
  onProgress?: (fraction: number) => void;
}

/** Runs the layer-grid work of the labs: ridge grids (SyncR²) and Gram statistics (CKA). */
export interface GridExecutor {
  /** How many tasks run at once (1 for the in-process executor). */
  readonly workers: number;
  /** A batch of independent ridge grid tasks; results come back in task order. */
  grids(tasks: readonly GridTask[], opts?: BatchOptions): Promise<Float64Array[]>;
  /** Every layer's Gram statistics of one stack (cka.ts gramInfo, one layer per task). */
  gramStats(stack: LayerStack, opts?: BatchOptions): Promise<GramStats>;
  /** Every two vectors' dot product (cka.ts crossDots of `vectors` against themselves: CKA's triangles). */
  crossDots(vectors: readonly Float64Array[], opts?: BatchOptions): Promise<Float64Array>;
}

/** What an analysis runs on: the executor of its layer grids (a worker pool or in process), cancel and progress. */
export interface AnalysisContext {
  grids: GridExecutor;
  /** Bytes the analysis may keep to reuse work (every model's Gram statistics); each analysis has its default. */
  memoryBudgetBytes?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => unknown;
}

/** Moment caches are kept only for source stacks whose moments fit this budget (the rest compute without). */
export const MOMENT_CACHE_BUDGET = 256 * 2 ** 20;

/**
 * Whether a task uses the moment path: decided from the source's shape and the task's own split only, so that
 * every executor makes the same choice for the same task.
 */
export function usesMoments(source: LayerStack, mask: Uint8Array): boolean {
  let nTest = 0;
  for (let i = 0; i < mask.length; i++) nTest += mask[i] ? 1 : 0;
  return momentCacheBytes(source.L, source.H, source.n, source.n - nTest) <= MOMENT_CACHE_BUDGET;
}

/** One task's grid, layer by layer. `cache` holds (or receives) the moments of this task's source stack. */
export function gridTaskSteps(task: GridTask, cache: MomentCache | undefined): Generator<Progress, Float64Array> {
  return ridgeR2GridSteps(task.source, task.target, task.mask, {
    alpha: task.alpha,
    momentCache: usesMoments(task.source, task.mask) ? (cache ?? new Map()) : undefined,
    inputsChecked: true,
  });
}

/**
 * Keeps the moments of the most recent source stacks, keyed by whatever identifies a stack to the host (the stack
 * object in one thread, a key sent with the task in a worker). Two stacks: the two directions of a condition.
 */
export class MomentCaches<K> {
  private readonly entries: Array<{ key: K; cache: MomentCache }> = [];
  constructor(private readonly keep = 2) {}

  for(key: K): MomentCache {
    const i = this.entries.findIndex((e) => e.key === key);
    if (i >= 0) {
      const [hit] = this.entries.splice(i, 1);
      this.entries.unshift(hit);
      return hit.cache;
    }
    const entry = { key, cache: new Map() as MomentCache };
    this.entries.unshift(entry);
    this.entries.length = Math.min(this.entries.length, this.keep);
    return entry.cache;
  }
}

/** Folds per-task fractions into one batch fraction. */
export function batchProgress(tasks: number, report?: (fraction: number) => void): (task: number, fraction: number) => void {
  const parts = new Float64Array(tasks);
  let sum = 0;
  return (task, fraction) => {
    sum += fraction - parts[task];
    parts[task] = fraction;
    report?.(tasks ? sum / tasks : 1);
  };
}

/** cka.ts crossDotsAll on an executor (a pool shares out its groups of slices): the same bits as in one thread. */
export async function crossDotsAllWith(executor: GridExecutor, models: readonly GramStats[], opts: BatchOptions = {}): Promise<AllDots> {
  const { triangles: tri, offsets } = triangles(models);
  return { dots: await executor.crossDots(tri, opts), layers: tri.length, offsets };
}

/** Runs grid tasks one after another with `one`, checking for cancel between them and folding their progress. */
export async function gridsInTurn(
  tasks: readonly GridTask[],
  opts: BatchOptions,
  one: (task: GridTask, onFraction: (fraction: number) => void) => Promise<Float64Array>,
): Promise<Float64Array[]> {
  const progress = batchProgress(tasks.length, opts.onProgress);
  const out: Float64Array[] = [];
  for (let i = 0; i < tasks.length; i++) {
    throwIfAborted(opts.signal);
    out.push(await one(tasks[i], (f) => progress(i, f)));
  }
  return out;
}

/** Runs the tasks one after another in this thread, yielding to the event loop between layers (cancel, progress). */
export function createInProcessExecutor(): GridExecutor {
  const caches = new MomentCaches<LayerStack['data']>();
  return {
    workers: 1,
    grids: (tasks, opts = {}) =>
      gridsInTurn(tasks, opts, (task, onFraction) =>
        runStepsAsync(gridTaskSteps(task, caches.for(task.source.data)), { signal: opts.signal, onProgress: (d, t) => onFraction(d / t) }),
      ),
    async gramStats(stack, opts = {}) {
      return await runStepsAsync(gramStatsSteps(stack), { signal: opts.signal, onProgress: (d, t) => opts.onProgress?.(d / t) });
    },
    async crossDots(vectors, opts = {}) {
      return await runStepsAsync(crossDotsSteps(vectors, null), { signal: opts.signal, onProgress: (d, t) => opts.onProgress?.(d / t) });
    },
  };
}
