import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ols, partialCorrelation, pearson } from '../../src/core/stats';
import { mixedLM, parseFormula } from '../../src/core/mixedlm';
import { betaInc, erfc, gammaIncUpper, logGamma, normalCdf, normalQuantile, normalTwoSided, tCdf, tQuantile, tTwoSided } from '../../src/core/special';
import {
  cholesky,
  cholSolveRows,
  cholSolveRowsUnblocked,
  choleskyUnblocked,
  gemmNT,
  gemmNTScalar,
  matmul,
  spdInverse,
  spdLogDet,
  spdSolve,
  transpose,
} from '../../src/core/linalg';
import { fmaAvailable, gemmKernelKind, gemmNTSimd, ResidentRows, simdAvailable, withGemmKernel } from '../../src/core/simd-gemm';

const f = JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures/compute/stats.json'), 'utf8'));

const rel = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(b), 1e-300);
function maxRel(a: ArrayLike<number>, b: ArrayLike<number>): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, rel(a[i], b[i]));
  return m;
}

describe('special functions vs scipy', () => {
  it('regularised incomplete beta', () => {
    for (const [a, b, x, v] of f.special.betainc) expect(rel(betaInc(x, a, b), v)).toBeLessThan(1e-12);
  });
  it('log-gamma, erfc, upper incomplete gamma, normal and t CDFs', () => {
    for (const [x, v] of f.special.lgamma) expect(Math.abs(logGamma(x) - v)).toBeLessThan(1e-13 * Math.max(1, Math.abs(v)));
    for (const [x, v] of f.special.erfc) expect(rel(erfc(x), v)).toBeLessThan(1e-13);
    for (const [a, x, v] of f.special.gammaincc) expect(rel(gammaIncUpper(a, x), v)).toBeLessThan(1e-12);
    for (const [x, v] of f.special.normcdf) expect(rel(normalCdf(x), v)).toBeLessThan(1e-13);
    for (const [x, df, v] of f.special.tcdf) expect(rel(tCdf(x, df), v)).toBeLessThan(1e-12);
  });
  it('t and normal tails and quantiles', () => {
    for (const [t, df, v] of f.special.tsf2) expect(rel(tTwoSided(t, df), v)).toBeLessThan(1e-10);
    // scipy's t.ppf is itself good to ~3e-10 (df = 2 has a closed form that shows it), hence 1e-9 here.
    for (const [p, df, v] of f.special.tppf) expect(rel(tQuantile(p, df), v)).toBeLessThan(1e-9);
    for (const p of [0.6, 0.975, 0.999]) expect(rel(tQuantile(p, 2), (2 * p - 1) / Math.sqrt(2 * p * (1 - p)))).toBeLessThan(1e-13);
    for (const [z, v] of f.special.normsf2) expect(rel(normalTwoSided(z), v)).toBeLessThan(1e-10);
    for (const [p, v] of f.special.normppf) expect(Math.abs(normalQuantile(p) - v)).toBeLessThan(1e-10 * Math.max(1, Math.abs(v))); // p near 1 carries ~1e-16/φ(z) of its own rounding
  });
});

describe('correlation and OLS vs scipy / statsmodels', () => {
  it('pearson r and two-sided p', () => {
    const r = pearson(f.x, f.y);
    expect(rel(r.r, f.pearson.r)).toBeLessThan(1e-12);
    expect(rel(r.p, f.pearson.p)).toBeLessThan(1e-9);
    const s = pearson(f.pearsonSmall.x, f.pearsonSmall.y);
    expect(rel(s.r, f.pearsonSmall.r)).toBeLessThan(1e-12);
    expect(rel(s.p, f.pearsonSmall.p)).toBeLessThan(1e-9);
  });
  it('partial correlation controlling for covariates', () => {
    const r = partialCorrelation(f.x, f.y, [f.z1, f.z2]);
    expect(rel(r.r, f.partial.r)).toBeLessThan(1e-10);
    expect(rel(r.p, f.partial.p)).toBeLessThan(1e-8);
    expect(r.df).toBe(f.partial.df);
  });
  it('OLS coefficients, SEs, t, p, CI, R²', () => {
    const o = ols(f.y, [f.x, f.z1, f.z2], { names: ['x', 'z1', 'z2'] });
    expect(o.names).toEqual(['Intercept', 'x', 'z1', 'z2']);
    for (const k of ['coef', 'se', 't', 'p', 'ciLow', 'ciHigh'] as const) expect(maxRel(o[k], f.ols[k])).toBeLessThan(1e-9);
    expect(rel(o.r2, f.ols.r2)).toBeLessThan(1e-12);
    expect(rel(o.r2Adj, f.ols.r2Adj)).toBeLessThan(1e-12);
    expect(rel(o.sigma2, f.ols.sigma2)).toBeLessThan(1e-12);
    expect(() => ols(f.y, [f.x, f.x])).toThrow(/collinear/);
  });
});

