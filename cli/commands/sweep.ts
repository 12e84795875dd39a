import { describeSampling } from '../../src/core/runs/sampling-record.ts';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Queue } from 'bullmq';
import { CliUsageError, type CliCommand, type CliContext } from '../command.ts';
import { readConfigInput } from '../config-input.ts';
import type { ParsedConfig } from '../../src/core/config/lab-definition.ts';
import { openLabByName } from '../../src/labs/registry.ts';
import { planJobs } from '../../src/core/runs/jobs.ts';
import { runHeadless } from '../../src/core/runs/headless.ts';
import { writeBundle } from '../../src/core/runs/bundle.ts';
import { newRunId } from '../../src/core/runs/types.ts';
import { syncDir, writeErrorCause, writeWhole } from '../atomic-file.ts';
import { bullConnection, isUnreachable, openRedis, redisUrl } from '../sweep/connection.ts';
import { EpisodeStoreError, loadEpisode, storeDirFor } from '../sweep/episode-store.ts';
import { readStudy, saveStudy, StudyError } from '../sweep/studies.ts';
import { formatStatus, studyStatus } from '../sweep/status.ts';
import { codeVersion, configHash, jobIdOf, queueName, STUDY_FORMAT, studyKeys, type Study, type SweepJobData } from '../sweep/study.ts';
import { runSweepWorker } from '../sweep/worker.ts';
import { previewResults } from './run.ts';
import { wholeNumberOption } from './analysis-io.ts';

/** Episode tensors up to this size go into Redis (the embedded models' are a few hundred kB); larger ones to --store. */
const DEFAULT_INLINE_MAX = 1 << 20;
/** Each job is tried this many times (a crash, an error) before it is marked failed; `sweep retry` puts it back. */
const ATTEMPTS = 3;

const SUBCOMMANDS = ['submit', 'worker', 'status', 'collect', 'retry'] as const;

export const sweepCommand: CliCommand = {
  name: 'sweep',
  summary: 'Run a study on many machines: jobs on a Redis queue (BullMQ), workers anywhere, one bundle at the end.',
  usage: [
    'npm run lab -- sweep submit <link | config.json> --redis redis://host:port [--name study] [--block N] [--store dir] [--inline-max bytes] [--json]',
    '       npm run lab -- sweep worker --redis redis://host:port [--device cpu|wasm] [--dtype fp32|q4] [--concurrency N] [--store dir] [--lock-ms ms]',
    '       npm run lab -- sweep status <study> --redis redis://host:port [--json]',
    '       npm run lab -- sweep collect <study> --redis redis://host:port --out <dir> [--store dir] [--json]',
    '       npm run lab -- sweep retry <study> --redis redis://host:port',
    'See docs/sweeps.md ("Running a study on many machines").',
  ].join('\n'),
  options: {
    redis: { type: 'string' },
    name: { type: 'string' },
    block: { type: 'string' },
    store: { type: 'string' },
    'inline-max': { type: 'string' },
    device: { type: 'string' },
    dtype: { type: 'string' },
    concurrency: { type: 'string' },
    'lock-ms': { type: 'string' },
    out: { type: 'string' },
  },
  async run(ctx) {
    const [sub, ...rest] = ctx.positionals;
    if (!SUBCOMMANDS.includes(sub as (typeof SUBCOMMANDS)[number])) throw new CliUsageError(`say what to do: ${SUBCOMMANDS.join(', ')}`);
    const url = redisUrl(ctx.values.redis);
    try {
      if (sub === 'worker') return await worker(ctx, url);
      if (sub === 'submit') return await submit(ctx, url, rest[0]);
      if (!rest[0]) throw new CliUsageError(`sweep ${sub} needs the study id that sweep submit printed`);
      if (sub === 'status') return await status(ctx, url, rest[0]);
      if (sub === 'collect') return await collect(ctx, url, rest[0]);
      return await retry(ctx, url, rest[0]);
    } catch (e) {
      if (e instanceof StudyError || e instanceof EpisodeStoreError) throw new CliUsageError(e.message);
      if (isUnreachable(e)) throw new Error(`cannot reach Redis at ${url} (${(e as Error).message}); is redis-server running there?`);
      throw e;
    }
  },
};

