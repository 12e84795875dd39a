import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as Comlink from 'comlink';
import { computeApi, type ComputeApi } from '../../src/core/compute-api';
import { mixedLMFromColumns } from '../../src/core/analysis-api';
import { runStepsAsync, type LayerStack } from '../../src/core/ridge';
import { CancelledError } from '../../src/core/cancel';

const FIX = resolve(import.meta.dirname, '../fixtures/compute');
const ridge = JSON.parse(readFileSync(resolve(FIX, 'ridge.json'), 'utf8'));
const ckaF = JSON.parse(readFileSync(resolve(FIX, 'cka.json'), 'utf8'));
const stats = JSON.parse(readFileSync(resolve(FIX, 'stats.json'), 'utf8'));
const c = ridge[0];
const source: LayerStack = { data: Float32Array.from(c.source), n: c.n, L: c.LA, H: c.HA };
const target: LayerStack = { data: Float32Array.from(c.target), n: c.n, L: c.LB, H: c.HB };

/** The compute worker's exact setup (Comlink.expose(computeApi)), over an in-process MessageChannel. */
function connect(): { api: Comlink.Remote<ComputeApi>; close: () => void } {
  const { port1, port2 } = new MessageChannel();
  Comlink.expose(computeApi, port1 as unknown as Comlink.Endpoint);
  const api = Comlink.wrap<ComputeApi>(port2 as unknown as Comlink.Endpoint);
  return {
    api,
    close: () => {
      port1.close();
      port2.close();
    },
  };
}

describe('compute API through comlink', () => {
  it('syncR2 with an explicit split matches the numpy reference, reports progress, and returns cloneable data', async () => {
    const { api, close } = connect();
    try {
      const seen: number[] = [];
      const res = await api.syncR2(
        source,
        target,
        c.group,
        { alpha: c.alpha, split: Uint8Array.from(c.masks[0]) },
        Comlink.proxy((d: number, t: number) => {
          seen.push(d / t);
        }),
      );
      let m = 0;
      res.r2.forEach((v, i) => (m = Math.max(m, Math.abs(v - c.r2PerSplit[0][i]) / Math.max(1, Math.abs(c.r2PerSplit[0][i])))));
      expect(m).toBeLessThan(1e-6);
      expect(res.r2).toBeInstanceOf(Float64Array);
      await new Promise((r) => setTimeout(r, 20));
      expect(seen.length).toBeGreaterThan(0);
      expect(structuredClone(res)).toEqual(res);
    } finally {
      close();
    }
  });

  it('a job can be cancelled by id while it runs', async () => {
    const { api, close } = connect();
    try {
      const p = api.syncR2(source, target, c.group, { splitSeeds: [0, 1, 2, 3, 4, 5] }, undefined, 'job-1');
      await api.cancel('job-1');
      await expect(p).rejects.toThrow(/cancelled/);
      // the id is free again afterwards
      const ok = await api.syncR2(source, target, c.group, { splitSeeds: [0] }, undefined, 'job-1');
      expect(ok.r2PerSplit.length).toBe(1);
    } finally {
      close();
    }
  });

  it('cka, statistics and safetensors entries agree with the references', async () => {
    const { api, close } = connect();
    try {
      const x: LayerStack = { data: Float32Array.from(ckaF.x), n: ckaF.m, L: ckaF.L1, H: ckaF.H1 };
      const y: LayerStack = { data: Float32Array.from(ckaF.y), n: ckaF.m, L: ckaF.L2, H: ckaF.H2 };
      const r = await api.cka(x, y, { orders: ckaF.orders });
      expect(Math.abs(r.debiased.global - ckaF.debiased.global)).toBeLessThan(1e-10);
      expect(Array.from(r.linear.p!.grid)).toEqual(ckaF.linear.p.grid);
      const pr = await api.pearson(stats.x, stats.y);
      expect(pr.r).toBeCloseTo(stats.pearson.r, 12);
      const pc = await api.partialCorrelation(stats.x, stats.y, [stats.z1, stats.z2]);
      expect(pc.r).toBeCloseTo(stats.partial.r, 10);
      const o = await api.ols(stats.y, [stats.x, stats.z1, stats.z2]);
      expect(o.coef[1]).toBeCloseTo(stats.ols.coef[1], 10);
      const bytes = await api.writeSafetensors({ a: { shape: [2], data: Float64Array.from([1, 2]) } });
      expect(Array.from((await api.readSafetensors(bytes)).tensors.a.data as Float64Array)).toEqual([1, 2]);
      const mask = await api.groupedSplit(c.group, 0.2, 0);
      expect(mask.length).toBe(c.n);
    } finally {
      close();
    }
  });

  it('runStepsAsync yields through a MessageChannel where setImmediate is missing (browsers)', async () => {
    function* steps() {
      for (let i = 1; i <= 3; i++) yield { done: i, total: 3 };
      return 'ok';
    }
    const saved = globalThis.setImmediate;
    (globalThis as { setImmediate?: unknown }).setImmediate = undefined;
    try {
      const seen: number[] = [];
      expect(await runStepsAsync(steps(), { onProgress: (d) => seen.push(d) })).toBe('ok');
      expect(seen).toEqual([1, 2, 3]);
      const abort = new AbortController();
      await expect(runStepsAsync(steps(), { onProgress: (d) => d === 2 && abort.abort(), signal: abort.signal })).rejects.toBeInstanceOf(CancelledError);
    } finally {
      globalThis.setImmediate = saved;
    }
  });

  it('mixedLM from a formula over named columns equals statsmodels', () => {
    const m = stats.mixedlm[0];
    const r = mixedLMFromColumns(m.rows, 'y ~ sim + x2', ['colA', 'colB']);
    r.coef.forEach((v, i) => expect(Math.abs(v - m.coef[i]) / Math.abs(m.coef[i])).toBeLessThan(1e-4));
    r.se.forEach((v, i) => expect(Math.abs(v - m.se[i]) / m.se[i]).toBeLessThan(1e-4));
    expect(() => mixedLMFromColumns(m.rows, 'y ~ nope', ['colA'])).toThrow(/not found/);
    expect(() => mixedLMFromColumns({ ...m.rows, bad: m.rows.y.map(() => 'x') }, 'y ~ bad', ['colA'])).toThrow(/not a number/);
  });
});
