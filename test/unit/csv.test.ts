import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { csvParseRows } from 'd3-dsv';
import { describe, expect, it } from 'vitest';
import { csvCellText, neutraliseCsvText, readCsvText, toCsv, type CsvCell } from '../../src/core/csv';
import { barChartCsv, errorBarCsv, scatterCsv, seriesCsv } from '../../src/components/figure-csv';
import { gridCsv } from '../../src/components/heatmap-data';
import { resultsCsv } from '../../src/labs/synchrony/view/compare';
import type { SynchronyAnalysis } from '../../src/labs/synchrony/types';
import { agentsCsv, seriesCsv as polarizationSeriesCsv } from '../../src/labs/polarization/tables';
import type { AgentLog, EpochRow } from '../../src/labs/polarization/llm-runner';
import { gameRowsCsv, pooledCsv } from '../../src/labs/similarity/tables';
import type { SimilarityAnalysis } from '../../src/labs/similarity/analysis';
import type { GamesSummary } from '../../src/labs/similarity/games-analysis';
import { exportCsv as graphCsv } from '../../src/labs/opinions/editor/graph-io';
import { tableCsv } from '../../src/labs/opinions/fit-tables';
import { parseTrajectoryFiles, trajectoriesToCsv } from '../../src/labs/opinions/trajectory-io';
import { syntheticTrajectories } from '../../src/labs/opinions/synthetic-trajectories';
import { parseCsv as cliParseCsv } from '../../cli/commands/analysis-io';

interface RefCase {
  name: string;
  header: string[];
  rows: CsvCell[][];
  csv: string;
}
const ROOT = join(import.meta.dirname, '..', '..');
const reference = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/csv/reference.json'), 'utf8')) as { cases: RefCase[] };

const HOSTILE = ['=HYPERLINK("http://x","y")', "=cmd|' /C calc'!A0", '+1', '-2+3', '@SUM(A1)', '\tx', '\rx', 'a\rb', 'a\nb', 'say "hi", twice', 'Zoë 名前 🙂'];
const FORMULA_START = /^[=+\-@\t\r]/;

/** Every cell of a CSV file that begins like a formula and is not a number written as JavaScript writes it. */
function formulaCells(csv: string): string[] {
  expect(csv.endsWith('\n')).toBe(true);
  const rows = csvParseRows(csv.slice(0, -1));
  const width = rows[0].length;
  for (const r of rows) expect(r.length).toBe(width);
  return rows.flat().filter((c) => FORMULA_START.test(c) && !(Number.isFinite(Number(c)) && String(Number(c)) === c));
}

describe('toCsv against Python’s csv module (test/fixtures/make_csv_fixtures.py)', () => {
  it('holds the reference cases', () => {
    expect(reference.cases.length).toBeGreaterThanOrEqual(7);
  });
  for (const c of reference.cases) {
    it(`writes the same bytes: ${c.name}`, () => {
      expect(toCsv(c.header, c.rows)).toBe(c.csv);
    });
  }
});

