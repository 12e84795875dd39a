import * as Comlink from 'comlink';
import type { Episode, RunMeta, RunResult } from '../core/runs/types';
import { newRunId } from '../core/runs/types';
import { staleResults } from '../core/runs/results';
import { openLabByName } from '../labs/registry';
import type { OpenLab } from '../labs/lab-module';
import { checkStorageFor, StorageFullError, type RunStore } from '../store/run-store';
import { WorkerCrashed, type WorkerHost } from './worker-host';
import type { ComputeWorkerApi } from '../../workers/compute.worker';
import { episodeRng } from '../core/runs/runner';
import { isCancelledError } from '../core/cancel';
import { WorkerCrashedError, type ModelClient } from '../runtime/client';
import type { RunnerModelSet } from '../runtime/runner-models';
import { ensureRunModels, type RunRuntime } from './run-models';
import { decoderParameters, episodeLanes, LaneProgress, MAX_LANES, runInLanes, type LanePlan } from '../core/runs/lanes';
import { wasmThreadCount } from '../runtime/threads';
import { runtimeOf, seedOf } from '../core/config/fields';
import { describeSampling, resumedSampling, samplingOf } from '../core/runs/sampling-record';
import type { ParsedConfig } from '../core/config/lab-definition';

const MAX_CRASH_RETRIES = 3;

/**
 * Drives one run at a time: each finished episode is stored before the next starts, and a crash or reload resumes
 * from the last stored episode. State is reactive for the views.
 *
 * Pure simulations run their episodes in the compute worker. LLM labs (a plan that names models) run their runner
 * here instead: it only builds prompts, awaits the model workers and parses answers, so the heavy work is still off
 * the main thread, and the runner needs no channel from the compute worker to each model worker.
 */
export class RunController {
  active = $state<RunMeta | null>(null);
  busy = $state(false);
  fraction = $state(0);
  note = $state<string | null>(null);
  error = $state<string | null>(null);
  /** The active run's episodes so far (raw: tensors are not made deeply reactive). */
  episodes = $state.raw<Episode[]>([]);
  /** Live text for LLM runs (the turn being generated, a load in progress). */
  live = $state<string | null>(null);
  /** Seconds left, from the pace since this loop started; null until an episode's worth of progress is seen. */
  etaSeconds = $derived.by(() => this.estimateEta(this.fraction));
  /** How many episodes the active run takes at a time, and why (null: a run without models). */
  lanes = $state<LanePlan | null>(null);
  /** The most lanes a run may take; tests set 1 to compare a run one episode at a time with a run in lanes. */
  maxLanes = MAX_LANES;
  private loopStart = { time: 0, fraction: 0 };
  private cancelRequested = false;
  private job = '';
  /** Stops the episodes that run here (LLM labs); a fresh one per run, so an old cancel never reaches a new run. */
  private abort = new AbortController();
  /** Each lane's copy of the run's models (lane 0 first); one lane unless the run's episodes can go side by side. */
  private laneModels: RunnerModelSet[] = [];
  private runtime: RunRuntime = {};
  private crashes = 0;

  constructor(
    private store: () => Promise<RunStore>,
    private host: WorkerHost<ComputeWorkerApi>,
    private modelClient?: ModelClient,
  ) {
    // A crash between episodes rejects nothing, but the user should still hear about it.
    host.on((e) => {
      if (e.kind === 'crashed' && !this.busy) this.note = `The compute worker crashed (${e.reason}). It was restarted.`;
    });
  }

  async start(lab: OpenLab, config: ParsedConfig): Promise<RunMeta | null> {
    const { definition: def } = lab;
    const plan = lab.plan(config);
    if (plan.unavailable) return this.fail(plan.unavailable);
    const space = await checkStorageFor(plan.bytesPerEpisode * plan.episodes);
    if (!space.ok) return this.fail(space.message);
    // eslint-disable-next-line svelte/prefer-svelte-reactivity -- formatted at once, the Date itself is never kept
    const now = new Date().toISOString();
    const meta: RunMeta = {
      id: newRunId(),
      lab: def.name,
      schemaVersion: def.version,
      config,
      seed: seedOf(config),
      backend: plan.models.length ? null : 'cpu (compute worker)',
      dtype: null,
      status: 'running',
      episodesDone: 0,
      episodesTotal: plan.episodes,
      createdAt: now,
      updatedAt: now,
      recordsVersion: lab.recordsVersion,
    };
    await (await this.store()).putRun(meta);
    void this.loop(meta);
    return meta;
  }

