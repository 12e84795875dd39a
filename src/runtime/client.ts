/**
 * Main-thread client for model workers: one worker per loaded model. It spawns and terminates workers, detects a
 * crashed worker (an error event; no answer to a ping while idle; or, while a call is in flight, no answer for
 * `busyTimeoutMs`: a browser that kills a worker for memory sends no event), reports it and lets the caller restart it,
 * and keeps a small registry of loaded models (id, backend, dtype, status) that the status bar can subscribe to.
 */
import * as Comlink from 'comlink';
import { CancelledError, isCancelledError } from '../core/cancel';
import type { ModelWorkerApi } from '../../workers/model.worker';
import type {
  ChatMessage,
  EncodeOptions,
  EncodeResult,
  GenerateOptions,
  SampleRequest,
  GenerateResult,
  LoadOptions,
  LoadProgress,
  LoadResult,
  LoadedModelInfo,
  ScoreResult,
} from './types';

export type ModelStatus = 'loading' | 'ready' | 'crashed' | 'failed';

export interface LoadedModelEntry extends Partial<LoadedModelInfo> {
  /** Unique per loaded instance (two agents may load the same model). */
  key: string;
  model: string;
  status: ModelStatus;
  error?: string;
  info?: LoadResult;
  progress?: LoadProgress;
}

export class WorkerCrashedError extends Error {
  constructor(
    readonly key: string,
    /** What was seen, in words: "uncaught error in the worker", "no answer for 180 s while it was working …". */
    readonly detail: string,
  ) {
    super(`The worker for model ${key} crashed: ${detail}. Restart it with restart("${key}").`);
    this.name = 'WorkerCrashedError';
  }
}

/** Calls on a model that was unloaded (its worker terminated) reject with this. */
export class ModelUnloadedError extends Error {
  constructor(readonly key: string) {
    super(`The model ${key} was unloaded.`);
    this.name = 'ModelUnloadedError';
  }
}

/** The small reactive-free registry the shell's status bar reads. */
export class LoadedModels {
  private entries = new Map<string, LoadedModelEntry>();
  private listeners = new Set<(list: LoadedModelEntry[]) => void>();

  list(): LoadedModelEntry[] {
    return [...this.entries.values()].map((e) => ({ ...e }));
  }

  /** Calls fn now and on every change; returns the unsubscribe function. */
  subscribe(fn: (list: LoadedModelEntry[]) => void): () => void {
    this.listeners.add(fn);
    fn(this.list());
    return () => this.listeners.delete(fn);
  }

  set(entry: LoadedModelEntry): void {
    this.entries.set(entry.key, entry);
    this.emit();
  }

  patch(key: string, change: Partial<LoadedModelEntry>): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.set(key, { ...e, ...change });
    this.emit();
  }

  remove(key: string): void {
    if (this.entries.delete(key)) this.emit();
  }

  private emit(): void {
    const list = this.list();
    for (const fn of this.listeners) fn(list);
  }
}

export const loadedModels = new LoadedModels();

export interface ClientOptions {
  /** Creates the worker; tests or other bundlers may replace it. */
  spawn?: () => Worker;
  pingIntervalMs?: number;
  pingTimeoutMs?: number;
  /**
   * While a call is in flight the worker may be inside one long forward pass and unable to answer (a long prefill on
   * wasm), so it is taken as dead only when no ping has been answered for this long (default 180 s).
   */
  busyTimeoutMs?: number;
  registry?: LoadedModels;
}

const defaultSpawn = () => new Worker(new URL('../../workers/model.worker.ts', import.meta.url), { type: 'module' });

let counter = 0;

/** A model loaded in its own worker. Every call rejects with WorkerCrashedError once the worker has crashed. */
export class ModelHandle {
  private worker: Worker;
  private api: Comlink.Remote<ModelWorkerApi>;
  private inFlight = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private crashed: WorkerCrashedError | null = null;
  private unloaded = false;
  private crashWaiters = new Set<(e: Error) => void>();
  private pinging = false;
  /** When the worker last answered a ping (or was spawned). */
  private lastAnswer = Date.now();
  info: LoadResult | null = null;

  constructor(
    readonly key: string,
    readonly model: string,
    readonly options: LoadOptions,
    private readonly opts: Required<Omit<ClientOptions, 'registry'>> & { registry: LoadedModels },
    private readonly onCrash: (e: WorkerCrashedError) => void,
  ) {
    this.worker = opts.spawn();
    this.api = Comlink.wrap<ModelWorkerApi>(this.worker);
    this.worker.addEventListener('error', (ev) => {
      ev.preventDefault?.();
      this.crash((ev as ErrorEvent).message || 'uncaught error in the worker');
    });
    this.worker.addEventListener('messageerror', () => this.crash('a message could not be deserialised'));
    this.timer = setInterval(() => void this.ping(), opts.pingIntervalMs);
  }

