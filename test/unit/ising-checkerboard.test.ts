import { describe, expect, it } from 'vitest';
import {
  ALWAYS,
  blockMean,
  checkerboardLaw,
  checkerboardSide,
  checkerboardSweeps,
  latticeObservables,
  mulhi32,
  philox2x32,
  probabilityThreshold,
  syncChainSeries,
} from '../../src/core/ising/checkerboard';
import { sigmoid, simulateGlauber } from '../../src/core/ising/simulate';
import { randomSigned, squareLattice, triangularLattice } from '../../src/core/graphs/generators';
import { createRng } from '../../src/core/rng';
import { chooseLiveBackend } from '../../src/labs/opinions/live-sim-gpu';

const hex = (a: Uint32Array) => Array.from(a, (x) => x.toString(16).padStart(8, '0')).join(' ');

describe('Philox-2×32-10 (the GPU kernel’s random numbers)', () => {
  it('gives the Random123 known-answer vectors', () => {
    expect(hex(philox2x32(0, 0, 0))).toBe('ff1dae59 6cd10df2');
    expect(hex(philox2x32(0xffffffff, 0xffffffff, 0xffffffff))).toBe('2c3f628b ab4fd7ad');
    expect(hex(philox2x32(0x243f6a88, 0x85a308d3, 0x13198a2e))).toBe('dd7ce038 f62a4c12');
  });

  it('mulhi32 from 16-bit halves is the high word of the 64-bit product', () => {
    const rng = createRng('mulhi');
    for (let k = 0; k < 2000; k++) {
      const a = rng.u32();
      const b = rng.u32();
      expect(mulhi32(a, b)).toBe(Number((BigInt(a) * BigInt(b)) >> 32n));
    }
    expect(mulhi32(0xffffffff, 0xffffffff)).toBe(0xfffffffe);
  });
});

