// Polarization metrics against numpy (test/fixtures/ising/polarization.json) and the classic baselines.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createRng } from '../../src/core/rng';
import { polarization, homophily, opinionDistribution, linkHomophily, echoChamberTable, LEVELS } from '../../src/core/polarization/metrics';
import { coevolvingVoter, boundedConfidence, initialOpinions } from '../../src/core/polarization/classic';
import { ringLattice } from '../../src/core/graphs/directed';
import { validateConfig } from '../../src/core/config';
import { polarizationLab } from '../../src/labs/polarization/config';
import type { PolarizationConfig } from '../../src/labs/polarization/network';

const fx = JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures/ising/polarization.json'), 'utf8'));
const g = { n: fx.n as number, out: fx.out as number[][] };

describe('metrics vs numpy', () => {
  it('P(t) and H(t) over the fixture history', () => {
    fx.history.forEach((x: number[], t: number) => {
      expect(polarization(x)).toBeCloseTo(fx.P[t], 12);
      expect(homophily(g, x)).toBeCloseTo(fx.H[t], 12);
    });
  });

  it('final distribution', () => {
    expect(LEVELS).toEqual([-2, -1, 0, 1, 2]);
    expect(opinionDistribution(fx.history[fx.history.length - 1])).toEqual(fx.distribution);
  });

  it('echo-chamber / backfire table over 5-epoch windows', () => {
    const t = echoChamberTable(fx.history, fx.interactions);
    expect(t.windows).toBe(2);
    for (const side of ['same', 'opposing', 'neutral'] as const)
      for (const rad of ['moreModerate', 'same', 'moreRadical'] as const) {
        const ref = fx.cells[side]?.[rad];
        expect(t.cells[side][rad].count).toBe(ref ? ref.count : 0);
        if (ref) expect(t.cells[side][rad].meanChange).toBeCloseTo(ref.meanChange, 12);
      }
    const opp = Object.values(fx.cells.opposing ?? {}) as { count: number; meanChange: number }[];
    const n = opp.reduce((a, c) => a + c.count, 0);
    expect(t.backfire).toBeCloseTo(opp.reduce((a, c) => a + c.count * c.meanChange, 0) / n, 12);
    expect(t.records.length).toBe(
      Object.values(fx.cells)
        .flatMap((d) => Object.values(d as object))
        .reduce((a, c) => a + c.count, 0),
    );
  });
});

describe('metric definitions', () => {
  it('H counts neutral ends in the denominator only; the seed shares give H ≈ 0.18 on a random layout', () => {
    const ring = ringLattice(4, 2);
    expect(homophily(ring, [1, 2, 0, -1])).toBeCloseTo(2 / 8, 12); // 0↔1 both ways
    const rng = createRng(1);
    const x = initialOpinions(2000, rng);
    const big = { n: 2000, out: Array.from({ length: 2000 }, (_, i) => [(i + 1 + rng.int(1998)) % 2000]) };
    expect(homophily(big, x)).toBeGreaterThan(0.15);
    expect(homophily(big, x)).toBeLessThan(0.21);
  });

  it('link-level homophily matrix and same-side shares', () => {
    const gg = { n: 3, out: [[1, 2], [0], [1]] };
    const r = linkHomophily(gg, [2, 1, -1]);
    expect(r.counts[4][3]).toBe(1);
    expect(r.counts[4][1]).toBe(1);
    expect(r.sameSideShare[4]).toBe(0.5);
    expect(r.sameSideShare[3]).toBe(1);
    expect(r.sameSideShare[1]).toBe(0);
    expect(Number.isNaN(r.sameSideShare[2])).toBe(true);
  });

  it('echo chamber: a radical same-side partner and a more polarised agent land in (same, moreRadical)', () => {
    const hist = [
      [1, 2],
      [1, 2],
      [2, 2],
    ];
    const t = echoChamberTable(hist, [[[0, 1]], [[0, 1]]], { window: 2 });
    expect(t.cells.same.moreRadical).toEqual({ count: 1, meanChange: 1 });
    expect(t.echoChamber).toBe(1);
    expect(t.records[0]).toMatchObject({ agent: 0, prior: 1, post: 2, partners: 2 });
  });
});

