import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RunStore, StorageFullError, checkStorageFor } from '../../src/store/run-store';
import { readBundle, writeBundle, BundleError } from '../../src/core/runs/bundle';
import type { Episode, RunMeta } from '../../src/core/runs/types';
import { resultsAreCurrent } from '../../src/core/runs/types';
import { LAB_MODULES } from '../../src/labs/registry';
import { defaultConfig } from '../../src/core/config';
import { opinionsLab } from '../../src/labs/opinions/config';
import { strToU8, unzipSync, zipSync } from 'fflate';

let store: RunStore;
let dbCount = 0;

const meta = (id: string): RunMeta => ({
  id,
  lab: 'opinions',
  schemaVersion: 1,
  config: defaultConfig(opinionsLab) as Record<string, unknown>,
  seed: 1,
  backend: 'wasm',
  dtype: 'fp32',
  status: 'running',
  episodesDone: 0,
  episodesTotal: 3,
  createdAt: new Date(2026, 0, 1).toISOString(),
  updatedAt: new Date(2026, 0, 1).toISOString(),
});

// Two steps of an Opinions simulation replica (records.ts: t, n(t), |n(t)|), as its runner writes them.
const episode = (index: number): Episode => ({
  index,
  records: [
    { t: 0, n: index / 10, absN: index / 10 },
    { t: 1, n: -0.5, absN: 0.5 },
  ],
  tensors: { states: { dtype: 'F32', shape: [2, 3], data: Float32Array.from([1, 2, 3, 4, 5, index]) } },
});

beforeEach(async () => {
  store = await RunStore.open(`test-db-${dbCount++}`);
});
afterEach(() => {
  vi.restoreAllMocks();
  store.close();
});

