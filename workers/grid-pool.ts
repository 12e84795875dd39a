/**
 * A pool of grid workers: runs a batch of independent ridge R² grids (src/core/grid-tasks.ts) on several cores.
 * Environment-neutral: the page passes a function that starts a Web Worker, Node one that starts a worker_threads
 * Worker (cli/grid-pool-node.ts); both speak comlink.
 *
 * Layer states go to the workers as SharedArrayBuffer views, so a 70 MB stack is shared, not copied per task: a
 * stack that is not shared yet is copied into shared memory once per batch. A task goes preferably to the worker
 * that last had its source stack (that worker keeps the stack's moments), otherwise to any idle worker; since every
 * task computes its grid the same way whether or not the moments were kept, the numbers do not depend on the
 * number of workers or on the order (test/unit/grid-pool.test.ts).
 *
 * Cancel: aborting the batch's signal terminates the workers that are busy (a grid is one long synchronous loop,
 * so a message could not reach it) and rejects with CancelledError; the pool starts fresh workers when next used.
 */
import * as Comlink from 'comlink';
import { CancelledError } from '../src/core/cancel';
import { batchProgress, type BatchOptions, type GridExecutor, type GridTask } from '../src/core/grid-tasks';
import { checkStack, type LayerStack } from '../src/core/layer-stack';
import { gridPlan, type GridPlan } from '../src/core/ridge';
import { addGroups, crossDotsGroups, type GramInfo, type GramStats } from '../src/core/cka';
import type { GridWorkerApi } from './grid-worker-api';

export interface GridWorkerHandle {
  api: Comlink.Remote<GridWorkerApi>;
  /** Resolves when the worker dies on its own (an uncaught error, out of memory), with the reason. */
  died: Promise<string>;
  terminate(): void;
}

/** Thrown when a grid worker dies under a task; the pool replaces it. */
export class GridWorkerDied extends Error {
  constructor(reason: string) {
    super(`A grid worker stopped (${reason}).`);
    this.name = 'GridWorkerDied';
  }
}

/** Whether this environment can share memory with workers (a page must be cross-origin isolated). */
export function canShareMemory(): boolean {
  return typeof SharedArrayBuffer !== 'undefined';
}

function sharedCopy(stack: LayerStack): LayerStack {
  if (stack.data.buffer instanceof SharedArrayBuffer) return stack;
  const n = stack.data.length;
  const data = stack.data instanceof Float64Array ? new Float64Array(new SharedArrayBuffer(n * 8)) : new Float32Array(new SharedArrayBuffer(n * 4));
  data.set(stack.data);
  return { ...stack, data };
}

function sharedVector(v: Float64Array): Float64Array {
  const out = new Float64Array(new SharedArrayBuffer(v.byteLength));
  out.set(v);
  return out;
}

/** One call on one worker: a source row or a target column of one grid. */
interface Item {
  /** The pool prefers a worker that has run an item with the same affinity (it keeps moments or resident rows). */
  affinity: string;
  batch: Batch;
  run(api: Comlink.Remote<GridWorkerApi>): Promise<void>;
}

interface Batch {
  results: unknown[];
  left: number;
  progress: (task: number, fraction: number) => void;
  settle: (error: unknown) => void;
  fail: (error: unknown) => void;
  failed: boolean;
}

/** Stores one result of a batch, unless the batch has failed, and settles it when that was the last one. */
function complete(batch: Batch, index: number, value: unknown): void {
  if (batch.failed) return;
  batch.results[index] = value;
  batch.progress(index, 1);
  if (--batch.left === 0) batch.settle(null);
}

/** Checks each stack once and copies it into shared memory once, however many tasks name it. */
function sharer(): (s: LayerStack, what: string) => LayerStack {
  const shared = new Map<object, LayerStack>();
  return (s, what) => {
    let v = shared.get(s.data);
    if (!v) {
      checkStack(s, what); // here, once, so that the workers need not scan it for every call
      shared.set(s.data, (v = sharedCopy(s)));
    }
    return v;
  };
}

interface Slot {
  handle: GridWorkerHandle | null;
  seen: Set<string>;
  running: Item | null;
}

