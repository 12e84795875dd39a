// src/core/ising and graphs against numpy / sklearn / statsmodels numbers from test/fixtures/make_ising_fixtures.py.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fromDense } from '../../src/core/graphs/signed';
import { frustratedTriangleFraction, minUnsatisfiedFraction } from '../../src/core/graphs/balance';
import { buildDesign, type Episode } from '../../src/core/ising/design';
import { nllAndGradient, adam, standardize, unstandardize, restandardize } from '../../src/core/ising/optimize';
import { fitGlauber } from '../../src/core/ising/fit';
import { balancedAccuracy } from '../../src/core/ising/scores';
import { pca, pcaTransform, fieldFeatures, symmetricEigen, FIELD_FEATURE_NAMES } from '../../src/core/ising/features';
import { parabolaVertex, susceptibility } from '../../src/core/ising/sweep';
import { quantile } from '../../src/core/ising/archetypes';
import { createRng } from '../../src/core/rng';

const fx = (name: string) => JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures/ising', name), 'utf8'));

const tr = fx('transitions.json');
const episodes: Episode[] = tr.episodes.map((e: { J: number[]; states: number[]; features: number[]; yTrue: number }) => ({
  graph: fromDense(tr.n, e.J),
  states: Int8Array.from(e.states),
  features: Float64Array.from(e.features),
  featureCount: 16,
  yTrue: e.yTrue,
}));

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

describe('transition design and objectives vs numpy', () => {
  for (const c of tr.cases as {
    kind: 'one' | 'three' | 'five';
    X: number[];
    rows: number;
    cols: number;
    theta: number[];
    offset: number[];
    nll: number;
    grad: number[];
    theta0: number;
    nllEps: number;
    gradEps: number[];
  }[]) {
    it(`${c.kind}-coupling covariates, NLL and gradient (logistic and eps links)`, () => {
      const d = buildDesign(episodes, c.kind, 'features');
      expect([d.rows, d.cols]).toEqual([c.rows, c.cols]);
      expect(maxAbsDiff(d.X, c.X)).toBe(0);
      const offset = Float64Array.from(c.offset);
      const r = nllAndGradient({ rows: d.rows, cols: d.cols, X: d.X, y: d.y, offset, link: 'logistic' }, c.theta);
      expect(r.nll).toBeCloseTo(c.nll, 12);
      expect(maxAbsDiff(r.grad, c.grad)).toBeLessThan(1e-12);
      const e = nllAndGradient({ rows: d.rows, cols: d.cols, X: d.X, y: d.y, prev: d.prev, offset, link: 'eps' }, [...c.theta, c.theta0]);
      expect(e.nll).toBeCloseTo(c.nllEps, 12);
      expect(maxAbsDiff(e.grad, c.gradEps)).toBeLessThan(1e-12);
    });
  }

  it('Adam on standardised columns reaches statsmodels Logit (one coupling + bias field, no penalty)', () => {
    const f = fitGlauber(episodes, { kind: 'one', field: 'bias', l2: 0, maxSteps: 1500, tol: 1e-12 });
    expect(Math.abs(f.couplings.kind === 'one' ? f.couplings.beta - tr.logitOneBias.beta : 1)).toBeLessThan(1e-6);
    expect(Math.abs(f.fieldWeights[0] - tr.logitOneBias.bias)).toBeLessThan(1e-6);
    expect(f.nll).toBeCloseTo(tr.logitOneBias.nll, 10);
  });

  it('standardisation round-trips and adam lowers the objective', () => {
    const d = buildDesign(episodes, 'three', 'features');
    const { Z, st } = standardize(d.X, d.rows, d.cols);
    const th = Array.from({ length: d.cols }, (_, k) => 0.1 * (k + 1));
    expect(maxAbsDiff(unstandardize(restandardize(th, st), st), th)).toBeLessThan(1e-12);
    const p = { rows: d.rows, cols: d.cols, X: Z, y: d.y, link: 'logistic' as const };
    const start = nllAndGradient(p, new Float64Array(d.cols)).nll;
    const r = adam(p, new Float64Array(d.cols), { maxSteps: 200 });
    expect(r.nll).toBeLessThan(start - 0.01);
  });
});