  async resume(runId: string): Promise<void> {
    const store = await this.store();
    const meta = await store.getRun(runId);
    if (!meta) return void this.fail(`Run ${runId} no longer exists.`);
    void this.loop(await store.updateRun(runId, { status: 'running', error: undefined }));
  }

  cancel() {
    if (!this.busy) return;
    this.cancelRequested = true;
    this.abort.abort();
    for (const models of this.laneModels) void models.cancelAll();
    const job = this.job;
    void this.host.call((api) => api.cancelEpisode(job));
  }

  private estimateEta(fraction: number): number | null {
    const { time, fraction: f0 } = this.loopStart;
    const done = fraction - f0;
    if (!this.busy || !time || done <= 0.01) return null;
    return ((performance.now() - time) / 1000 / done) * (1 - fraction);
  }

  private fail(message: string): null {
    this.error = message;
    return null;
  }

  private async loop(initial: RunMeta) {
    if (this.busy) return void this.fail('Another run is going; cancel it or wait for it to finish.');
    const store = await this.store();
    this.busy = true;
    this.cancelRequested = false;
    this.error = null;
    this.note = null;
    let meta = initial;
    this.active = meta;
    this.crashes = 0;
    const lab = openLabByName(meta.lab);
    this.abort = new AbortController();
    try {
      // Inside the try: a stored config that no longer parses fails the run instead of leaving the page busy.
      const modelIds = lab.plan(meta.config).models;
      let stored = meta.episodesDone ? await store.episodes(meta.id) : [];
      // A stored record that no longer fits the lab's schema (damaged in storage) is not read: that episode and the
      // ones after it (which may carry its state on) are run again from their seeds, so they come out as before.
      const damaged = lab.firstDamaged(stored);
      if (damaged) {
        const again = meta.episodesDone - damaged.index;
        meta = await store.truncateRun(meta.id, damaged.index);
        meta = await store.updateRun(meta.id, { status: 'running' });
        this.active = meta;
        stored = stored.slice(0, damaged.index);
        this.note = `A stored record of this run was damaged (${damaged.problem}). Episode ${damaged.index + 1}${again > 1 ? ` and the ${again - 1} after it are` : ' is'} run again from ${again > 1 ? 'their seeds' : 'its seed'}; the ${damaged.index} before it are kept.`;
      }
      // Models only when episodes remain: a run that stopped while its results were computed needs none.
      if (modelIds.length && meta.episodesDone < meta.episodesTotal) {
        meta = await this.loadModels(meta, modelIds);
        this.active = meta;
      }
      this.loopStart = { time: performance.now(), fraction: meta.episodesDone / Math.max(1, meta.episodesTotal) };
      this.episodes = stored;
      const chained = Boolean(lab.plan(meta.config).chainLength);
      this.lanes = modelIds.length && meta.episodesDone < meta.episodesTotal ? this.planLanes(chained) : null;
      let previous = stored[stored.length - 1];
      const progress = new LaneProgress(meta.episodesDone, meta.episodesTotal);
      try {
        await runInLanes<Episode>({
          from: meta.episodesDone,
          total: meta.episodesTotal,
          lanes: this.lanes?.lanes ?? 1,
          signal: this.abort.signal,
          prepare: async (lane) => {
            this.laneModels[lane] = await this.loadLane(modelIds, lane);
          },
          onLaneLost: (lane, e) => {
            this.note = `Lane ${lane + 1}'s copy of the models could not be loaded (${(e as Error).message}); the other lanes run its episodes.`;
          },
          run: async (index, lane, signal) => {
            progress.set(index, 0);
            const onProgress = (f: number, note?: string) => {
              progress.set(index, f);
              this.fraction = progress.fraction;
              if (note !== undefined) this.live = note;
            };
            // A stateful run's next episode reads the one before (one lane, so it is stored by now); others stand alone.
            const before = chained ? previous : undefined;
            let finished = false;
            try {
              const episode = await this.runWithRetries(meta, modelIds, index, lane, (models) =>
                models ? this.runHere(lab, meta, index, before, models, signal, onProgress) : this.runInComputeWorker(meta, index, before, onProgress),
              );
              finished = true;
              return episode;
            } finally {
              progress.end(index, finished);
              this.fraction = progress.fraction;
            }
          },
          store: async (_index, episode) => {
            meta = await store.appendEpisode(meta.id, episode);
            this.active = meta;
            this.episodes = [...this.episodes, episode];
            previous = episode;
          },
        });
      } catch (e) {
        if (this.cancelRequested || isCancelledError(e)) {
          meta = await store.updateRun(meta.id, { status: 'cancelled' });
          return;
        }
        throw e;
      }
      await this.storeResults(store, meta);
      meta = await store.updateRun(meta.id, { status: 'done' });
      this.fraction = 1;
    } catch (e) {
      // Cancel pressed while the models were still loading: the run is cancelled, not failed, and can be resumed.
      if (this.cancelRequested && isCancelledError(e)) {
        meta = await store.updateRun(meta.id, { status: 'cancelled' });
        return;
      }
      const message =
        e instanceof StorageFullError ? e.message : `The run stopped: ${(e as Error).message}. Stored episodes are kept; resume it from the run list.`;
      this.error = message;
      try {
        meta = await store.updateRun(meta.id, { status: e instanceof StorageFullError ? 'paused' : 'failed', error: message });
      } catch (statusError) {
        // Storage that stays full refuses this small write too: the run keeps its stored status ("running"), which
        // the run list shows as interrupted, with Resume. Say so instead of leaving an unhandled rejection.
        this.error = `${message} (Its status could not be saved either: ${(statusError as Error).message} The run list will show it as interrupted; resume it from there.)`;
      }
    } finally {
      this.active = meta;
      this.busy = false;
      this.live = null;
    }
  }