describe('classic baselines', () => {
  it('initial opinions follow the shares exactly', () => {
    expect(opinionDistribution(initialOpinions(100, createRng(2)))).toEqual([10, 20, 40, 20, 10]);
    expect(initialOpinions(7, createRng(2)).length).toBe(7);
  });

  it('coevolving voter: φ = 1 only rewires (opinions fixed, H rises); φ = 0 only adopts (no rewires)', () => {
    const g0 = ringLattice(200, 4);
    const x0 = initialOpinions(200, createRng(3));
    const rw = coevolvingVoter(g0, x0, { phi: 1, epochs: 20 }, createRng(4));
    expect(rw.final).toEqual(x0);
    expect(rw.rewires).toBeGreaterThan(0);
    expect(rw.H[20]).toBeGreaterThan(rw.H[0] + 0.2);
    expect(g0.out[0]).toEqual(ringLattice(200, 4).out[0]); // input graph untouched
    const ad = coevolvingVoter(g0, x0, { phi: 0, epochs: 20 }, createRng(4));
    expect(ad.rewires).toBe(0);
    expect(ad.final).not.toEqual(x0);
    expect(ad.history.length).toBe(21);
    expect(ad.P[0]).toBeCloseTo(polarization(x0), 12);
    // same seed, same run
    expect(coevolvingVoter(g0, x0, { phi: 0.3, epochs: 5 }, createRng(9)).final).toEqual(coevolvingVoter(g0, x0, { phi: 0.3, epochs: 5 }, createRng(9)).final);
  });

  it('bounded confidence: a wide confidence drives consensus towards the mean; a narrow one freezes the opinions', () => {
    const g0 = ringLattice(100, 4);
    const x0 = initialOpinions(100, createRng(5));
    const wide = boundedConfidence(g0, x0, { confidence: 5, epochs: 300 }, createRng(6));
    const spread = Math.max(...wide.final) - Math.min(...wide.final);
    expect(spread).toBeLessThan(0.2); // from 4 at the start
    const mean0 = x0.reduce((a, b) => a + b, 0) / 100;
    expect(Math.abs(wide.final.reduce((a, b) => a + b, 0) / 100 - mean0)).toBeLessThan(1e-9); // pairwise moves conserve the sum
    const narrow = boundedConfidence(g0, x0, { confidence: 0.5, epochs: 10, rewire: 0.5 }, createRng(6));
    expect(narrow.final).toEqual(x0); // levels differ by ≥ 1 > 0.5, so nobody moves
    expect(narrow.rewires).toBeGreaterThan(0);
  });

  it("the lab's default bounded-confidence threshold lets neighbouring levels meet, so P(t) moves", () => {
    const v = validateConfig(polarizationLab, {});
    if (!v.ok) throw new Error('the default config does not validate');
    const { threshold, convergence } = (v.value as PolarizationConfig).boundedConfidence;
    const g0 = ringLattice(100, 4);
    const x0 = initialOpinions(100, createRng(5));
    const run = boundedConfidence(g0, x0, { confidence: threshold, mu: convergence, epochs: 30 }, createRng(6));
    expect(run.final).not.toEqual(x0);
    expect(polarization(run.final.map((v) => Math.round(v)))).not.toBeCloseTo(polarization(x0.map((v) => Math.round(v))), 3);
  });

  it("the lab's default coevolving-voter run changes opinions too", () => {
    const v = validateConfig(polarizationLab, {});
    if (!v.ok) throw new Error('the default config does not validate');
    const c = v.value as PolarizationConfig;
    const x0 = initialOpinions(c.agents, createRng(5));
    const run = coevolvingVoter(ringLattice(c.agents, c.network.degree), x0, { phi: c.voter.rewireToLikeMinded, epochs: c.epochs }, createRng(6));
    expect(run.final).not.toEqual(x0);
  });
});
