// The simulator against the law it samples: one-step frequencies vs σ(h/𝒯), the async rate ε, both code paths.
import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng';
import { randomSigned, squareLattice } from '../../src/core/graphs/generators';
import { simulateGlauber, rolloutSign, sigmoid } from '../../src/core/ising/simulate';
import { COUPLING_NAMES, covariates, localFields, effectiveWeights, couplingVector, couplingsFromVector, type Couplings } from '../../src/core/ising/couplings';
import { toDense } from '../../src/core/graphs/signed';

const rng0 = createRng('sim');
const g = randomSigned(24, { budget: 80 }, rng0);
const s0 = Int8Array.from({ length: 24 }, () => (rng0.next() < 0.5 ? 1 : -1));
const fields = Float64Array.from({ length: 24 }, () => 0.5 * rng0.normal());

/** Empirical P(s_i(1) = +1) from s0 over many single steps. */
function oneStepFreq(params: Parameters<typeof simulateGlauber>[1], reps: number): Float64Array {
  const rng = createRng(11);
  const f = new Float64Array(24);
  for (let r = 0; r < reps; r++) {
    const out = simulateGlauber(g, params, s0, 1, rng, { record: false }).final;
    for (let i = 0; i < 24; i++) if (out[i] > 0) f[i] += 1 / reps;
  }
  return f;
}

describe('couplings', () => {
  it('covariates match dense J⁺/J⁻/|J| products; local fields are β·covariates + g', () => {
    const J = toDense(g);
    const n = 24;
    const cov3 = covariates(g, 'three', s0);
    const cov5 = covariates(g, 'five', s0, -1);
    for (let i = 0; i < n; i++) {
      let p = 0,
        m = 0,
        a = 0,
        pT = 0,
        mF = 0;
      for (let j = 0; j < n; j++) {
        const v = J[i * n + j] * s0[j];
        if (J[i * n + j] > 0) p += v;
        if (J[i * n + j] < 0) m += v;
        a += Math.abs(J[i * n + j]) * s0[j];
        if (J[i * n + j] > 0 && s0[j] === -1) pT += v;
        if (J[i * n + j] < 0 && s0[j] !== -1) mF += v;
      }
      expect([cov3[3 * i], cov3[3 * i + 1], cov3[3 * i + 2]]).toEqual([p, m, a]);
      expect([cov5[5 * i], cov5[5 * i + 3], cov5[5 * i + 4]]).toEqual([pT, mF, a]);
    }
    const c: Couplings = { kind: 'three', betaPlus: 0.7, betaMinus: 0.2, beta0: 0.4 };
    const h = localFields(g, c, fields, s0);
    for (let i = 0; i < n; i++) expect(h[i]).toBeCloseTo(0.7 * cov3[3 * i] + 0.2 * cov3[3 * i + 1] + 0.4 * cov3[3 * i + 2] + fields[i], 12);
    expect(effectiveWeights(c)).toEqual([1.1, 1.1, 0.2, 0.2].map((x) => expect.closeTo(x, 12)));
    expect(couplingsFromVector('three', couplingVector(c))).toEqual(c);
  });

  it('writes and reads coupling vectors in COUPLING_NAMES order for every kind', () => {
    for (const kind of ['one', 'three', 'five'] as const) {
      const names = COUPLING_NAMES[kind];
      const v = names.map((_, i) => i + 0.5);
      const c = couplingsFromVector(kind, v);
      expect(Object.keys(c).filter((k) => k !== 'kind')).toEqual(names);
      const byName: Record<string, unknown> = { ...c };
      expect(names.map((k) => byName[k])).toEqual(v);
      expect(couplingVector(c)).toEqual(v);
    }
  });
});

