/**
 * Sweeps on a real Redis (docs/sweeps.md): a real `redis-server` on a free loopback port with its append-only file
 * on, real worker processes, real signals. A small Synchrony study of the embedded model runs on two workers; one is
 * killed with SIGKILL in the middle of an episode and Redis is restarted mid-sweep; the collected bundle must equal a
 * single-process run of the same config. A worker of another code version refuses the study, and a job that fails
 * three times is shown failed with its error and runs after `sweep retry`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { LocalRedis } from '../support/redis-server';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBundle, type RunBundle } from '../../src/core/runs/bundle';
import { LAB_MODULES } from '../../src/labs/registry';
import { listScenarios } from '../../src/labs/synchrony/scenarios/index';
import { runEnvelopeInProcess } from '../../cli/run-models';
import { STUDY_FORMAT, studyKeys, type Study } from '../../cli/sweep/study';
import { loadEpisode, saveEpisode } from '../../cli/sweep/episode-store';
import { openRedis } from '../../cli/sweep/connection';

const ROOT = resolve(import.meta.dirname, '../..');
// node itself with tsx's loader, so that a SIGKILL reaches the worker and not a wrapper.
const NODE = [process.execPath, '--import', 'tsx', join(ROOT, 'cli/main.ts')];
const work = mkdtempSync(join(tmpdir(), 'sweep-'));
const children: ChildProcess[] = [];
let redis: LocalRedis;
const url = () => redis.url;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function lab(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(NODE[0], [...NODE.slice(1), 'sweep', ...args, '--redis', url()], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Worker {
  child: ChildProcess;
  log: () => string;
}

function startWorker(args: string[] = [], env: NodeJS.ProcessEnv = {}): Worker {
  const child = spawn(NODE[0], [...NODE.slice(1), 'sweep', 'worker', '--redis', url(), '--device', 'cpu', '--lock-ms', '1500', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  children.push(child);
  let log = '';
  child.stderr!.on('data', (d) => (log += String(d)));
  child.stdout!.on('data', (d) => (log += String(d)));
  return { child, log: () => log };
}

async function until(what: string, test: () => boolean | Promise<boolean>, timeoutMs = 90_000) {
  const t0 = Date.now();
  while (!(await test())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Episodes stored, read straight from Redis (lighter than starting the CLI on every poll). */
const stored = (id: string) => Number(redis.cli('hlen', studyKeys(id).records) || 0);

const statusOf = (id: string) =>
  JSON.parse(lab(['status', id, '--json']).stdout) as {
    total: number;
    done: number;
    failed: number;
    failures: { error: string; attempts: number }[];
    workers: { worker: string; refused?: string; episodes: number }[];
  };

/** What must be equal between a collected bundle and a single-process run: all but the run's id, times and timings. */
function comparable(b: RunBundle) {
  return {
    lab: b.meta.lab,
    config: b.meta.config,
    seed: b.meta.seed,
    sampling: b.meta.sampling,
    // `ms` is how long a turn took, measured: the one field that differs between any two runs.
    records: b.episodes.map((e) => JSON.stringify(e.records.map(({ ms: _ms, ...r }) => r))),
    tensors: b.episodes.map((e) =>
      Object.fromEntries(
        Object.entries(e.tensors).map(([k, t]) => [
          k,
          { dtype: t.dtype, shape: t.shape, bytes: Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength).toString('base64') },
        ]),
      ),
    ),
    results: b.results.map(({ updatedAt: _u, ...r }) => r),
  };
}

/** The study in one process, as `npm run lab -- run` runs it: what every collected bundle must equal. */
const singleProcess = async (envelope: { lab: string; config: unknown }) => (await runEnvelopeInProcess(envelope)).bundle;

const synchrony = {
  lab: 'synchrony',
  config: {
    seed: 9,
    pairs: [{ a: 'tiny-social', b: 'tiny-social' }],
    scenarios: listScenarios()
      .slice(0, 3)
      .map((s) => s.id),
    episodeSeeds: [0, 1],
    bothOrders: false,
    maxUtterancesPerAgent: 3,
    maxNewTokens: 24,
  },
};
// The kinetic Ising model: no language model, quick episodes.
const ising = { lab: 'opinions', config: { seed: 4, dynamics: { steps: 400, replicas: 4 } } };