describe('the checkerboard law', () => {
  it('thresholds are ⌈σ((w·k + g)/𝒯)·2³²⌉, so u < threshold is the CPU’s test u < P·2³²', () => {
    const law = checkerboardLaw({ kind: 'three', betaPlus: 1, betaMinus: 0.3, beta0: 0.2 }, 0.1, 1.3, 16);
    expect(law.perSite).toBe(false);
    expect(law.thresholds.length).toBe(5);
    for (let q = 0; q < 5; q++) {
      const p = sigmoid((1.2 * (2 * q - 4) + 0.1) / 1.3);
      const t = law.thresholds[q];
      expect(t - 1 < p * 2 ** 32 && p * 2 ** 32 <= t).toBe(true);
    }
    expect(probabilityThreshold(1)).toBe(ALWAYS);
    expect(probabilityThreshold(0)).toBe(0);
    const fields = Array.from({ length: 16 }, (_, i) => i / 10);
    const perSite = checkerboardLaw({ kind: 'one', beta: 0.5 }, fields, 2, 16, 0.25);
    expect(perSite.perSite).toBe(true);
    expect(perSite.thresholds[5 * 7 + 4]).toBe(probabilityThreshold(sigmoid((0.5 * 4 + 0.7) / 2)));
    expect(perSite.eps).toBe(0.25);
    expect(() => checkerboardLaw({ kind: 'five', betaPlusT: 1, betaPlusF: 0, betaMinusT: 0, betaMinusF: 0, beta0: 0 }, 0, 1, 16)).toThrow(/five/);
  });

  it('runs even-sided periodic square lattices only', () => {
    expect(checkerboardSide(squareLattice(316))).toBe(316);
    expect(checkerboardSide(squareLattice(4))).toBe(4);
    expect(checkerboardSide(squareLattice(15))).toBeNull();
    expect(checkerboardSide(squareLattice(8, -1))).toBeNull();
    expect(checkerboardSide(triangularLattice(8))).toBeNull();
    expect(checkerboardSide(randomSigned(64, { budget: 100, positiveFraction: 1 }, createRng(1)))).toBeNull();
  });

  it('redraws only the colour being swept, from the other colour, and counts what it redrew', () => {
    const side = 6;
    const law = checkerboardLaw({ kind: 'one', beta: 1 }, 0, 1, side * side, 0.5);
    const s = new Int8Array(side * side).fill(1);
    const r = checkerboardSweeps(side, law, 3, s, 0, 50);
    const o = latticeObservables(s, side);
    expect(r.sum[49]).toBe(o.sum);
    expect(r.bond[49]).toBe(o.bond);
    // ε = 0.5: about half the 36 sites per step
    const mean = r.updates.reduce((a, b) => a + b, 0) / 50;
    expect(mean).toBeGreaterThan(14);
    expect(mean).toBeLessThan(22);
    // the same seed and step give the same spins; another key does not
    const again = new Int8Array(side * side).fill(1);
    checkerboardSweeps(side, law, 3, again, 0, 50);
    expect(again).toEqual(s);
    const other = new Int8Array(side * side).fill(1);
    checkerboardSweeps(side, law, 4, other, 0, 50);
    expect(other).not.toEqual(s);
  });

  it('reads a synchronous trajectory as its checkerboard chains', () => {
    const side = 6;
    const n = side * side;
    const sim = simulateGlauber(squareLattice(side), { couplings: { kind: 'one', beta: 0.4 }, mode: 'sync' }, new Int8Array(n).fill(1), 5, createRng(2));
    const c = syncChainSeries(sim.states!, side);
    for (let t = 0; t < 5; t++) {
      const mixed = new Int8Array(n);
      for (let i = 0; i < n; i++) mixed[i] = sim.states![((Math.floor(i / side) + (i % side)) % 2 === 0 ? t : t + 1) * n + i];
      const o = latticeObservables(mixed, side);
      expect([c.sum[t], c.bond[t]]).toEqual([o.sum, o.bond]);
    }
  });

  it('samples what the CPU’s synchronous chains sample (16² lattice, |m| and energy within 3.5 SE)', () => {
    const side = 16;
    const n = side * side;
    const couplings = { kind: 'three' as const, betaPlus: 1, betaMinus: 0.3, beta0: 0.2 };
    const burn = 300;
    const steps = 3000;
    for (const T of [1.0, 2.0]) {
      const s = new Int8Array(n).fill(1);
      const r = checkerboardSweeps(side, checkerboardLaw(couplings, 0, T, n), 77, s, 0, burn + steps);
      const sim = simulateGlauber(
        squareLattice(side),
        { couplings, temperature: T, mode: 'sync' },
        new Int8Array(n).fill(1),
        burn + steps + 1,
        createRng(`sync-${T}`),
      );
      const c = syncChainSeries(sim.states!, side);
      const stat = (xs: Int32Array, f: (x: number) => number) => blockMean(Array.from(xs.subarray(burn, burn + steps), f), 20);
      for (const [a, b] of [
        [stat(r.sum, (x) => Math.abs(x) / n), stat(c.sum, (x) => Math.abs(x) / n)],
        [stat(r.bond, (x) => -x / n), stat(c.bond, (x) => -x / n)],
      ])
        expect(Math.abs(a.mean - b.mean)).toBeLessThan(3.5 * Math.hypot(a.se, b.se));
    }
  });

  it('batch means: the mean, and the SE of independent blocks', () => {
    const r = blockMean([1, 3, 2, 4, 3, 5], 3);
    expect(r.blockMeans).toEqual([2, 3, 4]);
    expect(r.mean).toBe(3);
    expect(r.se).toBeCloseTo(Math.sqrt(1 / 3), 12);
    expect(() => blockMean([1], 2)).toThrow();
  });
});

describe('where the live simulation runs', () => {
  const hw = { device: {} as never, adapter: 'nvidia ampere', software: false };
  const sw = { device: {} as never, adapter: 'google swiftshader', software: true };
  it('the GPU on a lattice with a hardware adapter; the CPU worker otherwise, saying why', () => {
    expect(chooseLiveBackend('auto', 64, hw)).toEqual({ backend: 'gpu', note: 'GPU (WebGPU): checkerboard sweeps on nvidia ampere' });
    expect(chooseLiveBackend('auto', 64, sw).backend).toBe('cpu');
    expect(chooseLiveBackend('gpu', 64, sw).backend).toBe('gpu');
    expect(chooseLiveBackend('auto', null, hw).note).toMatch(/^CPU worker: the GPU kernel runs even-sided square lattices only/);
    expect(chooseLiveBackend('gpu', 64, { error: 'WebGPU found no adapter' }).note).toBe('CPU worker: WebGPU found no adapter');
    expect(chooseLiveBackend('auto', 64, null).note).toMatch(/^CPU worker/);
    expect(chooseLiveBackend('cpu', 64, hw).backend).toBe('cpu');
  });
});
