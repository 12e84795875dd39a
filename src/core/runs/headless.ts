import type { LabDefinition, ParsedConfig } from '../config/lab-definition';
import { episodeRng, runSeed, type LabRunner } from './runner';
import { runInLanes } from './lanes';
import type { RunBundle } from './bundle';
import type { RunnerModels } from './models';
import { resumedSampling, samplingOf, type ModelSamplingRecord } from './sampling-record';
import { newRunId, type Episode, type RunMeta, type StoredRecord } from './types';

export interface HeadlessOptions<R extends StoredRecord = StoredRecord> {
  /** Aborted to stop the run: it rejects with CancelledError before the next episode or inside the current one. */
  signal?: AbortSignal;
  onEpisode?(done: number, total: number): void;
  onProgress?(episode: number, fraction: number): void;
  now?: () => Date;
  /** Loaded models for runners that need them (the plan names them). */
  models?: RunnerModels;
  /** "cpu/fp32"-style description of the models' backend and dtype, for the run's metadata. */
  backend?: string | null;
  dtype?: string | null;
  /**
   * The run's record of its models' own sampling where the caller keeps one (a sweep's collect: the workers stored it;
   * the CLI's durable run: its partial folder does); else it is asked of `models` (a resumed run's earlier episodes
   * then count as unknown: resumedSampling).
   */
  sampling?: ModelSamplingRecord[];
  /**
   * A resumed run: the episodes finished before (indices 0..k-1, in order), and the run's id and start time, so
   * that the bundle equals an uninterrupted run's (episodes are seeded by index, so the rest repeat exactly).
   */
  resume?: { episodes: readonly Episode<R>[]; id: string; createdAt: string };
  /** Called with each finished episode before the next one starts (the CLI saves it to disk here). */
  onEpisodeDone?(episode: Episode<R>): void | Promise<void>;
}

/**
 * Runs a whole config without a UI or a store, in order, and returns the same bundle the UI exports. The CLI uses
 * it (with a lab opened from the registry, whose runner parses the config first). It and the page's run controller
 * share one engine, `runInLanes` (src/core/runs/lanes.ts): the page runs independent episodes in several lanes.
 */
export async function runHeadless<C extends ParsedConfig, R extends StoredRecord>(
  def: LabDefinition,
  // An opened lab carries its records and results versions, which the bundle then records; a bare runner (a test)
  // leaves them out, and such a bundle's records are read as the current version, its results by their shape.
  runner: LabRunner<C, R> & { recordsVersion?: number; resultsVersion?: number },
  config: C,
  opts: HeadlessOptions<R> = {},
): Promise<RunBundle<R>> {
  const plan = runner.plan(config);
  if (plan.unavailable) throw new Error(plan.unavailable);
  const now = opts.now ?? (() => new Date());
  const seed = runSeed(config);
  const episodes: Episode<R>[] = [...(opts.resume?.episodes ?? [])];
  episodes.forEach((e, i) => {
    if (e.index !== i) throw new Error(`a resumed run needs episodes 0..${episodes.length - 1} in order; found ${e.index} at ${i}`);
  });
  // Runners always get a signal; without the caller's, one that is never aborted.
  const signal = opts.signal ?? new AbortController().signal;
  // The page's engine, on one lane: in Node the model runtime already uses every core, and a sweep spreads episodes
  // over processes and machines instead.
  await runInLanes<Episode<R>>({
    from: episodes.length,
    total: plan.episodes,
    lanes: 1,
    signal,
    prepare: async () => undefined,
    run: (index, _lane, laneSignal) =>
      runner.runEpisode(config, {
        index,
        rng: episodeRng(seed, index),
        signal: laneSignal,
        previous: episodes[index - 1],
        progress: (f) => opts.onProgress?.(index, f),
        models: opts.models,
      }),
    store: async (index, ep) => {
      episodes.push(ep);
      await opts.onEpisodeDone?.(ep);
      opts.onEpisode?.(index + 1, plan.episodes);
    },
  });
  const stamp = now().toISOString();
  const meta: RunMeta = {
    id: opts.resume?.id ?? newRunId(now().getTime()),
    lab: def.name,
    schemaVersion: def.version,
    config,
    seed,
    backend: plan.models.length ? (opts.backend ?? null) : 'cpu',
    dtype: plan.models.length ? (opts.dtype ?? null) : null,
    status: 'done',
    episodesDone: episodes.length,
    episodesTotal: plan.episodes,
    createdAt: opts.resume?.createdAt ?? stamp,
    updatedAt: stamp,
    ...(runner.recordsVersion !== undefined ? { recordsVersion: runner.recordsVersion } : {}),
    ...(plan.models.length ? samplingEntry(plan.models, opts) : {}),
  };
  const version = runner.resultsVersion;
  const results = (await runner.summarize(config, episodes)).map((r) => ({ ...r, updatedAt: stamp, ...(version !== undefined ? { version } : {}) }));
  return { meta, episodes, results };
}

/** The `sampling` field of a headless run's metadata: the caller's record, else what its models ask for now. */
function samplingEntry(ids: string[], opts: HeadlessOptions<StoredRecord>): { sampling?: ModelSamplingRecord[] } {
  if (opts.sampling) return { sampling: opts.sampling };
  if (!opts.models) return {};
  return { sampling: resumedSampling(undefined, samplingOf(ids, opts.models), opts.resume?.episodes.length ?? 0) };
}