/** One statsmodels MixedLM case in the fixture (test/fixtures/make_compute_fixtures.py). */
interface MixedLMCase {
  rows: { y: number[]; sim: number[]; x2: number[]; colA: string[]; colB: string[] };
  coef: number[];
  se: number[];
  z: number[];
  p: number[];
  ciLow: number[];
  ciHigh: number[];
  vcomp: number[];
  scale: number;
  llf: number;
}

describe('mixed model with crossed random intercepts vs statsmodels MixedLM (REML)', () => {
  f.mixedlm.forEach((c: MixedLMCase, i: number) => {
    it(`case ${i}: coef, SE, z, p, CI, variance components`, () => {
      const r = mixedLM({
        y: c.rows.y,
        fixed: [
          { name: 'sim', values: c.rows.sim },
          { name: 'x2', values: c.rows.x2 },
        ],
        factors: [
          { name: 'colA', labels: c.rows.colA },
          { name: 'colB', labels: c.rows.colB },
        ],
      });
      expect(r.names).toEqual(['Intercept', 'sim', 'x2']);
      expect(maxRel(r.coef, c.coef)).toBeLessThan(1e-4);
      expect(maxRel(r.se, c.se)).toBeLessThan(1e-4);
      expect(maxRel(r.z, c.z)).toBeLessThan(1e-4);
      for (let j = 0; j < 3; j++) {
        // CI ends can sit near 0, so compare them on the scale of the SE; p moves by ~z²·(relative change in z).
        expect(Math.abs(r.ciLow[j] - c.ciLow[j])).toBeLessThan(1e-4 * c.se[j]);
        expect(Math.abs(r.ciHigh[j] - c.ciHigh[j])).toBeLessThan(1e-4 * c.se[j]);
        expect(rel(r.p[j], c.p[j])).toBeLessThan(1e-4 * Math.max(1, c.z[j] ** 2));
      }
      expect(
        maxRel(
          r.vcomp.map((v) => v.variance),
          c.vcomp,
        ),
      ).toBeLessThan(1e-3);
      expect(rel(r.scale, c.scale)).toBeLessThan(1e-4);
      // Our optimum is at least as good as statsmodels' (it stops a little early).
      expect(r.llf).toBeGreaterThan(c.llf - 1e-9 * Math.abs(c.llf));
      expect(r.llf - c.llf).toBeLessThan(1e-6 * Math.abs(c.llf));
      expect(r.converged).toBe(true);
    });
  });
  it('a singular fit (both variances at 0, as statsmodels finds): the fixed effects and their SEs, not an error', () => {
    const b = JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures/compute/mixedlm-boundary.json'), 'utf8'));
    expect(b.warnings.join(' ')).toMatch(/Hessian matrix at the estimated parameter values is not positive definite/);
    const r = mixedLM({
      y: b.rows.y,
      fixed: [{ name: 'sim', values: b.rows.sim }],
      factors: [
        { name: 'colA', labels: b.rows.colA },
        { name: 'colB', labels: b.rows.colB },
      ],
    });
    expect(maxRel(r.coef, b.coef)).toBeLessThan(1e-4);
    // statsmodels stops with variances of ~1e-4 of the scale, not 0: its SEs sit that much above the GLS ones.
    expect(maxRel(r.se, b.se)).toBeLessThan(2e-3);
    expect(r.singular).toEqual(['colA', 'colB']);
    expect(rel(r.scale, b.scale)).toBeLessThan(1e-3);
  });
  it('parses formulas', () => {
    expect(parseFormula('y ~ sim + x2')).toEqual({ response: 'y', terms: ['sim', 'x2'], intercept: true });
    expect(parseFormula('out ~ 0 + a')).toEqual({ response: 'out', terms: ['a'], intercept: false });
    expect(parseFormula('out ~ a - 1')).toEqual({ response: 'out', terms: ['a'], intercept: false });
    expect(() => parseFormula('y ~ log(x)')).toThrow(/plain column/);
    expect(() => parseFormula('y = x')).toThrow(/must look like/);
  });
});

