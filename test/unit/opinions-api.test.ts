// The compute-API entries: each one runs from plain, cloneable arguments and returns a structured-cloneable result.
import { describe, expect, it } from 'vitest';
import { computeApi } from '../../src/core/compute-api';
import type { Episode } from '../../src/core/ising/design';
import { edgeCount } from '../../src/core/graphs/signed';

const api = computeApi;
const roundTrip = <T>(v: T): T => structuredClone(v);

describe('opinions/polarization compute API', () => {
  const g = roundTrip(api.makeSignedGraph({ generator: 'random', agents: 16, edgeBudget: 40 }, 's'));
  const s0 = Int8Array.from({ length: 16 }, (_, i) => (i % 3 ? 1 : -1));
  const sim = roundTrip(api.simulateGlauber(g, { couplings: { kind: 'one', beta: 0.5 } }, s0, 6, 1));
  const episodes: Episode[] = [0, 1, 2, 3].map((k) =>
    roundTrip({ graph: g, states: api.simulateGlauber(g, { couplings: { kind: 'one', beta: 0.5 }, fields: 0.2 }, s0, 6, k).states! }),
  );

  it('graphs and balance readouts', () => {
    expect(edgeCount(g).total).toBe(40);
    expect(api.makeSignedGraph({ generator: 'square', side: 4 }, 0).n).toBe(16);
    expect(api.makeSignedGraph({ generator: 'triangular', side: 4 }, 0).n).toBe(16);
    expect(edgeCount(api.makeSignedGraph({ generator: 'lowRank', agents: 16, rank: 3, frustration: 0, edgeBudget: 30 }, 1)).total).toBe(30);
    const b = roundTrip(api.balanceReadouts(g, 1));
    expect(b.triangles.fraction).toBeGreaterThanOrEqual(0);
    expect(b.unsatisfied.colouring.length).toBe(16);
  });

  it('simulate, fit, compare, archetypes and sweep', () => {
    expect(sim.states!.length).toBe(7 * 16);
    const fit = roundTrip(api.fitGlauber(episodes, { kind: 'three', field: 'bias', maxSteps: 200 }));
    expect(fit.stage1).toBeDefined();
    expect(Number.isFinite(fit.effective.friendly)).toBe(true);
    const cmp = roundTrip(api.compareModels(episodes.slice(0, 3), episodes.slice(3), { kind: 'one', field: 'bias', maxSteps: 200 }));
    expect(cmp.scores.length).toBe(5);
    const model = cmp.scores[0].model;
    const arch = roundTrip(api.stochasticArchetypes(model, episodes, 2));
    expect(Object.values(arch.counts).reduce((a, b) => a + b, 0)).toBe(4 * 16);
    expect(Object.values(arch.groups).reduce((a, b) => a + b, 0)).toBe(4);
    const sw = roundTrip(api.temperatureSweep(model, episodes.slice(0, 1), { count: 5, steps: 30, burn: 10 }));
    expect(sw.chi.length).toBe(5);
    const d = roundTrip(api.describeGroup(sim.states!, 16));
    expect(d.net.length).toBe(7);
    expect(
      api.regimes([
        { n: 0, c: 1 },
        { n: 1, c: 1 },
        { n: 0, c: 0 },
      ]).labels,
    ).toEqual(['polarization', 'consensus', 'indifference']);
    expect(api.correctness([{ states: sim.states!, n: 16, yTrue: 1 }]).majorityCorrect.length).toBe(7);
  });

  it('PCA and field features', () => {
    const X = Float64Array.from({ length: 8 * 5 }, (_, i) => Math.sin(i * 1.3));
    const m = roundTrip(api.pca(X, 8, 5, 3));
    expect(m.scores.length).toBe(24);
    expect(api.fieldFeatures(m.scores, 8, [0.1, 0.2, 0.3]).featureCount).toBe(16);
    expect(() => api.fieldFeatures(m.scores, 7, [0.1, 0.2, 0.3])).toThrow();
    const Q = Float64Array.from({ length: 4 * 5 }, (_, i) => Math.cos(i * 0.7));
    const ef = roundTrip(api.embeddingFieldFeatures(X, 8, Q, 4, 5));
    expect(ef.features.length).toBe(4);
    expect(ef.featureCount).toBe(16);
    const qp = api.pca(Q, 4, 5, 3);
    const direct = api.fieldFeatures(m.scores, 8, qp.scores.subarray(6, 9)).features;
    expect(Array.from(ef.features[2])).toEqual(Array.from(direct));
    const two = api.embeddingFieldFeatures(X, 8, Q.subarray(0, 10), 2, 5); // 2 questions → 1 component, padded
    expect(two.featureCount).toBe(16);
    expect(two.features[0].length).toBe(8 * 16);
    expect(two.features[0][6]).toBe(0); // q3 is padding
    expect(Array.from(api.spinsFromVoteMeans([0.2, -0.6, 0, 0, -0.2, 0], 2))).toEqual([1, -1, 1, -1, -1, -1]);
  });

  it('polarization graphs, metrics and baselines', () => {
    const ring = roundTrip(api.makeDirectedGraph({ generator: 'ring', agents: 50 }, 0));
    const sw = api.makeDirectedGraph({ generator: 'smallWorld', agents: 50, p: 0.1 }, 1);
    const rd = api.makeDirectedGraph({ generator: 'random', agents: 50, k: 3 }, 1);
    expect([ring.out[0].length, sw.out[0].length, rd.out[0].length]).toEqual([4, 4, 3]);
    const x0 = api.initialOpinions(50, 3);
    const m = roundTrip(api.polarizationMetrics(ring, x0));
    expect(m.P).toBeCloseTo(x0.reduce((a, b) => a + Math.abs(b), 0) / 50, 12);
    const v = roundTrip(api.coevolvingVoter(ring, x0, { phi: 0.5, epochs: 10 }, 4));
    expect(v.P.length).toBe(11);
    const bc = roundTrip(api.boundedConfidence(ring, x0, { confidence: 1.5, epochs: 10 }, 4));
    expect(bc.H.length).toBe(11);
    const t = roundTrip(
      api.echoChamberTable(
        v.history,
        v.history.slice(1).map(() => [[0, 1] as [number, number]]),
      ),
    );
    expect(t.windows).toBe(2);
  });
});