/** Rows of all source layers of one grid above this stay out of shared memory: such a grid runs as one piece. */
const ROWS_BUDGET = 512 * 2 ** 20;

export interface GridPoolOptions {
  /** Bytes of shared source rows one grid may hold (default 512 MiB); a larger grid runs whole on one worker. */
  rowsBudgetBytes?: number;
}

export class GridPool implements GridExecutor {
  private readonly slots: Slot[];
  private readonly keys = new WeakMap<object, string>();
  private nextKey = 0;
  private queue: Item[] = [];

  constructor(
    readonly workers: number,
    private readonly spawn: () => GridWorkerHandle,
    private readonly options: GridPoolOptions = {},
  ) {
    if (!(Number.isInteger(workers) && workers >= 1)) throw new Error(`grid pool: workers must be a positive integer (got ${workers})`);
    this.slots = Array.from({ length: workers }, () => ({ handle: null, seen: new Set(), running: null }));
  }

  private keyOf(data: object): string {
    let k = this.keys.get(data);
    if (!k) this.keys.set(data, (k = `s${this.nextKey++}`));
    return k;
  }

  /** Each layer's Gram statistics as one item; the pairs' dot products then run in the caller's thread. */
  gramStats(stack: LayerStack, opts: BatchOptions = {}): Promise<GramStats> {
    let shared: LayerStack;
    try {
      shared = sharer()(stack, 'stack');
    } catch (e) {
      return Promise.reject(e);
    }
    const key = this.keyOf(stack.data);
    return this.batch<GramInfo>(stack.L, opts, (batch) =>
      Array.from({ length: stack.L }, (_, l) => ({
        affinity: `${key}/gram`,
        batch,
        run: async (api) => {
          complete(batch, l, await api.gramLayer(shared, l));
        },
      })),
    );
  }

  /**
   * crossDots of `vectors` against themselves, one group of slices per item (cka.ts adds the groups in order, so the
   * result is the one-thread result to the last bit). Vectors not in shared memory yet are copied there once.
   */
  async crossDots(vectors: readonly Float64Array[], opts: BatchOptions = {}): Promise<Float64Array> {
    const shared = vectors.map((v) => (v.buffer instanceof SharedArrayBuffer ? v : sharedVector(v)));
    const groups = crossDotsGroups(shared[0]?.length ?? 0);
    const key = `d${this.nextKey++}`;
    const parts = await this.batch<Float64Array>(groups, opts, (batch) =>
      Array.from({ length: groups }, (_, g) => ({
        affinity: key,
        batch,
        run: async (api) => {
          complete(batch, g, await api.crossDotsGroup(shared, g));
        },
      })),
    );
    return addGroups(parts, shared.length * shared.length);
  }

  /** Queues the items that `make` builds for a new batch of `size` results, and settles with them or the first error. */
  private batch<T>(size: number, opts: BatchOptions, make: (batch: Batch) => Item[]): Promise<T[]> {
    if (opts.signal?.aborted) return Promise.reject(new CancelledError());
    if (!size) return Promise.resolve([]);
    return new Promise<T[]>((resolve, reject) => {
      const onAbort = () => fail(new CancelledError());
      const batch: Batch = {
        results: new Array(size),
        left: size,
        progress: batchProgress(size, opts.onProgress),
        failed: false,
        fail: (error) => fail(error),
        settle: (error) => {
          opts.signal?.removeEventListener('abort', onAbort);
          if (error === null) resolve(batch.results as T[]);
          else reject(error);
        },
      };
      // A failed or cancelled batch leaves nothing behind: its queued items go, and workers busy with it are stopped.
      const fail = (error: unknown) => {
        if (batch.failed || batch.left === 0) return;
        batch.failed = true;
        this.queue = this.queue.filter((q) => q.batch !== batch);
        for (const slot of this.slots) if (slot.running?.batch === batch) this.retire(slot);
        batch.settle(error);
      };
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(...make(batch));
      this.pump();
    });
  }