describe('scores vs sklearn', () => {
  for (const [k, c] of (fx('balanced.json') as { prev: number[]; next: number[]; pred: number[]; balanced: number; raw: number }[]).entries())
    it(`balanced accuracy case ${k}`, () => {
      const a = balancedAccuracy(c.prev, c.next, c.pred);
      expect(a.balanced).toBeCloseTo(c.balanced, 12);
      expect(a.raw).toBeCloseTo(c.raw, 12);
    });
});

describe('structural balance vs brute force', () => {
  for (const c of fx('balance.json') as { n: number; J: number[]; triangles: number; frustrated: number; minUnsatisfied: number; edges: number }[])
    it(`n=${c.n}: triangles exact, heuristic finds the exhaustive minimum`, () => {
      const g = fromDense(c.n, c.J);
      const t = frustratedTriangleFraction(g);
      expect([t.triangles, t.frustrated]).toEqual([c.triangles, c.frustrated]);
      const u = minUnsatisfiedFraction(g, createRng(1), { restarts: 32 });
      expect(u.count).toBeGreaterThanOrEqual(c.minUnsatisfied); // an upper bound by construction
      expect(u.count).toBe(c.minUnsatisfied);
      expect(u.fraction).toBeCloseTo(c.minUnsatisfied / c.edges, 12);
    });
});

describe('PCA vs sklearn', () => {
  for (const c of fx('pca.json') as {
    rows: number;
    cols: number;
    X: number[];
    scores: number[];
    components: number[];
    explainedVariance: number[];
    ratio: number[];
    Xnew: number[];
    newScores: number[];
  }[])
    it(`${c.rows}×${c.cols}`, () => {
      const m = pca(c.X, c.rows, c.cols, 3);
      expect(maxAbsDiff(m.scores, c.scores)).toBeLessThan(1e-9);
      expect(maxAbsDiff(m.components, c.components)).toBeLessThan(1e-9);
      expect(maxAbsDiff(m.explainedVariance, c.explainedVariance)).toBeLessThan(1e-9);
      expect(maxAbsDiff(m.explainedVarianceRatio, c.ratio)).toBeLessThan(1e-9);
      expect(maxAbsDiff(pcaTransform(m, c.Xnew, 2), c.newScores)).toBeLessThan(1e-9);
    });

  it('symmetric eigensolver: A·v = λ·v, orthonormal vectors, descending values', () => {
    const n = 6;
    const A = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) A[i * n + j] = A[j * n + i] = Math.cos(i * 3 + j * 1.7);
    const { values, vectors } = symmetricEigen(A, n);
    for (let q = 0; q < n; q++) {
      if (q > 0) expect(values[q]).toBeLessThanOrEqual(values[q - 1]);
      for (let i = 0; i < n; i++) {
        let av = 0;
        for (let j = 0; j < n; j++) av += A[i * n + j] * vectors[j * n + q];
        expect(av).toBeCloseTo(values[q] * vectors[i * n + q], 10);
      }
      for (let r = 0; r < n; r++) {
        let dot = 0;
        for (let i = 0; i < n; i++) dot += vectors[i * n + q] * vectors[i * n + r];
        expect(dot).toBeCloseTo(q === r ? 1 : 0, 10);
      }
    }
  });

  it('fieldFeatures rebuilds the fixture φ = [1 | p | q | p⊗q]', () => {
    expect(FIELD_FEATURE_NAMES.length).toBe(16);
    const e = tr.episodes[0];
    const { features, featureCount } = fieldFeatures(e.p, tr.n, e.q);
    expect(featureCount).toBe(16);
    expect(maxAbsDiff(features, e.features)).toBeLessThan(1e-15);
  });
});

describe('sweep helpers vs numpy', () => {
  const s = fx('sweep.json');
  it('parabola vertex = numpy.polyfit(deg 2) vertex', () => {
    for (const p of s.parabolas) {
      const v = parabolaVertex(p.x, p.y);
      expect(v.x).toBeCloseTo(p.vx, 9);
      expect(v.y).toBeCloseTo(p.vy, 9);
    }
  });
  it('χ = N·Var(|n|) after the burn-in', () => {
    expect(susceptibility(s.net, s.n, s.burn)).toBeCloseTo(s.chi, 12);
  });
  it('quantile = numpy.quantile (linear)', () => {
    expect(quantile(s.values, 1 / 3)).toBeCloseTo(s.q13, 12);
    expect(quantile(s.values, 0.5)).toBeCloseTo(s.q50, 12);
  });
});
