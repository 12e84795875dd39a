import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCli } from '../helpers/cli';
import { writeSafetensors } from '../../src/core/safetensors';
import { parseCsv } from '../../cli/commands/analysis-io.ts';

const FIX = resolve(import.meta.dirname, '../fixtures/compute');
const ridge = JSON.parse(readFileSync(resolve(FIX, 'ridge.json'), 'utf8'));
const ckaF = JSON.parse(readFileSync(resolve(FIX, 'cka.json'), 'utf8'));
const stats = JSON.parse(readFileSync(resolve(FIX, 'stats.json'), 'utf8'));
const dir = mkdtempSync(join(tmpdir(), 'sml-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = runCli;

describe('CLI: sync, cka, mixedlm', () => {
  const c = ridge[0];
  const syncFile = join(dir, 'sync.safetensors');
  writeFileSync(
    syncFile,
    writeSafetensors({
      source: { shape: [c.n, c.LA, c.HA], data: Float32Array.from(c.source) },
      target: { shape: [c.n, c.LB, c.HB], data: Float32Array.from(c.target) },
      group: { shape: [c.n], data: Int32Array.from(c.group) },
    }),
  );
  const splitFile = join(dir, 'sync-split.safetensors');
  writeFileSync(
    splitFile,
    writeSafetensors({
      source: { shape: [c.n, c.LA, c.HA], data: Float32Array.from(c.source) },
      target: { shape: [c.n, c.LB, c.HB], data: Float32Array.from(c.target) },
      group: { shape: [c.n], data: Int32Array.from(c.group) },
      split: { shape: [c.n], data: Uint8Array.from(c.masks[0]) },
    }),
  );

  it('sync --json with an explicit split reproduces the numpy grid', async () => {
    const r = await run(['sync', splitFile, '--json', '--alpha', String(c.alpha)]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.r2PerSplit.length).toBe(1);
    const flat = (j.r2 as number[][]).flat();
    flat.forEach((v, i) => expect(Math.abs(v - c.r2PerSplit[0][i])).toBeLessThan(1e-6 * Math.max(1, Math.abs(c.r2PerSplit[0][i]))));
    for (const k of ['r2', 'r2PerSplit', 'best', 'syncR2', 'se', 'nTrain', 'nTest']) expect(j).toHaveProperty(k);
  });

  it('sync with split seeds, human-readable, and bad input', async () => {
    const j = JSON.parse((await run(['sync', syncFile, '--json', '--split-seeds', '0,1', '--test-fraction', '0.3'])).stdout);
    expect(j.r2PerSplit.length).toBe(2);
    expect(j.nTest[0]).toBeGreaterThanOrEqual(0.3 * c.n);
    const h = await run(['sync', syncFile]);
    expect(h.code).toBe(0);
    expect(h.stdout).toMatch(/SyncR² = \d\.\d{4} ± \d\.\d{4}/);
    const cv = JSON.parse((await run(['sync', syncFile, '--json', '--alpha-cv', '0.01,1e6', '--split-seeds', '0'])).stdout);
    expect(cv.alphaCv.alphas).toEqual([0.01, 1e6]);
    expect(cv.alpha).toBe(cv.alphaCv.scores[0] >= cv.alphaCv.scores[1] ? 0.01 : 1e6);
    expect((await run(['sync', syncFile, '--alpha', '1', '--alpha-cv', '1,2'])).stderr).toMatch(/either --alpha or --alpha-cv/);
    const bad = await run(['sync', join(dir, 'missing.safetensors')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/cannot read/);
    const noTarget = join(dir, 'nt.safetensors');
    writeFileSync(noTarget, writeSafetensors({ source: { shape: [2, 1, 1], data: new Float32Array(2) } }));
    expect((await run(['sync', noTarget])).stderr).toMatch(/"target" is missing/);
  });

  it('cka --json matches the numpy reference; permutations give p-values', async () => {
    const f = join(dir, 'cka.safetensors');
    writeFileSync(
      f,
      writeSafetensors({
        x: { shape: [ckaF.m, ckaF.L1, ckaF.H1], data: Float32Array.from(ckaF.x) },
        y: { shape: [ckaF.m, ckaF.L2, ckaF.H2], data: Float32Array.from(ckaF.y) },
      }),
    );
    const j = JSON.parse((await run(['cka', f, '--json'])).stdout);
    for (const kind of ['linear', 'debiased']) {
      (j[kind].grid as number[][]).flat().forEach((v, i) => expect(Math.abs(v - ckaF[kind].grid[i])).toBeLessThan(1e-10));
      expect(Math.abs(j[kind].global - ckaF[kind].global)).toBeLessThan(1e-10);
      expect(Math.abs(j[kind].maxAligned - ckaF[kind].maxAligned)).toBeLessThan(1e-10);
      expect(Math.abs(j[kind].regions.early - ckaF[kind].regions.early)).toBeLessThan(1e-10);
      expect(j[kind].p).toBeUndefined();
    }
    const p = JSON.parse((await run(['cka', f, '--json', '--permutations', '19'])).stdout);
    expect(p.linear.p.global).toBeGreaterThanOrEqual(1 / 20);
    expect(p.linear.p.grid.length).toBe(ckaF.L1);
    expect((await run(['cka', f])).stdout).toMatch(/max-aligned/);
  });

  it('mixedlm from a CSV equals statsmodels', async () => {
    const m = stats.mixedlm[1];
    const keys = ['y', 'sim', 'x2', 'colA', 'colB'];
    const csv =
      [keys.join(','), ...m.rows.y.map((_: number, i: number) => keys.map((k) => (k === 'colA' ? `"${m.rows[k][i]}"` : String(m.rows[k][i]))).join(','))].join(
        '\r\n',
      ) + '\r\n';
    const f = join(dir, 'rows.csv');
    writeFileSync(f, csv);
    const r = await run(['mixedlm', f, '--formula', 'y ~ sim + x2', '--crossed', 'colA,colB', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    j.coef.forEach((v: number, i: number) => expect(Math.abs(v - m.coef[i]) / Math.abs(m.coef[i])).toBeLessThan(1e-4));
    j.se.forEach((v: number, i: number) => expect(Math.abs(v - m.se[i]) / m.se[i]).toBeLessThan(1e-4));
    for (const k of ['coef', 'se', 'z', 'p', 'ciLow', 'ciHigh']) expect(j[k].length).toBe(3);
    const h = await run(['mixedlm', f, '--formula', 'y ~ sim + x2', '--crossed', 'colA,colB']);
    expect(h.stdout).toMatch(/sim\s+2\.05/);
    expect((await run(['mixedlm', f, '--crossed', 'colA'])).stderr).toMatch(/--formula is required/);
  });

  it('parses quoted CSV fields', () => {
    expect(parseCsv('a,b\n"x,""y""",2\n')).toEqual({ a: ['x,"y"'], b: ['2'] });
    expect(() => parseCsv('a,b\n1\n')).toThrow(/2 fields|1 fields/);
  });
});