describe('RunStore', () => {
  it('stores runs and appends episodes in order, with progress', async () => {
    await store.putRun(meta('r1'));
    await store.appendEpisode('r1', episode(0));
    const after = await store.appendEpisode('r1', episode(1));
    expect(after.episodesDone).toBe(2);
    const eps = await store.episodes('r1');
    expect(eps.map((e) => e.index)).toEqual([0, 1]);
    expect(Array.from(eps[1].tensors.states.data as Float32Array)).toEqual([1, 2, 3, 4, 5, 1]);
    await expect(store.appendEpisode('r1', episode(5))).rejects.toThrow(/expects episode 2/);
  });

  it('never leaves half an episode when the disk is full', async () => {
    await store.putRun(meta('r2'));
    await store.appendEpisode('r2', episode(0));
    const original = IDBObjectStore.prototype.put;
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      if (this.name === 'tensors') throw new DOMException('quota', 'QuotaExceededError');
      return original.apply(this, args);
    });
    await expect(store.appendEpisode('r2', episode(1))).rejects.toBeInstanceOf(StorageFullError);
    vi.restoreAllMocks();
    const eps = await store.episodes('r2');
    expect(eps.map((e) => e.index)).toEqual([0]);
    expect((await store.getRun('r2'))!.episodesDone).toBe(1);
    // and the run can resume from where it stopped
    await store.appendEpisode('r2', episode(1));
    expect((await store.episodes('r2')).length).toBe(2);
  });

  it('deletes a run with everything it owns', async () => {
    await store.putRun(meta('a'));
    await store.putRun(meta('b'));
    await store.appendEpisode('a', episode(0));
    await store.appendEpisode('b', episode(0));
    await store.putResult('a', 'syncR2', { value: 0.3 });
    await store.deleteRun('a');
    expect((await store.listRuns()).map((r) => r.id)).toEqual(['b']);
    expect(await store.episodes('a')).toEqual([]);
    expect(await store.results('a')).toEqual([]);
    expect((await store.episodes('b')).length).toBe(1);
  });

  it('keeps the result version a result was computed with, and tells stale results from current ones', async () => {
    await store.putRun(meta('v'));
    await store.putResult('v', 'old', { n: 1 });
    await store.putResult('v', 'new', { n: 2 }, 3);
    const rows = await store.results('v');
    expect(rows.find((r) => r.name === 'new')?.version).toBe(3);
    expect(rows.find((r) => r.name === 'old')).not.toHaveProperty('version');
    // One result without a version (stored before versions were kept) makes the set stale; none at all too.
    expect(resultsAreCurrent(rows, 3)).toBe(false);
    expect(
      resultsAreCurrent(
        rows.filter((r) => r.name === 'new'),
        3,
      ),
    ).toBe(true);
    expect(
      resultsAreCurrent(
        rows.filter((r) => r.name === 'new'),
        4,
      ),
    ).toBe(false);
    expect(resultsAreCurrent([], 1)).toBe(false);
    for (const m of LAB_MODULES) expect(Number.isInteger(m.results.version) && m.results.version >= 1).toBe(true);
  });

  it('truncates a run from an episode on (a damaged record is run again), leaving other runs and earlier episodes', async () => {
    await store.putRun(meta('t'));
    await store.putRun(meta('u'));
    for (const k of [0, 1, 2]) await store.appendEpisode('t', episode(k));
    await store.appendEpisode('u', episode(0));
    await store.putResult('t', 'fit', { value: 1 });
    const cut = await store.truncateRun('t', 1);
    expect(cut).toMatchObject({ episodesDone: 1, status: 'paused' });
    const eps = await store.episodes('t');
    expect(eps.map((e) => e.index)).toEqual([0]);
    expect(Object.keys(eps[0].tensors)).toEqual(['states']);
    expect(await store.results('t')).toEqual([]);
    expect((await store.episodes('u')).length).toBe(1);
    await store.appendEpisode('t', episode(1)); // and the run goes on from there
    expect((await store.getRun('t'))!.episodesDone).toBe(2);
  });

  it('exports a bundle that imports back identically', async () => {
    await store.putRun(meta('x'));
    await store.appendEpisode('x', episode(0));
    await store.appendEpisode('x', episode(1));
    const magnetisation = { meanAbsN: 0.3, chi: 1.5, episodes: 2, note: 'second half of each replica' };
    await store.putResult('x', 'magnetisation', magnetisation, 1);
    // A result the lab does not declare is left out on import, and said so (results are derived from the records).
    await store.putResult('x', 'summary', { n: 2 }, 1);
    const bytes = writeBundle(await store.exportRun('x'));
    const bundle = readBundle(bytes, LAB_MODULES);
    expect(bundle.resultsLeftOut).toEqual([
      { name: 'summary', problem: expect.stringMatching(/^results\.json: result "summary" is not a result of this lab/) },
    ]);
    const imported = await store.importRun(bundle, 'y');
    expect(imported.importedFrom).toBe('x');
    expect(imported.episodesDone).toBe(2);
    expect(imported.config).toEqual(meta('x').config);
    const eps = await store.episodes('y');
    expect(eps[1].records).toEqual(episode(1).records);
    expect(Array.from(eps[0].tensors.states.data as Float32Array)).toEqual(Array.from(episode(0).tensors.states.data as Float32Array));
    expect(await store.results('y')).toEqual([expect.objectContaining({ name: 'magnetisation', value: magnetisation, version: 1 })]);
  });
});