describe('toCsv neutralises formula cells and quotes what would break rows', () => {
  it('prefixes a quote to text that begins with = + - @ TAB or CR, header cells included', () => {
    const csv = toCsv(HOSTILE, [HOSTILE]);
    const rows = csvParseRows(csv.slice(0, -1));
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(r).toHaveLength(HOSTILE.length);
      r.forEach((cell, k) => expect(cell).toBe(FORMULA_START.test(HOSTILE[k]) ? `'${HOSTILE[k]}` : HOSTILE[k]));
    }
    expect(formulaCells(csv)).toEqual([]);
    expect(toCsv(['h'], [['=HYPERLINK("http://x","y")']])).toBe('h\n"\'=HYPERLINK(""http://x"",""y"")"\n');
    expect(toCsv(['h'], [["=cmd|' /C calc'!A0"]])).toBe("h\n'=cmd|' /C calc'!A0\n");
    expect(toCsv(['h'], [['@SUM(A1)'], ['+1'], ['-2+3'], ['\tx']])).toBe("h\n'@SUM(A1)\n'+1\n'-2+3\n'\tx\n");
  });
  it('quotes a bare carriage return, so that it never ends a row', () => {
    expect(toCsv(['h', 'i'], [['a\rb', '\rx']])).toBe('h,i\n"a\rb","\'\rx"\n');
    expect(toCsv(['h'], [['a\r\nb'], ['a\nb']])).toBe('h\n"a\r\nb"\n"a\nb"\n');
  });
  it('quotes quotes and commas, and leaves unicode as it is', () => {
    expect(toCsv(['say "hi"', 'one, two'], [['Zoë 名前 🙂', '−1']])).toBe('"say ""hi""","one, two"\nZoë 名前 🙂,−1\n');
  });
  it('writes numbers as numbers, negative ones unchanged; non-finite and missing values are empty', () => {
    expect(
      toCsv(
        ['a', 'b', 'c', 'd'],
        [
          [-0.5, -1, 0, 1e-7],
          [NaN, Infinity, -Infinity, null],
          [undefined, true, false, -0],
        ],
      ),
    ).toBe('a,b,c,d\n-0.5,-1,0,1e-7\n,,,\n,true,false,0\n');
    expect(csvCellText(-0.5)).toBe('-0.5');
    // A pre-formatted number is text, and text is neutralised: pass numbers as numbers.
    expect(csvCellText('-0.50')).toBe("'-0.50");
  });
  it('writes a one-column row with an empty cell as "" so that it is not a blank line', () => {
    expect(toCsv(['only'], [[''], [null], ['x']])).toBe('only\n""\n""\nx\n');
    expect(csvParseRows('only\n""\n""\nx')).toEqual([['only'], [''], [''], ['x']]);
  });
  it('reads its own neutralised text back', () => {
    for (const h of HOSTILE) expect(readCsvText(neutraliseCsvText(h))).toBe(h);
    expect(readCsvText("'plain")).toBe("'plain");
    expect(readCsvText("'-1")).toBe('-1');
  });
});

