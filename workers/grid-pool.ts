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
import type { LayerStack } from '../src/core/layer-stack';
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

interface Item {
  index: number;
  key: string;
  task: GridTask;
  batch: Batch;
}

interface Batch {
  results: Float64Array[];
  left: number;
  progress: (task: number, fraction: number) => void;
  reportsProgress: boolean;
  settle: (error: unknown) => void;
  fail: (error: unknown) => void;
  failed: boolean;
}

interface Slot {
  handle: GridWorkerHandle | null;
  lastSource: string | null;
  running: Item | null;
}

export class GridPool implements GridExecutor {
  private readonly slots: Slot[];
  private readonly keys = new WeakMap<object, string>();
  private nextKey = 0;
  private queue: Item[] = [];

  constructor(
    readonly workers: number,
    private readonly spawn: () => GridWorkerHandle,
  ) {
    if (!(Number.isInteger(workers) && workers >= 1)) throw new Error(`grid pool: workers must be a positive integer (got ${workers})`);
    this.slots = Array.from({ length: workers }, () => ({ handle: null, lastSource: null, running: null }));
  }

  private keyOf(data: object): string {
    let k = this.keys.get(data);
    if (!k) this.keys.set(data, (k = `s${this.nextKey++}`));
    return k;
  }

  grids(tasks: readonly GridTask[], opts: BatchOptions = {}): Promise<Float64Array[]> {
    if (opts.signal?.aborted) return Promise.reject(new CancelledError());
    if (!tasks.length) return Promise.resolve([]);
    const shared = new Map<object, LayerStack>();
    const share = (s: LayerStack) => {
      let v = shared.get(s.data);
      if (!v) shared.set(s.data, (v = sharedCopy(s)));
      return v;
    };
    return new Promise<Float64Array[]>((resolve, reject) => {
      const onAbort = () => fail(new CancelledError());
      const batch: Batch = {
        results: new Array(tasks.length),
        left: tasks.length,
        progress: batchProgress(tasks.length, opts.onProgress),
        reportsProgress: !!opts.onProgress,
        failed: false,
        fail: (error) => fail(error),
        settle: (error) => {
          opts.signal?.removeEventListener('abort', onAbort);
          if (error === null) resolve(batch.results);
          else reject(error);
        },
      };
      // A failed or cancelled batch leaves nothing behind: its queued tasks go, and workers busy with it are stopped.
      const fail = (error: unknown) => {
        if (batch.failed || batch.left === 0) return;
        batch.failed = true;
        this.queue = this.queue.filter((q) => q.batch !== batch);
        for (const slot of this.slots) if (slot.running?.batch === batch) this.retire(slot);
        batch.settle(error);
      };
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      tasks.forEach((t, index) =>
        this.queue.push({ index, key: this.keyOf(t.source.data), task: { ...t, source: share(t.source), target: share(t.target) }, batch }),
      );
      this.pump();
    });
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.running || !this.queue.length) continue;
      const at = Math.max(
        0,
        this.queue.findIndex((q) => q.key === slot.lastSource),
      );
      const [item] = this.queue.splice(at, 1);
      void this.runOn(slot, item);
    }
  }

  private async runOn(slot: Slot, item: Item): Promise<void> {
    slot.handle ??= this.spawn();
    const handle = slot.handle;
    slot.lastSource = item.key;
    slot.running = item;
    const { batch } = item;
    try {
      const onProgress = batch.reportsProgress ? Comlink.proxy((f: number) => batch.progress(item.index, f)) : undefined;
      const grid = await Promise.race([
        handle.api.grid(item.task, item.key, onProgress),
        handle.died.then((reason) => Promise.reject(new GridWorkerDied(reason))),
      ]);
      if (!batch.failed) {
        batch.results[item.index] = grid;
        batch.progress(item.index, 1);
        if (--batch.left === 0) batch.settle(null);
      }
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
    slot.lastSource = null;
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
