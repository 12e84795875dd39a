/**
 * A sweep worker (docs/sweeps.md): takes jobs from its code version's BullMQ queue and runs their episodes with the
 * same runner as `npm run lab -- run`, each seeded by the run seed and its index, so the episodes equal a
 * single-process run's. Each finished episode is stored at once (episode-store.ts): a worker killed mid-job loses
 * only the episode under way; BullMQ's stalled-job check hands the job to another worker, which skips the stored
 * episodes.
 */
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import { openLabByName } from '../../src/labs/registry.ts';
import type { OpenLab } from '../../src/labs/lab-module.ts';
import { needsPrevious } from '../../src/core/runs/jobs.ts';
import { episodeRng, runSeed } from '../../src/core/runs/runner.ts';
import type { Episode } from '../../src/core/runs/types.ts';
import { samplingOf } from '../../src/core/runs/sampling-record.ts';
import { loadRunModels } from '../run-models.ts';
import { bullConnection, openRedis } from './connection.ts';
import { loadEpisode, saveEpisode, storeDirFor, storedAmong } from './episode-store.ts';
import { listStudyIds, readStudy } from './studies.ts';
import { codeVersion, configHash, jobDataSchema, queueName, studyKeys, type Study } from './study.ts';
import type { ParsedConfig } from '../../src/core/config/lab-definition.ts';

export interface WorkerOptions {
  redis: string;
  device?: string;
  dtype?: string;
  concurrency: number;
  /** Where the shared store folder is mounted on this machine (default: the path the study was submitted with). */
  store?: string;
  /** BullMQ's lock: a job whose worker stops renewing it for this long is handed to another worker. */
  lockMs: number;
  log: (line: string) => void;
  /** Aborted: take no new job, finish the episodes under way, then close. */
  signal: AbortSignal;
}

/** What a worker reports in the study's workers hash (sweep status reads it). */
export interface WorkerStats {
  worker: string;
  version: string;
  startedAt: string;
  lastSeen: string;
  episodes: number;
  episodeSeconds: number;
  /** Set when this worker will not run the study: another code version submitted it. */
  refused?: string;
}

type LoadedModels = Awaited<ReturnType<typeof loadRunModels>>;