/** Opens Redis and the study's queue, runs `fn`, and closes both whatever happens. */
async function withStudyQueue<T>(url: string, id: string, fn: (redis: ReturnType<typeof openRedis>, queue: Queue, study: Study) => Promise<T>): Promise<T> {
  const redis = openRedis(url);
  let queue: Queue | null = null;
  try {
    const study = await readStudy(redis, id);
    queue = new Queue(queueName(study.codeVersion), { connection: bullConnection(url) });
    return await fn(redis, queue, study);
  } finally {
    await queue?.close();
    redis.disconnect();
  }
}

async function submit({ values, json, out }: CliContext, url: string, input: string | undefined): Promise<number> {
  const { def, config } = readConfigInput(input);
  const lab = openLabByName(def.name);
  const plan = lab.plan(config);
  if (plan.unavailable) throw new CliUsageError(plan.unavailable);
  if (!plan.episodes) throw new CliUsageError('this config has no episodes to run');
  const jobs = planJobs(plan.episodes, { block: wholeNumberOption(values.block, 'block', 1, 1), chainLength: plan.chainLength });
  const now = new Date();
  const version = codeVersion();
  const runtime = ((config as { runtime?: { device?: string; dtype?: string } }).runtime ?? {}) as Study['runtime'];
  const study: Study = {
    format: STUDY_FORMAT,
    id: newRunId(now.getTime()),
    name: typeof values.name === 'string' ? values.name.slice(0, 200) : '',
    lab: def.name,
    v: def.version,
    config: JSON.parse(JSON.stringify(config)) as ParsedConfig,
    configHash: '',
    codeVersion: version,
    episodes: plan.episodes,
    jobs: jobs.length,
    ...(plan.chainLength ? { chainLength: plan.chainLength } : {}),
    inlineMax: wholeNumberOption(values['inline-max'], 'inline-max', 0, DEFAULT_INLINE_MAX),
    store: typeof values.store === 'string' ? resolve(values.store) : null,
    runtime: { ...(runtime.device ? { device: runtime.device } : {}), ...(runtime.dtype ? { dtype: runtime.dtype } : {}) },
    createdAt: now.toISOString(),
  };
  study.configHash = configHash(study.lab, study.v, study.config);
  const redis = openRedis(url);
  const queue = new Queue(queueName(version), { connection: bullConnection(url) });
  try {
    await saveStudy(redis, study);
    const data = (indices: number[]): SweepJobData => ({ study: study.id, configHash: study.configHash, codeVersion: version, indices });
    for (let k = 0; k < jobs.length; k += 500) {
      await queue.addBulk(
        jobs.slice(k, k + 500).map((indices, i) => ({
          name: 'episodes',
          data: data(indices),
          opts: {
            jobId: jobIdOf(study.id, k + i),
            attempts: ATTEMPTS,
            backoff: { type: 'exponential', delay: 1000 },
            removeOnComplete: false,
            removeOnFail: false,
          },
        })),
      );
    }
  } finally {
    await queue.close();
    redis.disconnect();
  }
  if (json) out(JSON.stringify({ study: study.id, episodes: study.episodes, jobs: study.jobs, codeVersion: version }));
  else
    out(
      `${study.id}\nsubmitted ${study.episodes} episodes of ${study.lab} in ${study.jobs} jobs (code version ${version}); start workers with: npm run lab -- sweep worker --redis ${url}`,
    );
  return 0;
}

