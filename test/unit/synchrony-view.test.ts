import { describe, expect, it } from 'vitest';
import { cellKind, gridCsv, heatCells, heatDomain, moveCell, unitOf } from '../../src/components/heatmap-data';
import { latestOnly } from '../../src/labs/synchrony/view/throttle';
import { episodeLabel, transcriptOf } from '../../src/labs/synchrony/view/transcript';
import { conditionPoints, lagPoints, modelsOf, pairAbility, performancePoints, relationshipPoints, resultsCsv } from '../../src/labs/synchrony/view/compare';
import { ImportError, syncInputFromFiles } from '../../src/labs/synchrony/view/byod';
import { analysisJson, episodesJsonl, statesSafetensors } from '../../src/labs/synchrony/view/exports';
import { readNpy, writeNpy } from '../../src/core/npy';
import { readSafetensors, writeSafetensors } from '../../src/core/safetensors';
import type { ConditionResult, SynchronyAnalysis } from '../../src/labs/synchrony/types';
import type { Episode } from '../../src/core/runs/types';

describe('heatmap data', () => {
  it('lists cells row-major by source and boxes the best target', () => {
    const cells = heatCells([0.1, 0.5, -0.2, 0.3], 2, 2, [1, 1]);
    expect(cells.map((c) => [c.source, c.target, c.value, c.best])).toEqual([
      [0, 0, 0.1, false],
      [0, 1, 0.5, true],
      [1, 0, -0.2, false],
      [1, 1, 0.3, true],
    ]);
    expect(() => heatCells([1, 2, 3], 2, 2)).toThrow(/3 values/);
  });
  it('classes, domain and unit scaling', () => {
    expect([cellKind(NaN), cellKind(-0.1), cellKind(0), cellKind(0.4)]).toEqual(['missing', 'negative', 'scaled', 'scaled']);
    expect(heatDomain([-1, 0.2, NaN, 0.5])).toEqual([0, 0.5]);
    expect(heatDomain([-1, -2])[1]).toBeGreaterThan(0);
    expect(heatDomain([1], [0, 2])).toEqual([0, 2]);
    expect(unitOf(0.25, [0, 0.5])).toBe(0.5);
    expect(unitOf(2, [0, 0.5])).toBe(1);
  });
  it('writes the cells as CSV with the layer offset and quoted names', () => {
    expect(gridCsv([0.1, NaN, -0.2, 0.3], 2, 2, { best: [0, 1], offset: 1, sourceName: 'source, A', valueName: 'R²' })).toBe(
      '"source, A",target,R²,best\n1,1,0.1,1\n1,2,,0\n2,1,-0.2,0\n2,2,0.3,1\n',
    );
  });
  it('moves a keyboard cursor inside the grid', () => {
    expect(moveCell(null, 'ArrowRight', 3, 4)).toEqual({ source: 0, target: 0 });
    expect(moveCell({ source: 0, target: 0 }, 'ArrowRight', 3, 4)).toEqual({ source: 1, target: 0 });
    expect(moveCell({ source: 0, target: 0 }, 'ArrowLeft', 3, 4)).toEqual({ source: 0, target: 0 });
    expect(moveCell({ source: 2, target: 3 }, 'ArrowUp', 3, 4)).toEqual({ source: 2, target: 3 });
    expect(moveCell({ source: 2, target: 3 }, 'ArrowDown', 3, 4)).toEqual({ source: 2, target: 2 });
    expect(moveCell({ source: 1, target: 1 }, 'End', 3, 4)).toEqual({ source: 2, target: 3 });
    expect(moveCell({ source: 1, target: 1 }, 'a', 3, 4)).toBeNull();
  });
});