describe('every CSV export neutralises hostile text', () => {
  const h = (k: number) => HOSTILE[k % HOSTILE.length];

  it('plots: heatmap grid, XY series, error bars, scatter, bar chart', () => {
    const outs = [
      gridCsv([0.1, -0.2, NaN, 0.3], 2, 2, { sourceName: h(0), targetName: h(1), valueName: h(3), best: [0, 1] }),
      seriesCsv(h(0), [
        { name: h(1), x: [0, 1], y: [-0.5, 0.5] },
        { name: h(6), x: [1], y: [-1] },
      ]),
      errorBarCsv(
        h(0),
        h(2),
        HOSTILE.map((label, k) => ({ label, y: -k / 10, err: k ? 0.1 : null, note: h(k + 1) })),
      ),
      scatterCsv(
        h(3),
        h(4),
        HOSTILE.map((label, k) => ({ label, x: -k, y: k - 0.5 })),
      ),
      barChartCsv(HOSTILE, [
        { name: h(0), values: HOSTILE.map((_, k) => (k % 3 ? -k : null)) },
        { name: h(5), values: [] },
      ]),
    ];
    for (const csv of outs) expect(formulaCells(csv)).toEqual([]);
    // the negative numbers are still there, as numbers
    expect(outs[1]).toContain('\n0,-0.5,\n');
    expect(outs[3]).toContain(',-1,0.5\n');
  });

  it('synchrony results', () => {
    const cond = (k: number) => ({
      condition: h(k),
      label: h(k + 1),
      syncR2: -0.05,
      se: 0.02,
      n: 40,
      ab: { syncR2: -0.1, se: 0.01, n: 20, groups: 4, alpha: 0.5 },
      ba: null,
      warnings: [h(k + 2), h(k + 3)],
    });
    const analysis = { pair: h(0), conditions: HOSTILE.map((_, k) => cond(k)), alpha: 0.1, splitSeeds: [0, 1], episodes: 6 } as unknown as SynchronyAnalysis;
    const csv = resultsCsv([analysis]);
    expect(formulaCells(csv)).toEqual([]);
    expect(csv.split('\n')[1]).toMatch(/,-0\.05,0\.02,40,-0\.1,0\.01,20,4,0\.5,/);
  });

  it('polarization series and agents (model-written reasons)', () => {
    const series: EpochRow[] = HOSTILE.map((s, k) => ({ epoch: k, P: -0.5, H: 0.25, distribution: [1, 2, 0, 0, 1], rewires: 0, intervention: s }));
    const logs: AgentLog[] = HOSTILE.map((reasons, k) => ({
      kind: 'agent',
      epoch: 1,
      agent: k,
      received: 2,
      before: -2,
      after: -1,
      reasons,
      kept: [1, 2],
      dropped: [],
      sentTo: [3],
      failures: 0,
    }));
    const s = polarizationSeriesCsv(series);
    const a = agentsCsv(logs);
    expect(formulaCells(s)).toEqual([]);
    expect(formulaCells(a)).toEqual([]);
    expect(a.split('\n')[0]).toBe('epoch,agent,received,stance_before,stance_after,kept,dropped,wrote_to,failures,reasons');
    expect(csvParseRows(a)[1]).toEqual(['1', '0', '2', '-2', '-1', '1 2', '', '3', '0', `'${HOSTILE[0]}`]);
  });

  it('similarity pooled table and outcome rows', () => {
    const grid = { grid: [], global: -0.01, maxAligned: 0.5, regions: { early: 0.1, mid: -0.2, late: 0.3 } };
    const pairs = HOSTILE.map((a, k) => ({ a, b: h(k + 1), La: 6, Lb: 6, linear: grid, debiased: grid }));
    const analysis = { m: 64, probeSet: h(2), pairs } as unknown as SimilarityAnalysis;
    const rows = HOSTILE.map((game, k) => ({
      game,
      focal: h(k + 1),
      partner: h(k + 2),
      repeat: k,
      score: -1,
      partnerScore: 1,
      sim: -0.1,
      simMaxAligned: null,
      simEarly: 0.2,
    }));
    for (const csv of [pooledCsv(analysis, 'linear'), pooledCsv(analysis, 'debiased'), gameRowsCsv({ rows } as unknown as Pick<GamesSummary, 'rows'>)])
      expect(formulaCells(csv)).toEqual([]);
    // what the CLI's mixedlm reads back is what was written
    const back = cliParseCsv(gameRowsCsv({ rows } as unknown as Pick<GamesSummary, 'rows'>));
    expect(back.game).toEqual(HOSTILE);
    expect(back.score.every((v) => v === '-1')).toBe(true);
  });

  it('opinions: graph edge list, fit tables, trajectory votes, edges and features', () => {
    const g = graphCsv({
      positions: [
        [0, 0],
        [1, 1],
        [2, 2],
      ],
      edges: [
        [0, 1, 1],
        [1, 2, -1],
      ],
    } as Parameters<typeof graphCsv>[0]);
    expect(g).toBe('source,target,sign\n0,1,1\n1,2,-1\n');
    const table = {
      id: 't',
      title: 't',
      columns: [h(0), ...HOSTILE.slice(1)],
      rows: HOSTILE.map((s, k) => [s, ...HOSTILE.slice(1).map((_, j) => (j % 2 ? -k - 0.5 : null))]),
    };
    const syn = syntheticTrajectories({ couplings: { kind: 'one', beta: 0.5 }, seed: 'csv-safe', graphs: 1, questions: 2, episodes: 1, agents: 4, rounds: 2 });
    // ids may begin with '-' (the id alphabet allows it): neutralised on the way out, restored on the way in
    const hostileIds = syn.map((t, k) => ({
      ...t,
      id: `-t${k}`,
      graphId: '-g',
      question: { ...t.question, id: `-q${k}` },
      featureNames: t.features ? t.features[0].map((_, f) => `-f${f}`) : undefined,
    }));
    const csv = trajectoriesToCsv(hostileIds);
    expect(csv.features?.split('\n')[0]).toMatch(/^trajectory,agent,'-f0,'-f1,/);
    for (const out of [g, tableCsv(table), csv.votes, csv.edges, ...(csv.features ? [csv.features] : [])]) expect(formulaCells(out)).toEqual([]);
    const files = [{ name: 'v.csv', text: csv.votes }, { name: 'e.csv', text: csv.edges }, ...(csv.features ? [{ name: 'f.csv', text: csv.features }] : [])];
    const back = parseTrajectoryFiles(files);
    expect(back.ok && back.file.trajectories).toEqual(hostileIds);
  });
});

