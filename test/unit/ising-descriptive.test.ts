// Archetypes, regimes, correctness counts, model predictions, scores and the temperature sweep.
import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng';
import { randomSigned, squareLattice } from '../../src/core/graphs/generators';
import { netOpinion, conviction, individualArchetypes, groupArchetype, splitBand, regimes, correctness, quantile } from '../../src/core/ising/archetypes';
import { predictProb, predictNext, rollout, rolloutStochastic, modelFromFit, type DynamicsModel } from '../../src/core/ising/models';
import { scoreOneStep, scoreRollout, accumulate, emptyAccuracy } from '../../src/core/ising/scores';
import { fitInteractionFree, fitMeanField, fitMajority, PERSISTENCE } from '../../src/core/ising/baselines';
import { fitGlauber, fieldsFor, pqColumns } from '../../src/core/ising/fit';
import { buildDesign, episodeSteps, featureCountOf, selectColumns, type Episode } from '../../src/core/ising/design';
import { COUPLING_NAMES } from '../../src/core/ising/couplings';
import { INDIVIDUAL_ARCHETYPES, GROUP_ARCHETYPES } from '../../src/core/ising/archetypes';
import { temperatureSweep, logSpace } from '../../src/core/ising/sweep';
import { simulateGlauber, sigmoid } from '../../src/core/ising/simulate';

describe('descriptive statistics', () => {
  it('n(t) and c(t) from vote means', () => {
    const o = [0.2, -0.6, 1, 1, 1, -1, -0.2, 0.6];
    expect(Array.from(netOpinion(o, 4)).map((v) => +v.toFixed(12))).toEqual([0.4, 0.1]);
    expect(conviction(o, 4)[0]).toBeCloseTo((0.04 + 0.36 + 1 + 1) / 4, 12);
  });

  it('individual archetypes by the number of switches', () => {
    // rows are rounds; agents switch never, once, twice, three times
    const s = [1, 1, 1, 1, /**/ 1, -1, -1, -1, /**/ 1, -1, -1, 1, /**/ 1, -1, 1, -1, /**/ 1, -1, 1, -1];
    const r = individualArchetypes(s, 4);
    expect(Array.from(r.switches)).toEqual([0, 1, 2, 3]);
    expect(r.labels).toEqual(['Frozen', 'Switcher', 'Intermittent', 'Oscillator']);
    expect(r.counts).toEqual({ Frozen: 1, Switcher: 1, Intermittent: 1, Oscillator: 1 });
  });

  it('group archetypes with the δ = 0.2 band', () => {
    expect(splitBand(0.2)).toBe(1);
    expect(splitBand(-0.19)).toBe(0);
    expect(groupArchetype(0.1, -0.1)).toBe('Persistent Split');
    expect(groupArchetype(0, 0.5)).toBe('Convergence');
    expect(groupArchetype(0.4, 0.9)).toBe('Persistent Majority');
    expect(groupArchetype(-0.4, 0.1)).toBe('Divergence');
    expect(groupArchetype(-0.4, 0.3)).toBe('Majority Switch');
    expect(groupArchetype(0.3, 0.1, 0.05)).toBe('Persistent Majority');
  });

  it('regimes: indifference below the 1/3 conviction quantile, then |n| vs the committed median', () => {
    const groups = [
      { n: 0.9, c: 0.9 },
      { n: 0.05, c: 0.95 },
      { n: 0.1, c: 0.2 },
      { n: 0.6, c: 0.8 },
      { n: -0.2, c: 0.85 },
      { n: 0.3, c: 0.1 },
    ];
    const r = regimes(groups);
    expect(r.convictionThreshold).toBeCloseTo(
      quantile(
        groups.map((g) => g.c),
        1 / 3,
      ),
      12,
    );
    expect(r.labels).toEqual(['consensus', 'polarization', 'indifference', 'consensus', 'polarization', 'indifference']);
  });

  it('correctness: majority-correct fraction and wrong→right / right→wrong counts', () => {
    const a = { states: [1, 1, -1, /**/ -1, 1, -1, /**/ -1, -1, -1], n: 3, yTrue: -1 };
    const b = { states: [1, 1, 1, /**/ 1, 1, -1, /**/ 1, 1, 1], n: 3, yTrue: 1 };
    const r = correctness([a, b]);
    expect(Array.from(r.majorityCorrect)).toEqual([0.5, 1, 1]);
    expect(r.wrongToRight).toBe(1 + 1 + 1); // a: agent0 at t0→1, agent1 at t1→2; b: agent2 at t1→2
    expect(r.rightToWrong).toBe(1); // b: agent2 at t0→1
  });
});