async function worker({ values, err }: CliContext, url: string): Promise<number> {
  const device = values.device as string | undefined;
  if (device !== undefined && device !== 'cpu' && device !== 'wasm') throw new CliUsageError('--device must be cpu or wasm (webgpu runs in the page)');
  const abort = new AbortController();
  const stop = () => {
    abort.abort();
    process.once('SIGINT', () => process.exit(130));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await runSweepWorker({
    redis: url,
    device,
    dtype: values.dtype as string | undefined,
    concurrency: wholeNumberOption(values.concurrency, 'concurrency', 1, 1),
    store: values.store as string | undefined,
    lockMs: wholeNumberOption(values['lock-ms'], 'lock-ms', 1000, 30_000),
    log: err,
    signal: abort.signal,
  });
  return 0;
}

async function status({ json, out }: CliContext, url: string, id: string): Promise<number> {
  const s = await withStudyQueue(url, id, (redis, queue, study) => studyStatus(redis, queue, study));
  out(json ? JSON.stringify(s, null, 1) : formatStatus(s));
  return 0;
}

async function collect({ values, json, out, err }: CliContext, url: string, id: string): Promise<number> {
  const outDir = values.out;
  if (typeof outDir !== 'string' || !outDir) throw new CliUsageError('--out <dir> is required');
  return withStudyQueue(url, id, async (redis, _queue, study) => {
    const done = await redis.hlen(studyKeys(study.id).records);
    if (done < study.episodes) {
      err(`study ${study.id} has ${done} of ${study.episodes} episodes stored; collect it when it has finished (sweep status ${study.id} shows progress).`);
      return 1;
    }
    const storeDir = storeDirFor(study, typeof values.store === 'string' ? resolve(values.store) : undefined);
    const loaded = [];
    for (let i = 0; i < study.episodes; i++) loaded.push(await loadEpisode(redis, study, i, storeDir));
    const backends = new Set(loaded.map((l) => `${l.stored.backend}/${l.stored.dtype}`));
    if (backends.size > 1) err(`note: the workers ran on different backends (${[...backends].join(', ')}); the bundle names the first`);
    const samplings = new Set(loaded.map((l) => describeSampling(l.stored.sampling ?? []) || 'no cut'));
    if (samplings.size > 1) err(`note: the workers' models asked for different sampling (${[...samplings].join(' / ')}); the bundle records the first`);
    const lab = openLabByName(study.lab);
    const started = performance.now();
    const bundle = await runHeadless(lab.definition, lab, lab.parse(study.config), {
      resume: { episodes: loaded.map((l) => l.episode), id: study.id, createdAt: study.createdAt },
      backend: loaded[0].stored.backend,
      dtype: loaded[0].stored.dtype,
      sampling: loaded[0].stored.sampling,
    });
    const file = join(outDir, `${study.id}.zip`);
    try {
      mkdirSync(outDir, { recursive: true });
      writeWhole(file, writeBundle(bundle));
      syncDir(outDir);
    } catch (e) {
      err(`could not write ${file}: ${writeErrorCause(e)}. The study's episodes stay stored; collect again when there is room.`);
      return 1;
    }
    const seconds = (performance.now() - started) / 1000;
    if (json) out(JSON.stringify({ file, study: study.id, lab: study.lab, episodes: bundle.episodes.length, seconds, results: bundle.results }, null, 2));
    else out(`wrote ${file}\n${bundle.episodes.length} episodes, analysed in ${seconds.toFixed(1)} s\n${previewResults(bundle.results)}`);
    return 0;
  });
}

async function retry({ out }: CliContext, url: string, id: string): Promise<number> {
  return withStudyQueue(url, id, async (_redis, queue, study) => {
    let n = 0;
    for (let k = 0; k < study.jobs; k++) {
      const job = await queue.getJob(jobIdOf(study.id, k));
      if (job && (await job.isFailed())) {
        await job.retry('failed');
        n++;
      }
    }
    out(n ? `put ${n} failed job(s) of ${study.id} back in the queue` : `study ${study.id} has no failed jobs`);
    return 0;
  });
}