describe('latestOnly', () => {
  it('runs one job at a time and coalesces pushes into one rerun with the latest input', async () => {
    const started: number[] = [];
    const stale: boolean[] = [];
    let release: (() => void) | null = null;
    const t = latestOnly<number>(async (x, isStale) => {
      started.push(x);
      await new Promise<void>((r) => (release = r));
      stale.push(isStale());
    });
    t.push(1);
    expect(t.running).toBe(true);
    t.push(2);
    t.push(3);
    expect(started).toEqual([1]);
    release!();
    await new Promise((r) => setTimeout(r, 0));
    expect(started).toEqual([1, 3]);
    expect(stale).toEqual([true]);
    release!();
    await t.idle();
    expect(stale).toEqual([true, false]);
    expect(t.running).toBe(false);
  });
  it('reports errors and keeps going', async () => {
    const errors: unknown[] = [];
    const seen: number[] = [];
    const t = latestOnly<number>(
      async (x) => {
        seen.push(x);
        if (x === 1) throw new Error('boom');
      },
      (e) => errors.push(e),
    );
    t.push(1);
    t.push(2);
    await t.idle();
    expect(seen).toEqual([1, 2]);
    expect(errors).toHaveLength(1);
  });
  it('paces reruns by the time a job took, and an urgent push skips the pause', async () => {
    const startedAt: number[] = [];
    const t = latestOnly<number>(
      async () => {
        startedAt.push(Date.now());
        await new Promise((r) => setTimeout(r, 40));
      },
      undefined,
      { idleRatio: 2, maxWaitMs: 1_000 },
    );
    t.push(1);
    t.push(2);
    await t.idle();
    // job 1 took ~40 ms, so job 2 waited ~80 ms more before it started
    expect(startedAt[1] - startedAt[0]).toBeGreaterThanOrEqual(110);
    t.push(3);
    t.push(4);
    await new Promise((r) => setTimeout(r, 50)); // job 3 done, pausing before 4
    t.push(5, true);
    await t.idle();
    expect(startedAt).toHaveLength(4);
    // job 5 replaced 4 and started at once: within the pause job 4 would have had (~80 ms after job 3 ended)
    expect(startedAt[3] - startedAt[2]).toBeLessThan(100);
    t.push(6);
    t.push(7);
    await new Promise((r) => setTimeout(r, 50));
    t.expedite(); // the run ended: the paused rerun starts now
    await t.idle();
    expect(startedAt[5] - startedAt[4]).toBeLessThan(100);
  });
  it('reset drops the pending rerun and marks the running job stale', async () => {
    const seen: number[] = [];
    let staleAtEnd = false;
    let release: (() => void) | null = null;
    const t = latestOnly<number>(async (x, isStale) => {
      seen.push(x);
      await new Promise<void>((r) => (release = r));
      staleAtEnd = isStale();
    });
    t.push(1);
    t.push(2);
    t.reset();
    release!();
    await t.idle();
    expect(seen).toEqual([1]);
    expect(staleAtEnd).toBe(true);
  });
});

const meta = {
  kind: 'meta',
  scenarioId: 's1',
  scenarioTitle: 'Sharing a car',
  pairing: 0,
  seed: 3,
  first: 'B',
  relationship: 3,
  modelA: 'tiny-social',
  modelB: 'tiny-social',
  pairIndex: 0,
  group: 7,
  names: { A: 'Ana', B: 'Ben' },
};
const turn = (t: number, speaker: string, text: string, extra: Record<string, unknown> = {}) => ({
  kind: 'turn',
  turn: t,
  speaker,
  text,
  parsed: true,
  leaves: false,
  promptTokens: 10,
  newTokens: 5,
  ms: 12,
  ...extra,
});
const episode = (index: number): Episode => ({
  index,
  records: [
    meta,
    turn(1, 'A', 'Sure.'),
    turn(0, 'B', 'Hello <b>there</b>'),
    turn(2, 'B', '', { parsed: false, parseError: 'empty reply' }),
    turn(3, 'A', 'I leave now.', { leaves: true }),
  ],
  tensors: { statesA: { dtype: 'F32', shape: [2, 2, 3], data: new Float32Array(12).fill(index) } },
});

describe('transcript rows', () => {
  it('orders turns, names speakers, marks unparsed turns and leaving', () => {
    const tr = transcriptOf(episode(0));
    expect(tr.meta?.scenarioTitle).toBe('Sharing a car');
    expect(tr.relationship).toBe('friends (3)');
    expect(tr.rows.map((r) => [r.turn, r.name, r.text, r.parsed, r.leaves])).toEqual([
      [0, 'Ben', 'Hello <b>there</b>', true, false],
      [1, 'Ana', 'Sure.', true, false],
      [2, 'Ben', '', false, false],
      [3, 'Ana', 'I leave now.', true, true],
    ]);
    expect(tr.rows[2].parseError).toBe('empty reply');
    expect(tr.parseFailures).toBe(1);
    expect(episodeLabel(episode(4))).toBe('Episode 5: Sharing a car · Ana & Ben · seed 3 · B first · tiny-social');
  });
  it('survives records with missing or wrong-typed fields', () => {
    const tr = transcriptOf({
      index: 2,
      records: [
        { kind: 'turn', speaker: 7, text: 42 },
        { kind: 'meta', names: null, relationship: 'x' },
      ],
      tensors: {},
    });
    expect(tr.rows[0]).toMatchObject({ speaker: 'A', name: 'A', text: '', parsed: true });
    expect(tr.relationship).toBe('unknown');
    expect(episodeLabel({ index: 0, records: [], tensors: {} })).toBe('Episode 1');
  });
});