beforeAll(async () => {
  redis = await LocalRedis.start(work);
  writeFileSync(join(work, 'synchrony.json'), JSON.stringify(synchrony));
  writeFileSync(join(work, 'ising.json'), JSON.stringify(ising));
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await redis.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('sweeps on a real Redis (BullMQ)', () => {
  it('two workers, one killed mid-episode and Redis restarted: the collected bundle equals a single-process run', async () => {
    const submitted = lab(['submit', join(work, 'synchrony.json'), '--name', 'test study', '--json']);
    expect(submitted.code, submitted.stderr).toBe(0);
    const { study, episodes } = JSON.parse(submitted.stdout) as { study: string; episodes: number };
    expect(episodes).toBe(6);
    // A study that cannot store its tensors: no --store and nothing may go into Redis (--inline-max 0).
    const failing = JSON.parse(lab(['submit', join(work, 'ising.json'), '--inline-max', '0', '--block', '2', '--json']).stdout).study as string;

    const a = startWorker();
    const b = startWorker();
    const other = startWorker([], { SOCIAL_MINDS_CODE_VERSION: 'another-version' });
    // Kill A in the middle of its second episode: it has started it and not stored it.
    await until('worker A to start its second episode', () => (a.log().match(/episode \d+\/6 started/g) ?? []).length >= 2);
    a.child.kill('SIGKILL');
    await until('worker A to die', () => a.child.exitCode !== null || a.child.signalCode !== null);
    const killedIn = [...a.log().matchAll(/episode (\d+)\/6 started/g)].at(-1)![1];
    expect(a.log()).not.toMatch(new RegExp(`episode ${killedIn}/6 stored`));

    // Restart Redis mid-sweep: the append-only file keeps the queue and the stored episodes.
    await until('three episodes stored', () => stored(study) >= 3);
    const beforeRestart = stored(study);
    await redis.stop();
    await sleep(300);
    await redis.start();

    await until('the study to finish', () => stored(study) === 6, 120_000);
    // A worker logs "stored" after Redis has the record: wait for the line to come through the pipe too.
    await until('worker B to log the re-run episode', () => new RegExp(`episode ${killedIn}/6 stored`).test(b.log()));
    if (process.env.SWEEP_TEST_LOG) console.log(`stored before the restart: ${beforeRestart}\n--- A\n${a.log()}\n--- B\n${b.log()}`);
    // No episode was stored twice, and the killed worker's episode was run again and stored by B. (A's last "stored"
    // line can die with A in the pipe, after Redis has its record: so the lines are checked for repeats, not counted.)
    const storedEpisodes = [...(a.log() + b.log()).matchAll(/episode (\d+)\/6 stored \(/g)].map((m) => m[1]);
    expect(storedEpisodes.length).toBeGreaterThanOrEqual(5);
    expect(new Set(storedEpisodes).size).toBe(storedEpisodes.length);
    expect(b.log()).toMatch(new RegExp(`episode ${killedIn}/6 stored`));

    const out = join(work, 'collected');
    const collected = lab(['collect', study, '--out', out, '--json']);
    expect(collected.code, collected.stderr).toBe(0);
    const bundle = readBundle(new Uint8Array(readFileSync(JSON.parse(collected.stdout).file)), LAB_MODULES);
    expect(bundle.meta.id).toBe(study);
    // The workers recorded the sampling the model asked for itself (tiny-social: none), and collect carried it.
    expect(bundle.meta.sampling).toEqual([{ model: 'tiny-social', topP: 1, minP: 0, topK: 0 }]);
    const reference = await singleProcess(synchrony);
    expect(comparable(bundle)).toEqual(comparable(reference));

    // The worker of another version took nothing, and said why, where status shows it.
    const s = statusOf(study);
    const refused = s.workers.find((w) => w.refused);
    expect(refused?.refused).toMatch(/code version another-version.*refuses its jobs/);
    expect(other.log()).toMatch(/refused: .*another-version/);
    expect(other.log()).not.toMatch(/started/);

    // The failing study: three attempts, then failed with its error.
    await until('the failing study to fail', () => statusOf(failing).failed === 4);
    const f = statusOf(failing);
    expect(f.done).toBe(0);
    expect(f.failures[0].attempts).toBe(3);
    expect(f.failures[0].error).toMatch(/no store folder was given|could not write/);
    expect(lab(['collect', failing, '--out', out]).code).toBe(1);

    // Stop the workers; one with a store folder takes the retried jobs.
    for (const w of [b, other]) w.child.kill('SIGTERM');
    await until('the workers to stop', () => b.child.exitCode !== null && other.child.exitCode !== null, 30_000);
    expect(b.child.exitCode).toBe(0);
    const store = join(work, 'store');
    startWorker(['--store', store]);
    expect(lab(['retry', failing]).stdout).toMatch(/put 2 failed job/);
    await until('the retried study to finish', () => stored(failing) === 4);
    const c2 = lab(['collect', failing, '--out', out, '--store', store, '--json']);
    expect(c2.code, c2.stderr).toBe(0);
    const isingBundle = readBundle(new Uint8Array(readFileSync(JSON.parse(c2.stdout).file)), LAB_MODULES);
    expect(comparable(isingBundle)).toEqual(comparable(await singleProcess(ising)));
  }, 240_000);

  it('a chain of epochs (Polarization) resumes from the stored epoch after its worker is killed', async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    // Bounded confidence, no language model: each epoch reads the one before (RunPlan.chainLength).
    const polarization = { lab: 'polarization', config: { seed: 12, agentKind: 'boundedConfidence', agents: 2000, epochs: 60 } };
    writeFileSync(join(work, 'polarization.json'), JSON.stringify(polarization));
    const submitted = JSON.parse(lab(['submit', join(work, 'polarization.json'), '--json']).stdout) as { study: string; jobs: number };
    expect(submitted.jobs).toBe(1);
    const a = startWorker();
    await until('a few epochs stored', () => stored(submitted.study) >= 5);
    a.child.kill('SIGKILL');
    await until('worker A to die', () => a.child.exitCode !== null || a.child.signalCode !== null);
    const before = stored(submitted.study);
    expect(before).toBeLessThan(60);
    const b = startWorker();
    await until('the chain to finish', () => stored(submitted.study) === 60);
    // B ran only the epochs A had not stored, starting from A's last stored epoch. Its "stored" lines can trail the
    // writes to Redis through its stdout pipe (a CI run saw 42 of 46), so wait for them before counting.
    const storedLines = () => (b.log().match(/episode \d+\/60 stored \(/g) ?? []).length;
    await until("B's stored lines to arrive", () => storedLines() >= 60 - before, 10_000).catch(() => undefined);
    expect(storedLines()).toBe(60 - before);
    const out = join(work, 'chain');
    const collected = lab(['collect', submitted.study, '--out', out, '--json']);
    expect(collected.code, collected.stderr).toBe(0);
    const bundle = readBundle(new Uint8Array(readFileSync(JSON.parse(collected.stdout).file)), LAB_MODULES);
    expect(comparable(bundle)).toEqual(comparable(await singleProcess(polarization)));
    b.child.kill('SIGTERM');
  }, 120_000);

  it('storing: a resent write of our own counts as ours; a loser leaves no tensors behind', async () => {
    const client = openRedis(url());
    try {
      const study: Study = {
        format: STUDY_FORMAT,
        id: 'run-store-000001',
        name: '',
        lab: 'opinions',
        v: 1,
        config: {},
        configHash: '0'.repeat(64),
        codeVersion: 'test',
        episodes: 1,
        jobs: 1,
        inlineMax: 1 << 20,
        store: null,
        runtime: {},
        createdAt: new Date().toISOString(),
      };
      const episode = (value: number) => ({
        index: 0,
        records: [{ step: 0, value }],
        tensors: { x: { dtype: 'F32' as const, shape: [1], data: new Float32Array([value]) } },
      });
      const info = { worker: 'w1', backend: null, dtype: null, seconds: 1, storeDir: null };
      // Redis took HSETNX, restarted before replying, and ioredis sent it again: the second answer is 0.
      const resent = new Proxy(client, {
        get: (target, key) =>
          key === 'hsetnx' ? async (...args: [string, string, string]) => (await target.hsetnx(...args), target.hsetnx(...args)) : Reflect.get(target, key),
      });
      expect(await saveEpisode(resent, study, episode(1), info)).toBe(true);
      // Another worker ran the same episode on another backend, with other numbers, and checked before the first
      // one stored it: it writes its tensors, then loses the race.
      const late = new Proxy(client, { get: (target, key) => (key === 'hexists' ? async () => 0 : Reflect.get(target, key)) });
      expect(await saveEpisode(late, study, episode(2), { ...info, worker: 'w2' })).toBe(false);
      const fields = await client.hkeys(studyKeys(study.id).tensors);
      expect(fields).toHaveLength(1);
      expect((await loadEpisode(client, study, 0, null)).episode.records).toEqual([{ step: 0, value: 1 }]);
    } finally {
      client.disconnect();
    }
  });

  it('bad input gets one clear line: a wrong URL, an unknown study, a hostile id', () => {
    const bad = spawnSync(NODE[0], [...NODE.slice(1), 'sweep', 'status', 'x', '--redis', 'http://127.0.0.1:1'], { cwd: ROOT, encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/must start with redis:\/\//);
    const unknown = lab(['status', 'run-zzzzzz-000000']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no study run-zzzzzz-000000 on this Redis/);
    const down = spawnSync(NODE[0], [...NODE.slice(1), 'sweep', 'status', 'run-zzzzzz-000000', '--redis', 'redis://127.0.0.1:1'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(down.status).toBe(1);
    expect(down.stderr).toMatch(/cannot reach Redis at redis:\/\/127.0.0.1:1/);
    const hostile = lab(['status', '*']);
    expect(hostile.code).toBe(2);
    expect(hostile.stderr).toMatch(/is not a study id/);
  });
});