describe('one way to write CSV', () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ts|svelte)$/.test(name) && !name.endsWith('.d.ts')) files.push(p);
    }
  };
  for (const d of ['src', 'workers', 'cli']) walk(join(ROOT, d));
  const WRITER = 'src/core/csv.ts';
  const text = new Map(files.map((f) => [relative(ROOT, f), readFileSync(f, 'utf8')]));
  const importsWriter = (src: string) => /from\s+['"][./]*(?:\.\.\/)*(?:src\/)?core\/csv(?:\.ts)?['"]/.test(src);

  it('finds the sources', () => {
    expect(text.size).toBeGreaterThan(50);
    expect(text.has(WRITER)).toBe(true);
  });

  it('no file but the writer quotes by hand or formats with d3-dsv', () => {
    // Doubling quotes is what every hand-written CSV quoter does; d3-dsv's formatters belong to the writer alone.
    const handQuoting = /replace\(\s*\/"\/g\s*,\s*['"`]""['"`]\s*\)|replaceAll\(\s*['"`]"['"`]\s*,\s*['"`]""['"`]\s*\)/;
    const dsvFormat = /\b(?:csv|tsv|dsv)Format(?:Rows|Row|Body|Value)?\b|\bdsvFormat\(/;
    const offenders = [...text].filter(([f, s]) => f !== WRITER && (handQuoting.test(s) || (/from\s+['"]d3-dsv['"]/.test(s) && dsvFormat.test(s))));
    expect(offenders.map(([f]) => f)).toEqual([]);
  });

  it('every exported …Csv writer and every file that saves text/csv goes through the writer', () => {
    // A module that defines an exported CSV writer (exportCsv, gridCsv, tableCsv, …; not a reader or downloadCsv) imports the writer.
    const writerFn = /export\s+function\s+(?!parse|import|read|download)\w*Csv\b/;
    const writers = [...text].filter(([f, s]) => f !== WRITER && writerFn.test(s));
    expect(writers.length).toBeGreaterThanOrEqual(8);
    expect(writers.filter(([, s]) => !importsWriter(s)).map(([f]) => f)).toEqual([]);
    // A file that saves CSV (a text/csv blob, downloadCsv) gets the text from such a module or the writer itself.
    const writerModules = new Set(writers.map(([f]) => f.replace(/\.ts$/, '')));
    const savers = [...text].filter(
      ([f, s]) => f !== 'src/components/export-figure.ts' && (/text\/csv/.test(s.replace(/accept="[^"]*"/g, '')) || /downloadCsv\(/.test(s)),
    );
    expect(savers.length).toBeGreaterThanOrEqual(8);
    const viaWriter = ([f, s]: [string, string]) =>
      importsWriter(s) ||
      [...s.matchAll(/from\s+['"](\.[^'"]+)['"]/g)].some((m) => writerModules.has(relative(ROOT, join(ROOT, f, '..', m[1])).replace(/\.ts$/, '')));
    expect(savers.filter((x) => !viaWriter(x)).map(([f]) => f)).toEqual([]);
  });
});