const dir = (syncR2: number) => ({ grid: [syncR2], LA: 1, LB: 1, best: [0], bestR2: [syncR2], syncR2, se: 0.01, alpha: 0.5, n: 20, groups: 4 });
const cond = (condition: string, label: string, v: number | null, warnings: string[] = []): ConditionResult => ({
  condition,
  label,
  ab: v === null ? null : dir(v),
  ba: v === null ? null : dir(v),
  syncR2: v,
  se: v === null ? null : 0.02,
  n: 40,
  warnings,
});
const analysis = (pair: string, perf: SynchronyAnalysis['performance'] = []): SynchronyAnalysis => ({
  pair,
  alpha: 0.1,
  splitSeeds: [0, 1, 2],
  episodes: 6,
  conditions: [
    cond('lag5', 'lag 5', 0.05),
    cond('real', 'real', 0.4),
    cond('passive', 'passive reader', 0.2),
    cond('lag3', 'lag 3', null, ['too few samples']),
    cond('rel3', 'friends', 0.3),
    cond('rel0', 'strangers', 0.1),
  ],
  performance: perf,
  parse: { turns: 10, failed: 1 },
});

describe('comparison data', () => {
  it('puts real beside its controls, lags by k and relationship levels in order', () => {
    const a = analysis('x × y');
    expect(conditionPoints(a).map((p) => [p.id, p.y])).toEqual([
      ['real', 0.4],
      ['passive', 0.2],
      ['lag3', null],
      ['lag5', 0.05],
    ]);
    expect(lagPoints(a).map((p) => [p.k, p.y])).toEqual([
      [1, 0.4],
      [3, null],
      [5, 0.05],
    ]);
    expect(relationshipPoints(a).map((p) => [p.level, p.label])).toEqual([
      [0, '0 stranger'],
      [3, '3 friend'],
    ]);
  });
  it('writes one CSV row per pair and condition', () => {
    const csv = resultsCsv([analysis('a × b')]).split('\n');
    expect(csv[0]).toMatch(/^pair,condition,label,syncR2,se,n,ab_syncR2,ab_se,ab_n,ab_groups,ab_alpha,ba_syncR2/);
    expect(csv[1]).toBe('a × b,lag5,lag 5,0.05,0.02,40,0.05,0.01,20,4,0.5,0.05,0.01,20,4,0.5,0.1,0 1 2,6,');
    expect(csv[4]).toContain(',,,40,,,,,,,,,,,0.1,0 1 2,6,too few samples');
  });
  it('performance points and the ability covariate per pair', () => {
    const perf = [
      { pair: 'a × b', modelA: 'a', modelB: 'b', overall: 3, episodes: 2, syncR2: 0.3 },
      { pair: 'a × a', modelA: 'a', modelB: 'a', overall: 2, episodes: 2, syncR2: null },
      { pair: 'b × c', modelA: 'b', modelB: 'c', overall: 4, episodes: 2, syncR2: 0.5 },
    ];
    const pts = performancePoints([analysis('a × b', perf), analysis('b × c', perf)]);
    expect(pts.map((p) => p.pair)).toEqual(['a × b', 'b × c']);
    expect(modelsOf(pts)).toEqual(['a', 'b', 'c']);
    expect(pairAbility(pts, { a: 1, b: 3, c: 5 })).toEqual([2, 4]);
    expect(pairAbility(pts, { a: 1, b: 3 })).toBeNull();
  });
});