export async function runSweepWorker(opts: WorkerOptions): Promise<void> {
  // Listen at once: an abort that comes while the worker is still starting must stop it too.
  const stopped = new Promise<void>((done) => (opts.signal.aborted ? done() : opts.signal.addEventListener('abort', () => done(), { once: true })));
  const version = codeVersion();
  const workerId = `${hostname()}:${process.pid}`;
  const redis = openRedis(opts.redis, 'worker');
  let down = false;
  redis.on('error', (e: Error) => {
    if (!down) opts.log(`redis: ${e.message}; retrying (the episode under way goes on)`);
    down = true;
  });
  redis.on('ready', () => {
    if (down) opts.log('redis: connected again');
    down = false;
  });
  const storeOverride = opts.store ? resolve(opts.store) : undefined;
  const startedAt = new Date().toISOString();
  const stats = new Map<string, WorkerStats>();
  // The models stay loaded from job to job (and study to study) while the same ones on the same runtime are asked for.
  let models: { key: string; loaded: LoadedModels } | null = null;
  // A study record never changes after submission: each is read, checked and parsed once.
  const studies = new Map<string, { study: Study; lab: OpenLab; config: ParsedConfig; plan: ReturnType<OpenLab['plan']> }>();
  const studyById = async (id: string) => {
    let entry = studies.get(id);
    if (!entry) {
      const study = await readStudy(redis, id);
      if (study.codeVersion !== version)
        throw new UnrecoverableError(`refused: study ${id} was submitted from code version ${study.codeVersion}, and this worker is ${version}`);
      if (configHash(study.lab, study.v, study.config) !== study.configHash) {
        throw new UnrecoverableError(
          `refused: study ${id}'s config does not match its hash (${study.configHash.slice(0, 12)}): the study record was changed after it was submitted; submit the study again`,
        );
      }
      const lab = openLabByName(study.lab);
      const config = lab.parse(study.config);
      studies.set(id, (entry = { study, lab, config, plan: lab.plan(config) }));
    }
    return entry;
  };

  // Written at most once a second per study (and when the worker stops): status reads it for throughput and ETA.
  const lastReport = new Map<string, number>();
  async function report(study: Study, episodes: number, seconds: number, refused?: string) {
    const s = stats.get(study.id) ?? { worker: workerId, version, startedAt, lastSeen: startedAt, episodes: 0, episodeSeconds: 0 };
    s.episodes += episodes;
    s.episodeSeconds += seconds;
    s.lastSeen = new Date().toISOString();
    if (refused) s.refused = refused;
    stats.set(study.id, s);
    if (!refused && Date.now() - (lastReport.get(study.id) ?? 0) < 1000) return;
    lastReport.set(study.id, Date.now());
    await redis.hset(studyKeys(study.id).workers, workerId, JSON.stringify(s));
  }
  const flushReports = () => Promise.all([...stats].map(([id, s]) => redis.hset(studyKeys(id).workers, workerId, JSON.stringify(s))));

  const disposeModels = async () => {
    const m = models;
    models = null;
    await m?.loaded.dispose();
  };

  async function modelsFor(study: Study, plan: { models: string[] }): Promise<LoadedModels | null> {
    if (!plan.models.length) return null;
    const runtime = { device: opts.device ?? study.runtime.device, dtype: opts.dtype ?? study.runtime.dtype };
    const key = JSON.stringify([[...new Set(plan.models)].sort(), runtime.device ?? null, runtime.dtype ?? null]);
    if (models?.key === key) return models.loaded;
    await disposeModels();
    const loaded = await loadRunModels(plan.models, runtime, opts.log);
    models = { key, loaded };
    return loaded;
  }

  // Never aborted: a first Ctrl-C lets the episodes under way finish (worker.close waits for them), a second one exits.
  const never = new AbortController().signal;

  async function processJob(job: Job): Promise<{ ran: number; skipped: number }> {
    const parsed = jobDataSchema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`refused job ${job.id}: its data is not a sweep job of this version`);
    const data = parsed.data;
    const { study, lab, config, plan } = await studyById(data.study);
    if (data.codeVersion !== version)
      throw new UnrecoverableError(`refused job ${job.id}: it was made by code version ${data.codeVersion}, and this worker is ${version}`);
    if (data.configHash !== study.configHash)
      throw new UnrecoverableError(
        `refused job ${job.id}: it was made for config ${data.configHash.slice(0, 12)}, and study ${study.id} holds ${study.configHash.slice(0, 12)}; submit the study again`,
      );
    const loaded = await modelsFor(study, plan);
    const storeDir = storeDirFor(study, storeOverride) ?? null;
    const done = await storedAmong(redis, study, data.indices);
    let previous: Episode | undefined;
    let ran = 0;
    for (const index of data.indices) {
      if (done.has(index)) {
        previous = undefined;
        continue;
      }
      if (needsPrevious(index, study.chainLength) && previous?.index !== index - 1) previous = (await loadEpisode(redis, study, index - 1, storeDir)).episode;
      opts.log(`study ${study.id}: episode ${index + 1}/${study.episodes} started (job ${job.id})`);
      const t0 = performance.now();
      const ep = await lab.runEpisode(config, {
        index,
        rng: episodeRng(runSeed(config), index),
        signal: never,
        previous,
        progress: () => {},
        models: loaded?.models,
      });
      const seconds = (performance.now() - t0) / 1000;
      const stored = await saveEpisode(redis, study, ep, {
        worker: workerId,
        backend: loaded?.backend ?? null,
        dtype: loaded?.dtype ?? null,
        ...(loaded ? { sampling: samplingOf(plan.models, loaded.models) } : {}),
        seconds,
        storeDir,
      });
      opts.log(
        `study ${study.id}: episode ${index + 1}/${study.episodes} ${stored ? 'stored' : 'was stored by another worker first'} (${seconds.toFixed(2)} s)`,
      );
      await report(study, 1, seconds);
      previous = ep;
      ran++;
      if (data.indices.length > 1) await job.updateProgress(Math.round((100 * (data.indices.indexOf(index) + 1)) / data.indices.length));
    }
    return { ran, skipped: data.indices.length - ran };
  }

  /** Studies of another code version are never in this worker's queue; say so once each, where status shows it. */
  const warned = new Set<string>();
  async function lookForOtherVersions() {
    for (const id of await listStudyIds(redis)) {
      if (warned.has(id)) continue;
      let study: Study;
      try {
        study = await readStudy(redis, id);
      } catch {
        continue;
      }
      if (study.codeVersion === version) continue;
      if ((await redis.hlen(studyKeys(id).records)) >= study.episodes) continue;
      warned.add(id);
      const why = `this worker is code version ${version}, and study ${id}${study.name ? ` (${study.name})` : ''} was submitted from ${study.codeVersion}: its episodes would not equal a single-machine run's, so this worker refuses its jobs. Start its workers from the submitter's version.`;
      opts.log(`refused: ${why}`);
      await report(study, 0, 0, why);
    }
  }

  const worker = new Worker(queueName(version), processJob, {
    connection: bullConnection(opts.redis),
    concurrency: opts.concurrency,
    lockDuration: opts.lockMs,
    stalledInterval: opts.lockMs,
    // A job whose worker died is handed on up to this many times before it is failed.
    maxStalledCount: 3,
    autorun: false,
  });
  worker.on('failed', (job, e) => job && opts.log(`job ${job.id} failed (attempt ${job.attemptsMade} of ${job.opts.attempts ?? 1}): ${e.message}`));
  worker.on('error', (e) => opts.log(`worker: ${e.message}`));
  opts.log(`worker ${workerId} (code version ${version}) is taking jobs from ${queueName(version)}, ${opts.concurrency} at a time`);
  await lookForOtherVersions();
  const scan = setInterval(() => void lookForOtherVersions().catch(() => {}), 10_000);
  const running = worker.run();
  await stopped;
  clearInterval(scan);
  opts.log('stopping: no new jobs are taken; the episodes under way finish and are stored');
  await worker.close();
  await running;
  await flushReports();
  await disposeModels();
  redis.disconnect();
}