  /** The run's results, computed from its stored episodes in the compute worker, and stored. */
  private async storeResults(store: RunStore, meta: RunMeta): Promise<void> {
    const episodes = await store.episodes(meta.id);
    const results = await this.host.call((api) => api.summarize(meta.lab, meta.config, episodes));
    await store.replaceResults(meta.id, results, openLabByName(meta.lab).resultsVersion);
  }

  /**
   * A stored run's results, as its lab's views read them (through readResult, which parses each with its schema): a
   * finished run whose stored results were computed with other result shapes (an older version of the lab, or none
   * stored), or one of whose results does not parse with its lab's schema (damaged in storage), has them computed
   * again from its records first.
   */
  async currentResults(runId: string): Promise<RunResult[]> {
    const store = await this.store();
    const meta = await store.getRun(runId);
    if (!meta) throw new Error(`run ${runId} does not exist`);
    const stored = await store.results(runId);
    if (meta.status !== 'done' || staleResults(openLabByName(meta.lab).results, stored) === null) return stored;
    await this.storeResults(store, meta);
    return store.results(runId);
  }

  /**
   * Computes a finished run's results again from its records (an imported run: its results.json is not taken as it
   * is, since the records are what the bundle reader checked row by row). Runs beside an active run; it only uses the
   * compute worker.
   */
  async recomputeResults(runId: string): Promise<void> {
    const store = await this.store();
    const meta = await store.getRun(runId);
    if (!meta) throw new Error(`run ${runId} does not exist`);
    await this.storeResults(store, meta);
  }

  /**
   * How many episodes run at a time (src/core/runs/lanes.ts): more than one only for small models on wasm whose
   * episodes stand alone, one lane per core (or per thread group) that a model worker leaves idle.
   */
  private planLanes(chained: boolean): LanePlan {
    const models = this.laneModels[0]?.list() ?? [];
    const plan = episodeLanes({
      chained,
      backends: models.map((m) => m.backend),
      parameters: models.reduce((s, m) => s + decoderParameters(m.numLayers, m.hiddenSize), 0),
      cores: globalThis.navigator?.hardwareConcurrency ?? 1,
      threadsPerWorker: wasmThreadCount(),
    });
    return plan.lanes > this.maxLanes ? { lanes: this.maxLanes, why: `at most ${this.maxLanes} at a time (set by a test)` } : plan;
  }