describe('linalg kernels vs naive loops', () => {
  it('gemmNT (plain and symmetric, odd sizes), matmul, transpose, Cholesky, solves', () => {
    let s = 1;
    const rnd = () => (s = (s * 16807) % 2147483647) / 2147483647 - 0.5;
    const m = 7,
      n = 5,
      k = 9;
    const A = Float64Array.from({ length: m * k }, rnd);
    const B = Float64Array.from({ length: n * k }, rnd);
    const C = gemmNT(A, B, m, n, k);
    for (let i = 0; i < m; i++)
      for (let j = 0; j < n; j++) {
        let t = 0;
        for (let p = 0; p < k; p++) t += A[i * k + p] * B[j * k + p];
        expect(Math.abs(C[i * n + j] - t)).toBeLessThan(1e-14);
      }
    const S = gemmNT(A, A, m, m, k, undefined, true);
    const S2 = gemmNT(A, A, m, m, k);
    expect(maxRel(S, S2)).toBeLessThan(1e-14);
    const Bt = transpose(B, n, k);
    expect(maxRel(matmul(A, Bt, m, k, n), C)).toBeLessThan(1e-14);
    const P = gemmNT(A, A, m, m, k, undefined, true);
    for (let i = 0; i < m; i++) P[i * m + i] += 1;
    const L = cholesky(Float64Array.from(P), m);
    const LLt = gemmNT(L, L, m, m, m);
    expect(Math.max(...Array.from(LLt, (v, i) => Math.abs(v - P[i])))).toBeLessThan(1e-13);
    const b = Float64Array.from({ length: m }, rnd);
    const x = spdSolve(P, m, b);
    for (let i = 0; i < m; i++) {
      let t = 0;
      for (let j = 0; j < m; j++) t += P[i * m + j] * x[j];
      expect(Math.abs(t - b[i])).toBeLessThan(1e-13);
    }
    const inv = spdInverse(P, m);
    const I = matmul(P, inv, m, m, m);
    for (let i = 0; i < m; i++) for (let j = 0; j < m; j++) expect(Math.abs(I[i * m + j] - (i === j ? 1 : 0))).toBeLessThan(1e-12);
    let ld = 0;
    for (let i = 0; i < m; i++) ld += 2 * Math.log(L[i * m + i]);
    expect(spdLogDet(P, m)).toBeCloseTo(ld, 12);
    expect(() => cholesky(Float64Array.from([1, 2, 2, 1]), 2)).toThrow(/positive definite/);
  });
  it('the WebAssembly SIMD kernel equals naive sums for odd, even, symmetric and large shapes', () => {
    expect(simdAvailable()).toBe(true);
    let s = 7;
    const rnd = () => (s = (s * 48271) % 2147483647) / 2147483647 - 0.5;
    for (const [m, n, k, sym] of [
      [1, 1, 1, false],
      [3, 5, 7, false],
      [6, 6, 3, true],
      [9, 9, 11, true],
      [130, 67, 301, false],
      [97, 97, 64, true],
    ] as const) {
      const A = Float64Array.from({ length: m * k }, rnd);
      const B = sym ? A : Float64Array.from({ length: n * k }, rnd);
      const C = gemmNTSimd(A, sym ? null : B, m, n, k, new Float64Array(m * n), sym)!;
      for (let i = 0; i < m; i++)
        for (let j = 0; j < n; j++) {
          let t = 0;
          for (let p = 0; p < k; p++) t += A[i * k + p] * B[j * k + p];
          expect(Math.abs(C[i * n + j] - t)).toBeLessThan(1e-12);
        }
      const J = gemmNTScalar(A, B, m, n, k, undefined, sym);
      expect(maxRel(C, J)).toBeLessThan(1e-10);
    }
  });
  it('runs the fused (relaxed SIMD) kernel where the runtime has it, and both kernels are within rounding of each other', () => {
    // cli/wasm-features.ts turns relaxed SIMD on for Node 20 (the test setup imports it), as Chromium ships it.
    expect(fmaAvailable()).toBe(true);
    expect(gemmKernelKind()).toBe('fma');
    let s = 11;
    const rnd = () => (s = (s * 48271) % 2147483647) / 2147483647 - 0.5;
    for (const [m, n, k, sym] of [
      [5, 7, 9, false],
      [33, 33, 257, true],
      [64, 40, 1000, false],
    ] as const) {
      const A = Float64Array.from({ length: m * k }, rnd);
      const B = sym ? null : Float64Array.from({ length: n * k }, rnd);
      const fused = withGemmKernel(true, () => gemmNTSimd(A, B, m, n, k, new Float64Array(m * n), sym)!);
      const plain = withGemmKernel(false, () => gemmNTSimd(A, B, m, n, k, new Float64Array(m * n), sym)!);
      const exact = gemmNTScalar(A, B ?? A, m, n, k, undefined, sym);
      // A sum of k products rounded in any order is within k·ε·Σ|a·b| of the exact one (Higham's γ_k bound), so two
      // such sums are within twice that of each other.
      const Bm = B ?? A;
      for (let i = 0; i < m; i++)
        for (let j = 0; j < n; j++) {
          let abs = 0;
          for (let p = 0; p < k; p++) abs += Math.abs(A[i * k + p] * Bm[j * k + p]);
          const bound = 2 * k * 1.12e-16 * abs;
          const c = i * n + j;
          expect(Math.abs(fused[c] - plain[c])).toBeLessThanOrEqual(bound);
          expect(Math.abs(fused[c] - exact[c])).toBeLessThanOrEqual(bound);
        }
      // The fused kernel does round differently (else this test would not tell the two apart).
      if (k >= 257) expect(fused.some((v, c) => v !== plain[c])).toBe(true);
    }
    // Rows resident for the gemv follow the thread's kernel.
    const rows = withGemmKernel(false, () => new ResidentRows(3, 101));
    rows.setRow(0, [Float64Array.from({ length: 101 }, rnd)]);
    expect(rows.dotAll([new Float64Array(101).fill(1)], 1)[0]).toBeTypeOf('number');
  });
  it('blocked Cholesky and solves (n ≥ 128, SIMD trailing updates) equal the unblocked ones', () => {
    let s = 11;
    const rnd = () => (s = (s * 48271) % 2147483647) / 2147483647 - 0.5;
    for (const [n, r] of [
      [300, 37],
      [129, 8],
      [200, 3],
    ] as const) {
      const X = Float64Array.from({ length: (n + 20) * n }, rnd);
      const XT = transpose(X, n + 20, n);
      const S = gemmNT(XT, XT, n, n, n + 20, undefined, true);
      for (let i = 0; i < n; i++) S[i * n + i] += 1;
      const L1 = choleskyUnblocked(Float64Array.from(S), n);
      const L2 = cholesky(Float64Array.from(S), n);
      expect(Math.max(...Array.from(L1, (v, i) => Math.abs(v - L2[i])))).toBeLessThan(1e-11);
      const B = Float64Array.from({ length: r * n }, rnd);
      const F1 = cholSolveRowsUnblocked(L1, transpose(L1, n, n), n, Float64Array.from(B), r);
      const F2 = cholSolveRows(L2, transpose(L2, n, n), n, Float64Array.from(B), r);
      // residual S f − b for every right-hand side
      for (let q = 0; q < r; q++)
        for (let i = 0; i < n; i++) {
          let t = 0;
          for (let j = 0; j < n; j++) t += S[i * n + j] * F2[q * n + j];
          expect(Math.abs(t - B[q * n + i])).toBeLessThan(1e-9);
        }
      expect(Math.max(...Array.from(F1, (v, i) => Math.abs(v - F2[i])))).toBeLessThan(1e-9);
    }
  });
  it('resident rows dotted with a vector (wasm gemv and the JS fallback) equal naive sums', () => {
    let s = 5;
    const rnd = () => (s = (s * 48271) % 2147483647) / 2147483647 - 0.5;
    for (const useWasm of [true, false]) {
      const rows = 5;
      const p1 = 7,
        p2 = 10; // cols = 17: not a multiple of 4, exercises the padding
      const R = new ResidentRows(rows, p1 + p2, useWasm);
      const data = Array.from({ length: rows }, () => [Float64Array.from({ length: p1 }, rnd), Float64Array.from({ length: p2 }, rnd)]);
      data.forEach((parts, i) => R.setRow(i, parts));
      for (let rep = 0; rep < 2; rep++) {
        const x = [Float64Array.from({ length: p1 }, rnd), Float64Array.from({ length: p2 }, rnd)];
        const got = R.dotAll(x);
        data.forEach((parts, i) => {
          let t = 0;
          parts.forEach((p, k) => p.forEach((v, j) => (t += v * x[k][j])));
          expect(Math.abs(got[i] - t)).toBeLessThan(1e-14);
        });
        expect(R.dotAll(x, 2).length).toBe(2);
      }
    }
  });
});