  get isCrashed(): boolean {
    return this.crashed !== null;
  }

  private crash(detail: string): void {
    if (this.crashed) return;
    this.crashed = new WorkerCrashedError(this.key, detail);
    clearInterval(this.timer);
    this.worker.terminate();
    for (const w of this.crashWaiters) w(this.crashed);
    this.crashWaiters.clear();
    this.onCrash(this.crashed);
  }

  private async ping(): Promise<void> {
    if (this.crashed || this.unloaded || this.pinging) return;
    this.pinging = true;
    const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), this.opts.pingTimeoutMs));
    const answer = await Promise.race([this.api.ping().catch(() => 'error' as const), timeout]);
    this.pinging = false;
    if (answer === 'pong') {
      this.lastAnswer = Date.now();
      return;
    }
    if (this.inFlight === 0) return this.crash(answer === 'timeout' ? `no answer to a ping within ${this.opts.pingTimeoutMs} ms` : 'ping failed');
    // Busy: a long forward pass may keep the worker from answering, but not for ever.
    const silent = Date.now() - this.lastAnswer;
    if (silent >= this.opts.busyTimeoutMs)
      this.crash(`no answer for ${Math.round(silent / 1000)} s while it was working (the browser may have stopped it, for example for memory)`);
  }

  /** Test hook: stops the worker the way a browser kills one (for memory, say), with no event; liveness must notice. */
  killSilentlyForTest(): void {
    this.worker.terminate();
  }

  /** Runs a worker call; rejects with WorkerCrashedError if the worker dies meanwhile. */
  private call<T>(fn: (api: Comlink.Remote<ModelWorkerApi>) => Promise<T>): Promise<T> {
    if (this.unloaded) return Promise.reject(new ModelUnloadedError(this.key));
    if (this.crashed) return Promise.reject(this.crashed);
    this.inFlight++;
    let onCrash!: (e: Error) => void;
    const crashed = new Promise<never>((_, reject) => {
      onCrash = reject;
      this.crashWaiters.add(onCrash);
    });
    return Promise.race([fn(this.api), crashed]).finally(() => {
      this.inFlight--;
      this.crashWaiters.delete(onCrash);
    });
  }

  async load(onProgress?: (p: LoadProgress) => void): Promise<LoadResult> {
    this.info = await this.call((api) => api.load(this.model, this.options, onProgress ? Comlink.proxy(onProgress) : undefined));
    return this.info;
  }

  generate(options: GenerateOptions, onToken?: (textSoFar: string) => void): Promise<GenerateResult> {
    return this.call((api) => api.generate(options, onToken ? Comlink.proxy(onToken) : undefined));
  }

  generateSamples(requests: readonly SampleRequest[]): Promise<GenerateResult[][]> {
    return this.call((api) => api.generateSamples(requests));
  }

  chat(agentId: string, userContent: string, options?: Omit<GenerateOptions, 'messages' | 'prompt'>): Promise<GenerateResult> {
    return this.call((api) => api.chat(agentId, userContent, options));
  }

  setConversation(agentId: string, messages: ChatMessage[]): Promise<void> {
    return this.call((api) => api.setConversation(agentId, messages));
  }

  getConversation(agentId: string): Promise<ChatMessage[]> {
    return this.call((api) => api.getConversation(agentId));
  }

  encode(prompts: string[], options?: EncodeOptions): Promise<EncodeResult> {
    return this.call((api) => api.encode(prompts, options));
  }

  scoreText(context: string, text: string): Promise<ScoreResult> {
    return this.call((api) => api.scoreText(context, text));
  }

  /** Asks a running generate() to stop at the next token (it resolves with finishReason 'cancelled'). */
  cancel(): Promise<void> {
    if (this.crashed || this.unloaded) return Promise.resolve();
    return this.api.cancel();
  }

  /** Terminates the worker (frees the model and its GPU memory). */
  terminate(): void {
    clearInterval(this.timer);
    this.unloaded = true;
    for (const w of this.crashWaiters) w(new ModelUnloadedError(this.key));
    this.crashWaiters.clear();
    this.api[Comlink.releaseProxy]();
    this.worker.terminate();
  }
}