describe('Glauber simulator', () => {
  it('sync, per-agent fields (exp path): P(+1) = σ(h/𝒯)', () => {
    const couplings: Couplings = { kind: 'three', betaPlus: 0.6, betaMinus: 0.3, beta0: 0.2 };
    const T = 1.7;
    const f = oneStepFreq({ couplings, fields, temperature: T }, 4000);
    const h = localFields(g, couplings, fields, s0);
    for (let i = 0; i < 24; i++) expect(Math.abs(f[i] - sigmoid(h[i] / T))).toBeLessThan(0.03);
  });

  it('sync, uniform field (table path) and five couplings agree with σ(h)', () => {
    const c1: Couplings = { kind: 'one', beta: 0.8 };
    const f1 = oneStepFreq({ couplings: c1, fields: 0.3 }, 4000);
    const h1 = localFields(g, c1, 0.3, s0);
    const c5: Couplings = { kind: 'five', betaPlusT: 1, betaPlusF: 0.1, betaMinusT: 0.5, betaMinusF: 0, beta0: 0.2 };
    const f5 = oneStepFreq({ couplings: c5, fields: 0.3, yTrue: -1 }, 4000);
    const h5 = localFields(g, c5, 0.3, s0, -1);
    for (let i = 0; i < 24; i++) {
      expect(Math.abs(f1[i] - sigmoid(h1[i]))).toBeLessThan(0.03);
      expect(Math.abs(f5[i] - sigmoid(h5[i]))).toBeLessThan(0.03);
    }
  });

  it('async with rate ε: P(+1) = (1−ε)·1[s=+1] + ε·σ(h)', () => {
    const couplings: Couplings = { kind: 'one', beta: 0.5 };
    const eps = 0.3;
    const f = oneStepFreq({ couplings, fields, mode: 'async', eps }, 4000);
    const h = localFields(g, couplings, fields, s0);
    for (let i = 0; i < 24; i++) expect(Math.abs(f[i] - ((1 - eps) * (s0[i] > 0 ? 1 : 0) + eps * sigmoid(h[i])))).toBeLessThan(0.03);
  });

  it('async with a small ε selects each spin independently with probability ε (geometric gaps)', () => {
    const lat = squareLattice(100);
    const start = new Int8Array(lat.n).fill(1);
    // A strongly negative field makes every selected spin −1, so the −1s mark exactly the selected spins.
    const p = { couplings: { kind: 'one' as const, beta: 0 }, fields: -40, mode: 'async' as const, eps: 0.02 };
    const r = simulateGlauber(lat, p, start, 1, createRng(8));
    const flipped = r.final.reduce((acc, v) => acc + (v < 0 ? 1 : 0), 0);
    expect(flipped).toBe(r.updates);
    expect(Math.abs(flipped / lat.n - 0.02)).toBeLessThan(0.004);
    const firstHalf = r.final.subarray(0, lat.n / 2).reduce((acc, v) => acc + (v < 0 ? 1 : 0), 0);
    expect(Math.abs(firstHalf / flipped - 0.5)).toBeLessThan(0.06);
    expect(r.net[1]).toBeCloseTo(1 - (2 * flipped) / lat.n, 12);
    const none = simulateGlauber(lat, { ...p, eps: 0 }, start, 3, createRng(8));
    expect(none.updates).toBe(0);
    expect(Array.from(none.net)).toEqual([1, 1, 1, 1]);
  });

  it('long runs (per-node tables) are calibrated: binned P(+1) matches σ(h/𝒯), per-agent fields and five couplings', () => {
    const cases: [Couplings, number][] = [
      [{ kind: 'three', betaPlus: 0.6, betaMinus: 0.3, beta0: 0.2 }, 1],
      [{ kind: 'five', betaPlusT: 1, betaPlusF: 0.1, betaMinusT: 0.5, betaMinusF: 0, beta0: 0.2 }, -1],
    ];
    for (const [couplings, yTrue] of cases) {
      const T = 1.3;
      const run = simulateGlauber(g, { couplings, fields, temperature: T, yTrue }, s0, 3000, createRng(21));
      const bins = Array.from({ length: 5 }, () => ({ n: 0, up: 0, p: 0 }));
      for (let t = 0; t < 3000; t++) {
        const s = run.states!.subarray(t * 24, (t + 1) * 24);
        const h = localFields(g, couplings, fields, s, yTrue);
        for (let i = 0; i < 24; i++) {
          const p = sigmoid(h[i] / T);
          const b = bins[Math.min(4, Math.floor(p * 5))];
          b.n++;
          b.p += p;
          if (run.states![(t + 1) * 24 + i] > 0) b.up++;
        }
      }
      for (const b of bins) if (b.n > 2000) expect(Math.abs(b.up / b.n - b.p / b.n)).toBeLessThan(0.02);
    }
  });

  it('records states and n(t); the same seed reproduces the run', () => {
    const p = { couplings: { kind: 'one' as const, beta: 0.3 } };
    const a = simulateGlauber(g, p, s0, 10, createRng(5));
    const b = simulateGlauber(g, p, s0, 10, createRng(5));
    expect(a.states!.length).toBe(11 * 24);
    expect(Array.from(a.states!)).toEqual(Array.from(b.states!));
    expect(Array.from(a.states!.subarray(0, 24))).toEqual(Array.from(s0));
    for (let t = 0; t <= 10; t++) expect(a.net[t]).toBeCloseTo(a.states!.subarray(t * 24, (t + 1) * 24).reduce((x, y) => x + y, 0) / 24, 12);
    expect(a.updates).toBe(240);
  });

  it('a ferromagnetic lattice orders at low 𝒯 and stays disordered at high 𝒯', () => {
    const lat = squareLattice(32);
    const start = new Int8Array(lat.n).fill(1);
    const cold = simulateGlauber(lat, { couplings: { kind: 'one', beta: 1 }, temperature: 1, mode: 'async', eps: 0.5 }, start, 200, createRng(1), {
      record: false,
    });
    const hot = simulateGlauber(lat, { couplings: { kind: 'one', beta: 1 }, temperature: 10, mode: 'async', eps: 0.5 }, start, 200, createRng(1), {
      record: false,
    });
    expect(Math.abs(cold.net[200])).toBeGreaterThan(0.9);
    expect(Math.abs(hot.net[200])).toBeLessThan(0.1);
  });

  it('deterministic rollout follows sign(h), keeping the spin on a tie', () => {
    const c: Couplings = { kind: 'one', beta: 1 };
    const r = rolloutSign(g, { couplings: c, fields }, s0, 3);
    for (let t = 1; t <= 3; t++) {
      const prev = r.subarray((t - 1) * 24, t * 24);
      const h = localFields(g, c, fields, prev);
      for (let i = 0; i < 24; i++) expect(r[t * 24 + i]).toBe(h[i] > 0 ? 1 : h[i] < 0 ? -1 : prev[i]);
    }
  });
});

