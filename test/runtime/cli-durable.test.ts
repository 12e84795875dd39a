/**
 * Durable headless runs (docs/reliability.md): `npm run lab -- run` killed with SIGKILL at three different points,
 * then run again with the same command, writes the same bundle as an uninterrupted run; Ctrl-C stops after saving;
 * another config on the same --out is refused. Real processes, real files, real signals.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { readSafetensors } from '../../src/core/safetensors';
import { openDurableOut } from '../../cli/durable-out';
import { runHeadless } from '../../src/core/runs/headless';
import { openLabByName } from '../../src/labs/registry';
import { polarizationLab } from '../../src/labs/polarization/config';
import { CancelledError } from '../../src/core/cancel';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'cli/main.ts');
// node itself with tsx's loader: the tsx wrapper would run the CLI in a child that a SIGKILL to the wrapper misses.
const NODE = [process.execPath, '--import', 'tsx', CLI];
const work = mkdtempSync(join(tmpdir(), 'durable-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const EPISODES = 12;
const config = join(work, 'config.json');
// The kinetic Ising model, no language model: twelve replicas of about a quarter of a second each.
writeFileSync(config, JSON.stringify({ lab: 'opinions', config: { seed: 5, dynamics: { steps: 3000, replicas: EPISODES } } }));

const run = (out: string, cfg = config) => spawnSync(NODE[0], [...NODE.slice(1), 'run', cfg, '--out', out], { cwd: ROOT, encoding: 'utf8' });

/** The bundle's content without what differs between runs by design (the run's id and times). */
function content(out: string) {
  const zips = readdirSync(out).filter((f) => f.endsWith('.zip'));
  expect(zips).toHaveLength(1);
  const files = unzipSync(new Uint8Array(readFileSync(join(out, zips[0]))));
  const { id, createdAt, updatedAt, ...meta } = JSON.parse(strFromU8(files['run.json']));
  expect([id, createdAt, updatedAt].every((x) => typeof x === 'string')).toBe(true);
  const results = (JSON.parse(strFromU8(files['results.json'])) as { updatedAt: string }[]).map(({ updatedAt: _, ...r }) => r);
  const tensors = Object.fromEntries(
    Object.entries(readSafetensors(files['tensors.safetensors']).tensors).map(([k, t]) => [k, { shape: t.shape, data: Array.from(t.data as Float32Array) }]),
  );
  return { meta, config: strFromU8(files['config.json']), records: strFromU8(files['records.jsonl']), results, tensors };
}

const finishedEpisodes = (out: string) =>
  existsSync(join(out, '.partial')) ? readdirSync(join(out, '.partial')).filter((f) => /^episode-\d+\.json$/.test(f)).length : 0;

/** Starts the run, waits until `after` episodes are saved plus `delayMs`, sends `signal`, and resolves on exit. */
function interrupt(
  out: string,
  after: number,
  delayMs: number,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(NODE[0], [...NODE.slice(1), 'run', config, '--out', out], { cwd: ROOT });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    const poll = setInterval(() => {
      if (finishedEpisodes(out) >= after) {
        clearInterval(poll);
        setTimeout(() => child.kill(signal), delayMs);
      }
    }, 5);
    child.on('exit', (code, sig) => {
      clearInterval(poll);
      done({ code, signal: sig, stderr });
    });
  });
}

