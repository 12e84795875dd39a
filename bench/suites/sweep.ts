/**
 * Sweeps on a Redis queue (docs/sweeps.md): episodes per second on the embedded model with one process, and with 1
 * and 2 sweep workers (separate processes, a real redis-server on loopback); and the queue's overhead per job,
 * measured with an in-process worker on near-empty episodes (wall time minus the episodes' own time).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BenchSuite } from '../run.ts';
import { LocalRedis } from '../../test/support/redis-server.ts';
import { listScenarios } from '../../src/labs/synchrony/scenarios/index.ts';
import { runEnvelopeInProcess } from '../../cli/run-models.ts';
import { runSweepWorker, type WorkerStats } from '../../cli/sweep/worker.ts';
import { main } from '../../cli/main.ts';
import { openRedis } from '../../cli/sweep/connection.ts';
import { studyKeys } from '../../cli/sweep/study.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const NODE = [process.execPath, '--import', 'tsx', join(ROOT, 'cli/main.ts')];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const EPISODES = 24;
const synchrony = {
  lab: 'synchrony',
  config: {
    seed: 21,
    pairs: [{ a: 'tiny-social', b: 'tiny-social' }],
    scenarios: listScenarios()
      .slice(0, 3)
      .map((s) => s.id),
    episodeSeeds: [0, 1, 2, 3, 4, 5, 6, 7],
    bothOrders: false,
    maxUtterancesPerAgent: 3,
    maxNewTokens: 24,
  },
};
const OVERHEAD_JOBS = 256;
// Near-empty episodes: a kinetic Ising replica of 5 steps on 32 agents.
const tiny = { lab: 'opinions', config: { seed: 1, graph: { generator: 'random', agents: 32 }, dynamics: { steps: 5, replicas: OVERHEAD_JOBS } } };

/** Runs the CLI in this process and returns what it printed. */
async function cli(args: string[]): Promise<string> {
  let out = '';
  const code = await main(args, { out: (t) => (out += t), err: (t) => process.stderr.write(t) });
  if (code !== 0) throw new Error(`lab ${args.join(' ')} exited ${code}`);
  return out;
}

/** The same study in one process, models loaded before the clock starts. */
async function singleProcess(): Promise<number> {
  return (await runEnvelopeInProcess(synchrony)).runSeconds;
}

/** Polls with an async client: a redis-cli child per poll would block this process's event loop, where a worker runs. */
async function waitStored(redis: LocalRedis, study: string, n: number) {
  const client = openRedis(redis.url);
  try {
    while ((await client.hlen(studyKeys(study).records)) < n) await sleep(10);
  } finally {
    client.disconnect();
  }
}

async function submit(redis: LocalRedis, file: string): Promise<string> {
  return (JSON.parse(await cli(['sweep', 'submit', file, '--redis', redis.url, '--json'])) as { study: string }).study;
}

/** Seconds for EPISODES episodes on `workers` worker processes, their models already loaded (a warm-up study first). */
async function sweepSeconds(redis: LocalRedis, workers: number, file: string, warmFile: string): Promise<number> {
  const children: ChildProcess[] = [];
  for (let i = 0; i < workers; i++)
    children.push(spawn(NODE[0], [...NODE.slice(1), 'sweep', 'worker', '--redis', redis.url, '--device', 'cpu'], { cwd: ROOT, stdio: 'ignore' }));
  try {
    await waitStored(redis, await submit(redis, warmFile), 6);
    const t0 = performance.now();
    const study = await submit(redis, file);
    await waitStored(redis, study, EPISODES);
    return (performance.now() - t0) / 1000;
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode === null ? c.once('exit', r) : r(null)))));
  }
}

/** Per job: the wall time of a study of near-empty one-episode jobs, less the episodes' own time. */
async function overheadPerJob(redis: LocalRedis, file: string): Promise<{ perJobMs: number; episodeMs: number }> {
  const abort = new AbortController();
  const running = runSweepWorker({
    redis: redis.url,
    concurrency: 1,
    lockMs: 30_000,
    log: (l) => process.env.BENCH_LOG && process.stderr.write(l + '\n'),
    signal: abort.signal,
  });
  try {
    const t0 = performance.now();
    const study = await submit(redis, file);
    await waitStored(redis, study, OVERHEAD_JOBS);
    const wall = performance.now() - t0;
    const client = openRedis(redis.url);
    const stats = Object.values(await client.hgetall(studyKeys(study).workers)).map((v) => JSON.parse(v) as WorkerStats);
    client.disconnect();
    const episodeMs = (1000 * stats.reduce((s, w) => s + w.episodeSeconds, 0)) / OVERHEAD_JOBS;
    return { perJobMs: wall / OVERHEAD_JOBS - episodeMs, episodeMs };
  } finally {
    abort.abort();
    await running;
  }
}

const suite: BenchSuite = {
  title: 'Sweeps on a Redis queue (BullMQ): throughput and overhead',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'bench-sweep-'));
    const redis = await LocalRedis.start(dir);
    try {
      const file = join(dir, 'synchrony.json');
      const warm = join(dir, 'warm.json');
      const tinyFile = join(dir, 'tiny.json');
      writeFileSync(file, JSON.stringify(synchrony));
      // Warm-up: a few episodes, so that every worker has loaded its model before the clock starts.
      writeFileSync(warm, JSON.stringify({ ...synchrony, config: { ...synchrony.config, seed: 22, episodeSeeds: [0, 1] } }));
      writeFileSync(tinyFile, JSON.stringify(tiny));
      const single = await singleProcess();
      const one = await sweepSeconds(redis, 1, file, warm);
      const two = await sweepSeconds(redis, 2, file, warm);
      const { perJobMs, episodeMs } = await overheadPerJob(redis, tinyFile);
      const embeddedMs = (1000 * single) / EPISODES;
      const rate = (s: number) => (EPISODES / s).toFixed(2);
      return [
        `${EPISODES} Synchrony episodes of the embedded model (tiny-social, Node CPU, 3 utterances per agent, 24 new tokens), models loaded before the clock starts:`,
        '',
        '| how | seconds | episodes / s | vs one process |',
        '|---|---|---|---|',
        `| one process (\`npm run lab -- run\`'s runner) | ${single.toFixed(1)} | ${rate(single)} | 1.00 |`,
        `| sweep, 1 worker process | ${one.toFixed(1)} | ${rate(one)} | ${(single / one).toFixed(2)} |`,
        `| sweep, 2 worker processes | ${two.toFixed(1)} | ${rate(two)} | ${(single / two).toFixed(2)} |`,
        '',
        `Queue overhead: ${OVERHEAD_JOBS} one-episode jobs of near-empty episodes (${episodeMs.toFixed(2)} ms each) on one in-process worker: **${perJobMs.toFixed(2)} ms per job** (target < 5 ms), which is **${((100 * perJobMs) / embeddedMs).toFixed(1)} %** of one embedded-model episode (${embeddedMs.toFixed(0)} ms; target < 5 %). The overhead counts submitting, BullMQ's fetch and completion, and storing each episode (records and tensors in Redis).`,
        '',
        'On this 2-core machine the model runtime of one worker (onnxruntime-node) already uses both cores, so a second worker on the same machine competes for them, and with Redis and the submitting process, rather than adding throughput. The 2-worker row shows the queue sharing the work between processes without loss; it does not show what a second machine gives, where each worker brings its own cores (not measured here: one machine).',
      ].join('\n');
    } finally {
      await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
export default suite;