  grids(tasks: readonly GridTask[], opts: BatchOptions = {}): Promise<Float64Array[]> {
    if (opts.signal?.aborted) return Promise.reject(new CancelledError());
    if (!tasks.length) return Promise.resolve([]);
    const share = sharer();
    let plans: GridPlan[];
    try {
      plans = tasks.map((t) => gridPlan(share(t.source, 'source'), share(t.target, 'target'), t.mask, t.alpha));
    } catch (e) {
      return Promise.reject(e);
    }
    return this.batch<Float64Array>(tasks.length, opts, (batch) =>
      tasks.flatMap((t, i) => this.gridItems(i, { ...t, source: share(t.source, 'source'), target: share(t.target, 'target') }, plans[i], batch)),
    );
  }

  /**
   * One grid as L_A source-row items, then L_B target-column items once every row is in (they go to the front of
   * the queue, so that a grid's rows are released before the next grid's pile up). Every cell is computed as the
   * one-thread path computes it (ridgeR2GridSteps), so the grid is bitwise the same.
   */
  private gridItems(index: number, task: GridTask, plan: GridPlan, batch: Batch): Item[] {
    const LA = task.source.L;
    const LB = task.target.L;
    if (LA * plan.rowLength * 8 > (this.options.rowsBudgetBytes ?? ROWS_BUDGET)) return [this.wholeGridItem(index, task, batch)];
    const sourceKey = this.keyOf(task.source.data);
    const rowsKey = `g${this.nextKey++}`;
    let rows: Float64Array | null = null;
    let rowsLeft = LA;
    let colsLeft = LB;
    let done = 0;
    const out = new Float64Array(LA * LB);
    const step = () => batch.progress(index, ++done / (LA + LB));
    const column = (b: number): Item => ({
      affinity: rowsKey,
      batch,
      run: async (api) => {
        const col = await api.targetColumn(task.source, task.target, b, task.mask, task.alpha, rows!, rowsKey);
        if (batch.failed) return;
        for (let a = 0; a < LA; a++) out[a * LB + b] = col[a];
        step();
        if (--colsLeft === 0) {
          rows = null;
          complete(batch, index, out);
        }
      },
    });
    return Array.from({ length: LA }, (_, a) => ({
      affinity: `${sourceKey}/${a}`,
      batch,
      run: async (api) => {
        const row = await api.sourceRow(task.source, task.target, a, task.mask, task.alpha, sourceKey);
        if (batch.failed) return;
        rows ??= new Float64Array(new SharedArrayBuffer(LA * plan.rowLength * 8));
        rows.set(row, a * plan.rowLength);
        step();
        if (--rowsLeft === 0) this.queue.unshift(...Array.from({ length: LB }, (_, b) => column(b)));
      },
    }));
  }

  /** A grid too large to share its rows: one worker computes it whole, as the one-thread path does. */
  private wholeGridItem(index: number, task: GridTask, batch: Batch): Item {
    const sourceKey = this.keyOf(task.source.data);
    return {
      affinity: sourceKey,
      batch,
      run: async (api) => {
        complete(batch, index, await api.grid(task, sourceKey));
      },
    };
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.running || !this.queue.length) continue;
      const at = Math.max(
        0,
        this.queue.findIndex((q) => slot.seen.has(q.affinity)),
      );
      const [item] = this.queue.splice(at, 1);
      void this.runOn(slot, item);
    }
  }

  private async runOn(slot: Slot, item: Item): Promise<void> {
    slot.handle ??= this.spawn();
    const handle = slot.handle;
    slot.seen.add(item.affinity);
    slot.running = item;
    const { batch } = item;
    try {
      await Promise.race([item.run(handle.api), handle.died.then((reason) => Promise.reject(new GridWorkerDied(reason)))]);
    } catch (e) {
      if (slot.handle !== handle) return; // retired while it ran (its batch failed): the slot belongs to newer work
      if (e instanceof GridWorkerDied) this.retire(slot);
      batch.fail(e);
    } finally {
      if (slot.running === item) slot.running = null;
    }
    this.pump();
  }

  private retire(slot: Slot): void {
    const h = slot.handle;
    slot.handle = null;
    slot.seen.clear();
    slot.running = null;
    if (h) {
      h.api[Comlink.releaseProxy]();
      h.terminate();
    }
  }

  /** Stops every worker; the pool starts new ones if it is used again. */
  close(): void {
    this.slots.forEach((s) => this.retire(s));
  }
}