describe('bring your own data', () => {
  const n = 8;
  const src = Float32Array.from({ length: n * 2 * 3 }, (_, i) => Math.sin(i));
  const tgt = Float64Array.from({ length: n * 3 * 2 }, (_, i) => Math.cos(i));
  const group = Int32Array.from({ length: n }, (_, i) => i >> 1);
  const enc = (s: string) => new TextEncoder().encode(s);

  it('reads the sync safetensors format', () => {
    const bytes = writeSafetensors({
      source: { shape: [n, 2, 3], data: src },
      target: { shape: [n, 3, 2], data: tgt },
      group: { shape: [n], data: BigInt64Array.from(group, BigInt) },
    });
    const s = syncInputFromFiles([{ name: 'states.safetensors', bytes }]);
    expect([s.source.n, s.source.L, s.source.H, s.target.L, s.target.H, s.groups]).toEqual([n, 2, 3, 3, 2, 4]);
    expect(Array.from(s.group)).toEqual(Array.from(group));
    expect(s.split).toBeUndefined();
  });
  it('reads npy states with group ids from npy or JSON', () => {
    const files = [
      { name: 'source.npy', bytes: writeNpy(src, [n, 2, 3]) },
      { name: 'target.npy', bytes: writeNpy(tgt, [n, 3, 2]) },
    ];
    const a = syncInputFromFiles([...files, { name: 'group.npy', bytes: writeNpy(group, [n]) }]);
    expect(Array.from(a.target.data)).toEqual(Array.from(tgt));
    const split = [1, 1, 0, 0, 0, 0, 0, 0];
    const b = syncInputFromFiles([...files, { name: 'meta.json', bytes: enc(JSON.stringify({ group: Array.from(group), split })) }]);
    expect(Array.from(b.split!)).toEqual(split);
  });
  it('refuses hostile or inconsistent files with a message naming the file', () => {
    const bad = (files: { name: string; bytes: Uint8Array }[], re: RegExp) => {
      let err: unknown;
      try {
        syncInputFromFiles(files);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ImportError);
      expect(String((err as Error).message)).toMatch(re);
    };
    bad([{ name: 'x.safetensors', bytes: new Uint8Array([255, 255, 255, 255, 255, 255, 255, 255, 1]) }], /x\.safetensors: safetensors: header length/);
    bad([{ name: 'x.safetensors', bytes: writeSafetensors({ a: { shape: [1], data: new Float32Array(1) } }) }], /needs tensors "source" and "target"/);
    bad(
      [{ name: 'x.safetensors', bytes: writeSafetensors({ source: { shape: [n, 2, 3], data: src }, target: { shape: [n, 3, 2], data: tgt } }) }],
      /"group" ids are missing/,
    );
    bad(
      [
        {
          name: 'x.safetensors',
          bytes: writeSafetensors({
            source: { shape: [n, 2, 3], data: src },
            target: { shape: [n, 3, 2], data: tgt },
            group: { shape: [n], data: new Int32Array(n) },
          }),
        },
      ],
      /at least 2 groups/,
    );
    bad(
      [
        {
          name: 'x.safetensors',
          bytes: writeSafetensors({ source: { shape: [n, 6], data: src }, target: { shape: [n, 3, 2], data: tgt }, group: { shape: [n], data: group } }),
        },
      ],
      /must be \[n, L, H\]/,
    );
    bad([{ name: 'source.npy', bytes: enc('not numpy at all') }], /source\.npy: npy: not a \.npy file/);
    const truncated = writeNpy(src, [n, 2, 3]).slice(0, 150);
    bad([{ name: 'source.npy', bytes: truncated }], /needs 192 bytes but the file holds/);
    bad([{ name: 'states.npy', bytes: writeNpy(src, [n, 2, 3]) }], /name it source\.npy/);
    bad([{ name: 'm.json', bytes: enc('{"__proto__": {"x": 1}, "group": []}') }], /m\.json/);
    bad([{ name: 'a.exe', bytes: enc('') }], /not a \.safetensors, \.npy or \.json/);
    bad([], /no file/);
  });
  it('reads npy headers strictly', () => {
    const good = writeNpy(Float64Array.from([1, 2, 3, 4, 5, 6]), [2, 3]);
    expect(readNpy(good)).toMatchObject({ dtype: 'f8', shape: [2, 3] });
    const text = new TextDecoder('latin1').decode(good);
    const swap = (from: string, to: string) => {
      const t = text.replace(from, to);
      return Uint8Array.from(t, (c) => c.charCodeAt(0));
    };
    expect(() => readNpy(swap("'fortran_order': False", "'fortran_order': True "))).toThrow(/Fortran/);
    expect(() => readNpy(swap("'<f8'", "'<c8'"))).toThrow(/not supported/);
    expect(() => readNpy(swap('(2, 3)', '(2, x)'))).toThrow(/not a whole number/);
    // Big-endian data is converted.
    const be = new Uint8Array(good);
    const beText = swap("'<f8'", "'>f8'");
    be.set(beText.subarray(0, be.length - 48));
    const dv = new DataView(be.buffer);
    const start = be.length - 48;
    for (let i = 0; i < 6; i++) dv.setFloat64(start + 8 * i, i + 1, false);
    expect(Array.from(readNpy(be).data as Float64Array)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('exports', () => {
  it('writes episodes as JSONL and states under ep<k>/<name>', () => {
    const eps = [episode(1), episode(0)];
    const lines = episodesJsonl(eps)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(10);
    expect(lines[0]).toMatchObject({ episode: 0, kind: 'meta' });
    expect(lines[5]).toMatchObject({ episode: 1, kind: 'meta' });
    const st = readSafetensors(statesSafetensors(eps, { run: 'r1' }));
    expect(Object.keys(st.tensors).sort()).toEqual(['ep0/statesA', 'ep1/statesA']);
    expect(st.metadata.run).toBe('r1');
    expect(episodesJsonl([])).toBe('');
  });
  it('writes typed arrays in the analysis as lists', () => {
    const a = analysis('p');
    (a.conditions[0].ab as unknown as { grid: unknown }).grid = Float64Array.from([0.5]);
    const back = JSON.parse(analysisJson([a], { run: 'r' }));
    expect(back.run).toBe('r');
    expect(back.analyses[0].conditions[0].ab.grid).toEqual([0.5]);
  });
});

describe('sync-format samples export', () => {
  /** Episodes whose B state at t+1 follows A's at t (a latent walk), 10 groups, 8 turns each. */
  function synthetic(): Episode[] {
    let s = 7;
    const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
    const L = 3;
    const H = 6;
    return Array.from({ length: 10 }, (_, g) => {
      let z = Array.from({ length: H }, rand);
      const states: Record<'A' | 'B', number[]> = { A: [], B: [] };
      const records: Record<string, unknown>[] = [{ ...meta, group: g, relationship: g % 3 }];
      for (let t = 0; t < 8; t++) {
        const speaker = t % 2 ? 'B' : 'A';
        for (let l = 0; l <= L; l++) for (let h = 0; h < H; h++) states[speaker].push(z[h] * (1 + 0.3 * l) + 0.05 * rand());
        records.push(turn(t, speaker, `t${t}`));
        z = z.map((_, h) => 0.8 * z[(h + 1) % H] + 0.4 * rand());
      }
      const tensor = (xs: number[]) => ({ dtype: 'F32' as const, shape: [xs.length / ((L + 1) * H), L + 1, H], data: Float32Array.from(xs) });
      return { index: g, records, tensors: { statesA: tensor(states.A), statesB: tensor(states.B) } };
    });
  }

  it('gives the analysis its own A→B and B→A SyncR² when read back (the CLI sync and the import see the same samples)', async () => {
    const { analyzeSynchrony } = await import('../../src/labs/synchrony/analysis');
    const { syncR2 } = await import('../../src/core/synchrony');
    const { defaultConfig } = await import('../../src/core/config');
    const { synchronyLab } = await import('../../src/labs/synchrony/config');
    const { syncSamplesSafetensors } = await import('../../src/labs/synchrony/view/exports');
    const eps = synthetic();
    const config = defaultConfig(synchronyLab);
    const { readSynchronyEpisode } = await import('../../src/labs/synchrony/records');
    const { createInProcessExecutor } = await import('../../src/core/grid-tasks');
    const real = (await analyzeSynchrony(config as never, eps.map(readSynchronyEpisode), undefined, { grids: createInProcessExecutor() })).conditions.find(
      (c) => c.condition === 'real',
    )!;
    for (const from of ['A', 'B'] as const) {
      const out = syncSamplesSafetensors(eps, { from });
      const input = syncInputFromFiles([{ name: 's.safetensors', bytes: out.bytes }]);
      const dir = from === 'A' ? real.ab! : real.ba!;
      // The analysis may choose α by cross-validation; the samples must give its numbers at the α it used.
      const r = syncR2(input.source, input.target, input.group, {
        alpha: dir.alpha ?? config.analysis.alpha,
        splitSeeds: config.analysis.splitSeeds,
        testFraction: config.analysis.testFraction,
      });
      expect(out.n).toBe(dir.n);
      expect(r.syncR2).toBeCloseTo(dir.syncR2, 12);
      expect(Array.from(r.r2)).toEqual(dir.grid.map((v) => expect.closeTo(v, 12)));
    }
    expect(() => syncSamplesSafetensors([{ index: 0, records: [], tensors: {} }])).toThrow();
  });
});
