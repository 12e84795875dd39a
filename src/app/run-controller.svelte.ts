import * as Comlink from 'comlink';
import type { LabDefinition } from '../core/config/lab-definition';
import type { Episode, RunMeta } from '../core/runs/types';
import { newRunId } from '../core/runs/types';
import { RUNNERS } from '../labs/runners';
import { checkStorageFor, StorageFullError, type RunStore } from '../store/run-store';
import { WorkerCrashed, type WorkerHost } from './worker-host';
import type { ComputeWorkerApi } from '../../workers/compute.worker';

const MAX_CRASH_RETRIES = 3;

/**
 * Drives one run at a time: episodes execute in the compute worker, each finished episode is stored before the
 * next starts, and a crash or reload resumes from the last stored episode. State is reactive for the views.
 */
export class RunController {
  active = $state<RunMeta | null>(null);
  busy = $state(false);
  fraction = $state(0);
  note = $state<string | null>(null);
  error = $state<string | null>(null);
  /** The active run's episodes so far (raw: tensors are not made deeply reactive). */
  episodes = $state.raw<Episode[]>([]);
  private cancelRequested = false;
  private job = '';

  constructor(
    private store: () => Promise<RunStore>,
    private host: WorkerHost<ComputeWorkerApi>,
  ) {
    // A crash between episodes rejects nothing, but the user should still hear about it.
    host.on((e) => {
      if (e.kind === 'crashed' && !this.busy) this.note = `The compute worker crashed (${e.reason}). It was restarted.`;
    });
  }

  async start(def: LabDefinition, config: Record<string, unknown>): Promise<RunMeta | null> {
    const runner = RUNNERS[def.name];
    if (!runner) return this.fail(`The ${def.title} lab cannot run in this build yet.`);
    const plan = runner.plan(config as never);
    if (plan.unavailable) return this.fail(plan.unavailable);
    const space = await checkStorageFor(plan.bytesPerEpisode * plan.episodes);
    if (!space.ok) return this.fail(space.message);
    const now = new Date().toISOString();
    const meta: RunMeta = {
      id: newRunId(),
      lab: def.name,
      schemaVersion: def.version,
      config,
      seed: Number(config.seed ?? 0),
      backend: plan.models.length ? null : 'cpu (compute worker)',
      dtype: null,
      status: 'running',
      episodesDone: 0,
      episodesTotal: plan.episodes,
      createdAt: now,
      updatedAt: now,
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
    const job = this.job;
    void this.host.call((api) => api.cancelEpisode(job));
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
    let crashes = 0;
    try {
      const stored = meta.episodesDone ? await store.episodes(meta.id) : [];
      this.episodes = stored;
      let previous = stored[stored.length - 1];
      while (meta.episodesDone < meta.episodesTotal) {
        if (this.cancelRequested) {
          meta = await store.updateRun(meta.id, { status: 'cancelled' });
          return;
        }
        const index = meta.episodesDone;
        this.job = `${meta.id}#${index}`;
        this.fraction = index / meta.episodesTotal;
        let episode: Episode;
        try {
          const job = this.job;
          const total = meta.episodesTotal;
          episode = await this.host.call((api) =>
            api.runEpisode(job, meta.lab, meta.config, index, previous, Comlink.proxy((f: number) => (this.fraction = (index + f) / total))),
          );
        } catch (e) {
          if (e instanceof WorkerCrashed && crashes < MAX_CRASH_RETRIES) {
            crashes++;
            this.note = `${e.message} Resuming from episode ${index + 1} of ${meta.episodesTotal}.`;
            continue;
          }
          if (this.cancelRequested || /cancelled/.test(String((e as Error).message))) {
            meta = await store.updateRun(meta.id, { status: 'cancelled' });
            return;
          }
          throw e;
        }
        meta = await store.appendEpisode(meta.id, episode);
        this.active = meta;
        this.episodes = [...this.episodes, episode];
        previous = episode;
      }
      const episodes = await store.episodes(meta.id);
      const results = await this.host.call((api) => api.summarize(meta.lab, meta.config, episodes));
      for (const r of results) await store.putResult(meta.id, r.name, r.value);
      meta = await store.updateRun(meta.id, { status: 'done' });
      this.fraction = 1;
    } catch (e) {
      const message = e instanceof StorageFullError ? e.message : `The run stopped: ${(e as Error).message}. Stored episodes are kept; resume it from the run list.`;
      this.error = message;
      meta = await store.updateRun(meta.id, { status: e instanceof StorageFullError ? 'paused' : 'failed', error: message });
    } finally {
      this.active = meta;
      this.busy = false;
    }
  }
}