describe('square-lattice kernel', () => {
  it('gives bit-identical runs to the generic CSR loop (same stream, same thresholds)', () => {
    const lat = squareLattice(12);
    const start = Int8Array.from({ length: lat.n }, (_, i) => ((i * 7) % 3 ? 1 : -1));
    const p = { couplings: { kind: 'one' as const, beta: 0.45 }, fields: 0.1, temperature: 1.3 };
    const fast = simulateGlauber(lat, p, start, 20, createRng(3));
    const generic = simulateGlauber({ ...lat, kind: 'csr' }, p, start, 20, createRng(3));
    expect(Array.from(fast.states!)).toEqual(Array.from(generic.states!));
    expect(Array.from(fast.net)).toEqual(Array.from(generic.net));
    expect(fast.updates).toBe(generic.updates);
    const pa = { ...p, mode: 'async' as const, eps: 0.3 };
    const fa = simulateGlauber(lat, pa, start, 20, createRng(4));
    const ga = simulateGlauber({ ...lat, kind: 'csr' }, pa, start, 20, createRng(4));
    expect(Array.from(fa.states!)).toEqual(Array.from(ga.states!));
    expect(fa.updates).toBe(ga.updates);
    expect(Math.abs(fa.updates / (20 * lat.n) - 0.3)).toBeLessThan(0.03);
  });
});
