import * as Comlink from 'comlink';

export interface WorkerHostOptions {
  /** How often to check that the worker still answers. */
  heartbeatMs?: number;
  /** A worker that has not answered a ping for this long is considered dead. */
  deadAfterMs?: number;
}

export type HostEvent = { kind: 'crashed'; reason: string } | { kind: 'restarted' };

/**
 * Owns one comlink-wrapped worker: starts it, watches it (error events and a heartbeat, because a worker killed
 * by the browser sends no event), and replaces it after a crash. Callers get a rejection for work that was in
 * flight, so they can redo it from the last finished episode.
 */
export class WorkerHost<T extends { ping(): string }> {
  private worker!: Worker;
  private api!: Comlink.Remote<T>;
  private timer: ReturnType<typeof setInterval> | undefined;
  private lastAnswer = 0;
  private inflight = new Set<(e: Error) => void>();
  private listeners = new Set<(e: HostEvent) => void>();
  private generation = 0;
  readonly heartbeatMs: number;
  readonly deadAfterMs: number;

  constructor(
    private spawn: () => Worker,
    opts: WorkerHostOptions = {},
  ) {
    this.heartbeatMs = opts.heartbeatMs ?? 1000;
    this.deadAfterMs = opts.deadAfterMs ?? 6000;
    this.start();
  }

  on(listener: (e: HostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Runs `work` against the current worker; rejects with WorkerCrashed if the worker dies meanwhile. */
  call<R>(work: (api: Comlink.Remote<T>) => Promise<R>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const fail = (e: Error) => reject(e);
      this.inflight.add(fail);
      work(this.api)
        .then(resolve, reject)
        .finally(() => this.inflight.delete(fail));
    });
  }

  /** The raw worker, for tests and diagnostics that need to kill it. */
  get rawWorker(): Worker {
    return this.worker;
  }

  terminate() {
    clearInterval(this.timer);
    this.worker.terminate();
    this.api[Comlink.releaseProxy]();
  }

  private start() {
    const generation = ++this.generation;
    this.worker = this.spawn();
    this.api = Comlink.wrap<T>(this.worker);
    this.lastAnswer = performance.now();
    this.worker.addEventListener('error', (e) => {
      if (generation === this.generation) this.crashed(`the worker raised an uncaught error: ${e.message || 'unknown'}`);
    });
    clearInterval(this.timer);
    this.timer = setInterval(() => {
      if (generation !== this.generation) return;
      if (performance.now() - this.lastAnswer > this.deadAfterMs) {
        this.crashed(`the worker stopped answering for ${(this.deadAfterMs / 1000).toFixed(0)} s`);
        return;
      }
      (this.api.ping() as Promise<string>).then(
        () => {
          if (generation === this.generation) this.lastAnswer = performance.now();
        },
        () => undefined,
      );
    }, this.heartbeatMs);
  }

  private crashed(reason: string) {
    const error = new WorkerCrashed(reason);
    for (const fail of this.inflight) fail(error);
    this.inflight.clear();
    for (const l of this.listeners) l({ kind: 'crashed', reason });
    try {
      this.worker.terminate();
    } catch {
      // Already gone.
    }
    this.start();
    for (const l of this.listeners) l({ kind: 'restarted' });
  }
}

export class WorkerCrashed extends Error {
  constructor(reason: string) {
    super(`The compute worker crashed (${reason}). It was restarted.`);
    this.name = 'WorkerCrashed';
  }
}