  /**
   * Runs one episode; a model or compute worker that crashes under it is loaded again (that lane's only) and the
   * episode is run again from its seed, so it comes out as if nothing happened. Up to MAX_CRASH_RETRIES per run.
   */
  private async runWithRetries(
    meta: RunMeta,
    modelIds: string[],
    index: number,
    lane: number,
    run: (models: RunnerModelSet | null) => Promise<Episode>,
  ): Promise<Episode> {
    for (;;) {
      try {
        return await run(modelIds.length ? this.laneModels[lane] : null);
      } catch (e) {
        if (!(e instanceof WorkerCrashed || e instanceof WorkerCrashedError) || this.crashes >= MAX_CRASH_RETRIES || this.cancelRequested) throw e;
        this.crashes++;
        const what = e instanceof WorkerCrashedError ? `The worker of model ${e.key.split('#')[0]} crashed (${e.detail}); it was loaded again.` : e.message;
        this.note = `${what} Episode ${index + 1} of ${meta.episodesTotal} is run again from its seed.`;
        if (e instanceof WorkerCrashedError) this.laneModels[lane] = await this.loadLane(modelIds, lane);
      }
    }
  }

  /**
   * Lane `lane`'s copy of the run's models. Lane 0 reuses any loaded model of a compatible backend and dtype; every
   * other lane gets handles no other lane holds, on lane 0's very backend and dtype, so that its numbers are the same.
   */
  private async loadLane(ids: string[], lane: number): Promise<RunnerModelSet> {
    if (!this.modelClient) throw new Error('This page has no model client, so LLM labs cannot run here.');
    const taken = this.laneModels.flatMap((m, k) => (k === lane || !m ? [] : m.keys));
    const first = this.laneModels[0];
    const runtime = (id: string): RunRuntime => {
      if (lane === 0 || !first) return this.runtime;
      const m = first.get(id);
      return { device: m.backend, dtype: m.dtype };
    };
    // The run's Cancel stops a load under way too (a slow download): its worker is terminated.
    const note = (text: string) => (this.live = lane ? `Lane ${lane + 1}: ${text}` : text);
    const set = await ensureRunModels(this.modelClient, ids, runtime, note, taken, this.abort.signal);
    if (lane === 0) this.live = null;
    return set;
  }

  /** Lane 0's models for a run (loaded, or reused), and the run's metadata saying which backend and dtype they got. */
  private async loadModels(meta: RunMeta, ids: string[]): Promise<RunMeta> {
    this.runtime = runtimeOf(meta.config);
    this.laneModels = [];
    this.laneModels[0] = await this.loadLane(ids, 0);
    const { backend, dtype } = this.laneModels[0].describe();
    // A resumed run whose models now ask for another sampling than its record says gets both, each from its episode.
    const sampling = resumedSampling(meta.sampling, samplingOf(ids, this.laneModels[0]), meta.episodesDone);
    const added = meta.episodesDone ? sampling.filter((r) => r.fromEpisode === meta.episodesDone) : [];
    if (meta.sampling && added.length)
      this.note = `The models now ask for other sampling than this run had: ${describeSampling(added)}. The run's record keeps both.`;
    return (await this.store()).updateRun(meta.id, { backend, dtype, sampling });
  }

  private runHere(
    lab: OpenLab,
    meta: RunMeta,
    index: number,
    previous: Episode | undefined,
    models: RunnerModelSet,
    signal: AbortSignal,
    onProgress: (f: number, note?: string) => void,
  ): Promise<Episode> {
    return lab.runEpisode(meta.config, { index, rng: episodeRng(meta.seed, index), previous, signal, progress: onProgress, models });
  }

  /** A pure simulation's episode, in the compute worker; its cancel goes there as a message naming the job. */
  private runInComputeWorker(meta: RunMeta, index: number, previous: Episode | undefined, onProgress: (f: number, note?: string) => void): Promise<Episode> {
    const job = (this.job = `${meta.id}#${index}`);
    return this.host.call((api) => api.runEpisode(job, meta.lab, meta.config, meta.seed, index, previous, Comlink.proxy(onProgress)));
  }
}