describe('durable headless runs (CLI)', () => {
  const reference = join(work, 'reference');
  it('an uninterrupted run writes its bundle and leaves no partial files', () => {
    const r = run(reference);
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(join(reference, '.partial'))).toBe(false);
    expect(content(reference).records.trim().split('\n').length).toBeGreaterThanOrEqual(EPISODES);
  }, 120_000);

  it.each([
    [1, 0],
    [5, 40],
    [9, 110],
  ])(
    'killed with SIGKILL after %i episodes (+%i ms), the same command again gives the same bundle',
    async (after, delayMs) => {
      const out = join(work, `kill-${after}`);
      const killed = await interrupt(out, after, delayMs, 'SIGKILL');
      expect(killed.signal).toBe('SIGKILL');
      const saved = finishedEpisodes(out);
      expect(saved).toBeGreaterThanOrEqual(after);
      expect(saved).toBeLessThan(EPISODES);
      expect(readdirSync(out).filter((f) => f.endsWith('.zip'))).toEqual([]);
      const again = run(out);
      expect(again.status, again.stderr).toBe(0);
      expect(again.stderr).toContain(`${saved} of ${EPISODES} episodes were finished before`);
      expect(content(out)).toEqual(content(reference));
    },
    120_000,
  );

  it('Ctrl-C stops after saving the finished episodes, and the same command continues', async () => {
    const out = join(work, 'sigint');
    const stopped = await interrupt(out, 2, 0, 'SIGINT');
    expect(stopped.code).toBe(130);
    const saved = finishedEpisodes(out);
    expect(stopped.stderr).toContain(`stopped: ${saved} of ${EPISODES} episodes are saved`);
    const again = run(out);
    expect(again.status, again.stderr).toBe(0);
    expect(content(out)).toEqual(content(reference));
  }, 120_000);

  it('refuses another config on an --out that holds an unfinished run, and keeps that run', async () => {
    const out = join(work, 'other');
    await interrupt(out, 3, 0, 'SIGKILL');
    const saved = finishedEpisodes(out);
    const otherConfig = join(work, 'other.json');
    writeFileSync(otherConfig, JSON.stringify({ lab: 'opinions', config: { seed: 6, dynamics: { steps: 3000, replicas: EPISODES } } }));
    const refused = run(out, otherConfig);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/holds an unfinished run of another config/);
    expect(finishedEpisodes(out)).toBe(saved);
  }, 120_000);
});

describe('durable headless runs: a run whose epochs carry state over (in process)', () => {
  it('resumes a Polarization network from its saved epochs with the same numbers', async () => {
    const cfg = polarizationLab.schema.parse({ seed: 3, epochs: 12 });
    const lab = openLabByName('polarization');
    const whole = await runHeadless(polarizationLab, lab, cfg);
    const out = join(work, 'chained');
    const first = openDurableOut(out, polarizationLab, cfg, 12);
    const abort = new AbortController();
    await expect(
      runHeadless(polarizationLab, lab, cfg, {
        signal: abort.signal,
        resume: { episodes: [], id: first.id, createdAt: first.createdAt },
        onEpisodeDone: (ep) => {
          first.save(ep);
          if (ep.index === 6) abort.abort();
        },
      }),
    ).rejects.toBeInstanceOf(CancelledError);
    const second = openDurableOut(out, polarizationLab, cfg, 12);
    expect(second.finished.map((e) => e.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(second.id).toBe(first.id);
    const resumed = await runHeadless(polarizationLab, lab, cfg, {
      resume: { episodes: second.finished, id: second.id, createdAt: second.createdAt },
      onEpisodeDone: (ep) => second.save(ep),
    });
    expect(JSON.parse(JSON.stringify(resumed.episodes.map((e) => e.records)))).toEqual(JSON.parse(JSON.stringify(whole.episodes.map((e) => e.records))));
    expect(resumed.results.map((r) => r.value)).toEqual(whole.results.map((r) => r.value));
  });

  it("keeps the run's record of its models' own sampling from one attempt to the next", () => {
    const cfg = polarizationLab.schema.parse({ seed: 4, epochs: 3 });
    const out = join(work, 'sampling');
    const first = openDurableOut(out, polarizationLab, cfg, 3);
    expect(first.sampling).toBeUndefined();
    const kept = [{ model: 'organism-dialogue', topP: 1, minP: 0.2, topK: 0 }];
    first.keepSampling(kept);
    expect(openDurableOut(out, polarizationLab, cfg, 3).sampling).toEqual(kept);
    const changed = [...kept, { ...kept[0], minP: 0, fromEpisode: 2 }];
    openDurableOut(out, polarizationLab, cfg, 3).keepSampling(changed);
    expect(openDurableOut(out, polarizationLab, cfg, 3).sampling).toEqual(changed);
  });
});