/** Spawns a worker per model and tracks them in `loadedModels`. */
export class ModelClient {
  private handleMap = new Map<string, ModelHandle>();
  /** Loads under way, by key, so that a page can stop one (cancelLoad). */
  private loading = new Map<string, AbortController>();
  private readonly opts: Required<Omit<ClientOptions, 'registry'>> & { registry: LoadedModels };

  constructor(options: ClientOptions = {}) {
    this.opts = {
      spawn: options.spawn ?? defaultSpawn,
      pingIntervalMs: options.pingIntervalMs ?? 10_000,
      pingTimeoutMs: options.pingTimeoutMs ?? 20_000,
      busyTimeoutMs: options.busyTimeoutMs ?? 180_000,
      registry: options.registry ?? loadedModels,
    };
  }

  get registry(): LoadedModels {
    return this.opts.registry;
  }

  /** Liveness timings for workers spawned from now on (tests shorten them to see a dead worker quickly). */
  setLiveness(timings: Partial<Pick<ClientOptions, 'pingIntervalMs' | 'pingTimeoutMs' | 'busyTimeoutMs'>>): void {
    Object.assign(this.opts, timings);
  }

  /**
   * Loads a model in a new worker. Rejects (and terminates the worker) if loading fails. Aborting `signal`, or
   * `cancelLoad(key)`, stops a load under way (a slow download, say): the worker is terminated, which stops its
   * fetches, nothing is kept in the registry, and the load rejects with CancelledError.
   */
  async load(
    model: string,
    options: LoadOptions = {},
    onProgress?: (p: LoadProgress) => void,
    key = `${model}#${++counter}`,
    signal?: AbortSignal,
  ): Promise<ModelHandle> {
    const reg = this.opts.registry;
    const handle = new ModelHandle(key, model, options, this.opts, (e) => reg.patch(key, { status: 'crashed', error: e.message }));
    this.handleMap.set(key, handle);
    reg.set({ key, model, status: 'loading' });
    const stop = new AbortController();
    this.loading.set(key, stop);
    const stopped = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    let onAbort = () => {};
    const cancelled = new Promise<never>((_, reject) => {
      onAbort = () => reject(new CancelledError());
      if (stopped.aborted) onAbort();
      else stopped.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const info = await Promise.race([
        handle.load((p) => {
          reg.patch(key, { progress: p });
          onProgress?.(p);
        }),
        cancelled,
      ]);
      reg.patch(key, { status: 'ready', id: info.id, backend: info.backend, dtype: info.dtype, info, progress: undefined });
      return handle;
    } catch (e) {
      handle.terminate();
      this.handleMap.delete(key);
      if (isCancelledError(e)) reg.remove(key);
      else reg.patch(key, { status: 'failed', error: (e as Error).message });
      throw e;
    } finally {
      stopped.removeEventListener('abort', onAbort);
      this.loading.delete(key);
    }
  }

  /** Stops the load of `key` if it is still under way (see load); false when there is none. */
  cancelLoad(key: string): boolean {
    const stop = this.loading.get(key);
    stop?.abort();
    return Boolean(stop);
  }

  get(key: string): ModelHandle | undefined {
    return this.handleMap.get(key);
  }

  /** Every handle this client holds (loaded, or crashed and not yet restarted). */
  handles(): ModelHandle[] {
    return [...this.handleMap.values()];
  }

  /** Terminates the crashed (or any) worker for `key` and loads the same model with the same options again. */
  async restart(key: string, onProgress?: (p: LoadProgress) => void): Promise<ModelHandle> {
    const old = this.handleMap.get(key);
    if (!old) throw new Error(`No model with key ${key}.`);
    old.terminate();
    this.handleMap.delete(key);
    return this.load(old.model, old.options, onProgress, key);
  }

  /** Terminates the model's worker and forgets it. */
  unload(key: string): void {
    this.handleMap.get(key)?.terminate();
    this.handleMap.delete(key);
    this.opts.registry.remove(key);
  }

  unloadAll(): void {
    for (const key of [...this.handleMap.keys()]) this.unload(key);
  }
}

/**
 * Mirrors the ready models into a plain `{list}` holder (for instance a Svelte `$state` object the status bar reads):
 * `bindLoadedModels(loadedModelsState)`. Returns the unsubscribe function.
 */
export function bindLoadedModels(target: { list: { id: string; backend: string; dtype: string }[] }, registry: LoadedModels = loadedModels): () => void {
  return registry.subscribe((entries) => {
    target.list = entries.filter((e) => e.status === 'ready' && e.id && e.backend && e.dtype).map((e) => ({ id: e.id!, backend: e.backend!, dtype: e.dtype! }));
  });
}