function toyEpisodes(seed: string, count: number): Episode[] {
  const rng = createRng(seed);
  const out: Episode[] = [];
  for (let k = 0; k < count; k++) {
    const g = randomSigned(16, { budget: 40 }, rng);
    const features = new Float64Array(16 * 2).map((_, idx) => (idx % 2 === 0 ? 1 : rng.normal()));
    const ep: Episode = { graph: g, states: new Int8Array(0), features, featureCount: 2, yTrue: 1 };
    const s0 = Int8Array.from({ length: 16 }, () => (rng.next() < 0.5 ? 1 : -1));
    ep.states = simulateGlauber(g, { couplings: { kind: 'one', beta: 0.7 }, fields: fieldsFor(ep, 'features', [0.2, 0.8]) }, s0, 6, rng).states!;
    out.push(ep);
  }
  return out;
}

describe('models, baselines and scores', () => {
  const eps = toyEpisodes('toy', 20);

  it('design rows and feature counts', () => {
    const d = buildDesign(eps, 'three', 'features');
    expect(d.rows).toBe(20 * 16 * 6);
    expect(d.names).toEqual(['betaPlus', 'betaMinus', 'beta0', 'w0', 'w1']);
    expect(episodeSteps(eps[0])).toBe(6);
    expect(featureCountOf(eps, 'bias')).toBe(1);
    expect(buildDesign(eps, 'meanField', 'none').cols).toBe(1);
    expect(() => buildDesign([{ ...eps[0], features: undefined }], 'one', 'features')).toThrow();
    expect(() => buildDesign([{ ...eps[0], yTrue: undefined }], 'five', 'features')).toThrow(/yTrue/);
    expect(pqColumns(16, 3)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18]);
    expect(pqColumns(2, 3)).toEqual([]);
    const sub = selectColumns(d, [2, 4]);
    for (let r = 0; r < d.rows; r += 97) expect([sub[2 * r], sub[2 * r + 1]]).toEqual([d.X[r * d.cols + 2], d.X[r * d.cols + 4]]);
    expect(Object.values(COUPLING_NAMES).map((c) => c.length)).toEqual([1, 3, 5]);
    expect([INDIVIDUAL_ARCHETYPES.length, GROUP_ARCHETYPES.length]).toEqual([4, 5]);
  });

  it('predictions: persistence, majority, mean-field, interaction-free and Glauber laws', () => {
    const e = eps[0];
    const s = e.states.subarray(0, 16);
    expect(Array.from(predictNext(PERSISTENCE, e, s))).toEqual(Array.from(s));
    expect(Array.from(predictProb({ type: 'majority', label: -1 }, e, s))).toEqual(new Array(16).fill(0));
    const g = fieldsFor(e, 'features', [0.2, 0.8]);
    const sbar = s.reduce((a, b) => a + b, 0) / 16;
    const mf = predictProb({ type: 'meanField', beta: 0.5, field: 'features', fieldWeights: [0.2, 0.8] }, e, s);
    const iff = predictProb({ type: 'interactionFree', field: 'features', fieldWeights: [0.2, 0.8] }, e, s);
    const m: DynamicsModel = { type: 'glauber', couplings: { kind: 'one', beta: 0.7 }, field: 'features', fieldWeights: [0.2, 0.8], link: 'eps', eps: 0.4 };
    const pe = predictProb(m, e, s);
    for (let i = 0; i < 16; i++) {
      expect(mf[i]).toBeCloseTo(sigmoid(g[i] + 0.5 * sbar), 12);
      expect(iff[i]).toBeCloseTo(sigmoid(g[i]), 12);
      expect(pe[i]).toBeGreaterThanOrEqual(s[i] > 0 ? 0.6 : 0);
      expect(pe[i]).toBeLessThanOrEqual(s[i] > 0 ? 1 : 0.4);
    }
  });

  it('rollouts: persistence keeps s(0); stochastic rollouts are seeded', () => {
    const r = rollout(PERSISTENCE, eps[1]);
    for (let t = 0; t <= 6; t++) expect(Array.from(r.subarray(t * 16, (t + 1) * 16))).toEqual(Array.from(eps[1].states.subarray(0, 16)));
    const fit = modelFromFit(fitGlauber(eps, { kind: 'one', maxSteps: 300 }));
    const a = rolloutStochastic(fit, eps[1], createRng(3));
    expect(Array.from(a)).toEqual(Array.from(rolloutStochastic(fit, eps[1], createRng(3))));
  });

  it('baselines fit what they should: the majority label, a field-only and a mean-field law', () => {
    const maj = fitMajority(eps);
    let sum = 0;
    for (const e of eps) for (let k = 16; k < e.states.length; k++) sum += e.states[k];
    expect(maj).toEqual({ type: 'majority', label: sum >= 0 ? 1 : -1 });
    const iff = fitInteractionFree(eps, 'features', { maxSteps: 400 });
    const mf = fitMeanField(eps, 'features', { maxSteps: 400 });
    expect(iff.type === 'interactionFree' && iff.fieldWeights[1]).toBeGreaterThan(0.3); // the true field slope is 0.8
    expect(mf.type === 'meanField' && mf.beta).toBeTypeOf('number');
  });

  it('one-step and rollout scores pool the four groups over episodes', () => {
    const one = scoreOneStep(PERSISTENCE, eps);
    expect(one.total).toBe(20 * 16 * 6);
    expect(one.balanced).toBe(0.5);
    expect(one.groups.flipUp.correct + one.groups.flipDown.correct).toBe(0);
    const fit = modelFromFit(fitGlauber(eps, { kind: 'one', maxSteps: 300 }));
    const ro = scoreRollout(fit, eps);
    expect(ro.total).toBe(20 * 16 * 6);
    expect(scoreOneStep(fit, eps).balanced).toBeGreaterThan(0.6);
    const acc = accumulate(emptyAccuracy(), [1, 1], [1, -1], [1, 1]);
    expect([acc.raw, acc.balanced]).toEqual([0.5, 0.5]);
  });
});