describe('bundle import refuses corrupt files with a message', () => {
  const good = () => writeBundle({ meta: { ...meta('z'), episodesDone: 1 }, episodes: [episode(0)], results: [] });
  const cases: [string, () => Uint8Array, RegExp][] = [
    ['not a zip', () => strToU8('hello'), /zip does not open/],
    ['empty zip', () => zipSync({}), /no run.json/],
    [
      'bad config',
      () =>
        zipSync({
          'run.json': strToU8('{"format":"social-minds-lab/run-bundle@1"}'),
          'config.json': strToU8('{"lab":"opinions","v":1,"config":{"seed":"x"}}'),
        }),
      /seed/,
    ],
    [
      'script in records',
      () =>
        zipSync({
          'run.json': strToU8('{"format":"social-minds-lab/run-bundle@1"}'),
          'config.json': strToU8('{"lab":"opinions","v":1,"config":{}}'),
          'records.jsonl': strToU8('{"episode":0,"t":"<script>x</script>"}'),
        }),
      /markup/,
    ],
    [
      'gap in episodes',
      () =>
        zipSync({
          'run.json': strToU8('{"format":"social-minds-lab/run-bundle@1"}'),
          'config.json': strToU8('{"lab":"opinions","v":1,"config":{}}'),
          'records.jsonl': strToU8('{"episode":1,"t":0,"n":0,"absN":0}'),
        }),
      /episode 0 is missing/,
    ],
    [
      'a bundle format of another version',
      () => zipSync({ 'run.json': strToU8('{"format":"social-minds-lab/run-bundle@2"}'), 'config.json': strToU8('{"lab":"opinions","v":1,"config":{}}') }),
      /run-bundle@2, and this version of the lab reads social-minds-lab\/run-bundle@1/,
    ],
    [
      'a config schema newer than this lab',
      () => zipSync({ 'run.json': strToU8('{"format":"social-minds-lab/run-bundle@1"}'), 'config.json': strToU8('{"lab":"opinions","v":99,"config":{}}') }),
      /newer version of the Opinions lab \(schema v99/,
    ],
    [
      'corrupt tensors',
      () => {
        const files = {
          'run.json': strToU8('{"format":"social-minds-lab/run-bundle@1"}'),
          'config.json': strToU8('{"lab":"opinions","v":1,"config":{}}'),
          'tensors.safetensors': strToU8('garbage!'),
        };
        return zipSync(files);
      },
      /tensors.safetensors/,
    ],
  ];
  it.each(cases)('%s', (_, make, message) => {
    expect(() => readBundle(make(), LAB_MODULES)).toThrow(BundleError);
    expect(() => readBundle(make(), LAB_MODULES)).toThrow(message);
  });
  it('reads a good bundle', () => {
    expect(readBundle(good(), LAB_MODULES).episodes.length).toBe(1);
  });
  it('migrates a bundle of an older schema version (Synchrony v1, one agent pair) instead of refusing it', () => {
    const run = strToU8('{"format":"social-minds-lab/run-bundle@1"}');
    const config = strToU8(JSON.stringify({ lab: 'synchrony', v: 1, config: { seed: 2, agents: { a: 'tiny-social', b: 'tiny-social' } } }));
    const turn = { episode: 0, kind: 'turn', turn: 0, speaker: 'A', text: 'Hi.', parsed: true, leaves: false, promptTokens: 9, newTokens: 2, ms: 5 };
    const read = readBundle(zipSync({ 'run.json': run, 'config.json': config, 'records.jsonl': strToU8(JSON.stringify(turn)) }), LAB_MODULES);
    expect(read.meta.schemaVersion).toBe(2);
    expect((read.meta.config as { pairs: unknown }).pairs).toEqual([{ a: 'tiny-social', b: 'tiny-social' }]);
  });
  it('never inflates an entry it does not know (8 MB of zeros beside a good bundle)', () => {
    const files = unzipSync(good());
    const bundle = zipSync({ ...files, 'junk.bin': new Uint8Array(8 * 2 ** 20) });
    expect(bundle.length).toBeLessThan(100_000);
    expect(readBundle(bundle, LAB_MODULES).episodes.length).toBe(1);
  });
  it('refuses a zip whose entries declare more than the limit, before inflating them', () => {
    const bytes = zipSync(unzipSync(good()), { level: 0 });
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // Declare 1.5 GiB for every entry, in each local header (offset 22) and central directory entry (offset 24).
    for (let i = 0; i + 4 <= bytes.length; i++) {
      const sig = view.getUint32(i, true);
      if (sig === 0x04034b50) view.setUint32(i + 22, 1.5 * 2 ** 30, true);
      if (sig === 0x02014b50) view.setUint32(i + 24, 1.5 * 2 ** 30, true);
    }
    expect(() => readBundle(bytes, LAB_MODULES)).toThrow(/would inflate the bundle past 2 GB/);
  });
});

describe('checkStorageFor', () => {
  it('refuses a run that does not fit', async () => {
    const result = await checkStorageFor(50 * 2 ** 20, { estimate: async () => ({ quota: 100 * 2 ** 20, usage: 80 * 2 ** 20 }) });
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/needs about 50.0 MB but only 20.0 MB/);
  });
  it('accepts one that fits', async () => {
    expect((await checkStorageFor(1024, { estimate: async () => ({ quota: 2 ** 30, usage: 0 }) })).ok).toBe(true);
  });
});