describe('temperature sweep', () => {
  it('log-spaced grid', () => {
    const t = logSpace(0.05, 20, 41);
    expect(t[0]).toBeCloseTo(0.05, 12);
    expect(t[40]).toBeCloseTo(20, 10);
    expect(t[20]).toBeCloseTo(Math.sqrt(0.05 * 20), 10);
  });

  it('finds the susceptibility peak of a ferromagnetic lattice near its known 𝒯_c', () => {
    // P(+1) = σ(h/𝒯) with h = Σ s_j is the heat bath of the 2D Ising model at J/T_Ising = 1/(2𝒯), so
    // 𝒯_c = 2.269/2 ≈ 1.13; a 16² lattice shifts the χ peak up a little. Ordered starts avoid slow coarsening.
    const lat = squareLattice(16);
    const starts: Episode[] = [1, -1].map((v) => ({ graph: lat, states: new Int8Array(lat.n).fill(v) }));
    const m: DynamicsModel = { type: 'glauber', couplings: { kind: 'one', beta: 1 }, field: 'none', fieldWeights: [] };
    const r = temperatureSweep(m, starts, { count: 21, tMin: 0.5, tMax: 3, steps: 300, burn: 100, seed: 1 });
    expect(r.chi.length).toBe(21);
    expect(r.atEdge).toBe(false);
    expect(r.tc).toBeGreaterThan(1.0);
    expect(r.tc).toBeLessThan(1.6);
    expect(r.chi[r.peakIndex]).toBeGreaterThan(3 * r.chi[20]);
    expect(r.chi[r.peakIndex]).toBeGreaterThan(3 * r.chi[0]);
    expect(() => temperatureSweep(PERSISTENCE, starts)).toThrow();
    // the same law written in the ε form's tanh units (β/2) sweeps to the same curve
    const half: DynamicsModel = { ...m, couplings: { kind: 'one', beta: 0.5 }, link: 'eps', eps: 0.5 };
    const r2 = temperatureSweep(half, starts, { count: 21, tMin: 0.5, tMax: 3, steps: 300, burn: 100, seed: 1 });
    expect(Array.from(r2.chi)).toEqual(Array.from(r.chi));
  });
});
