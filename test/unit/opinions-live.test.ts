import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/core/config';
import { opinionsLab } from '../../src/labs/opinions/config';
import { downsample, expectedConviction, locateTc, phaseBands, phaseLabel, windowSusceptibility } from '../../src/labs/opinions/phase';
import { LiveSimulation, SPIN_COLOURS, gridSide, paintSpins } from '../../src/labs/opinions/live-sim';
import { runSweep, sweepSetup } from '../../src/labs/opinions/sweep';
import { squareLattice } from '../../src/core/graphs/generators';
import { temperatureSweep } from '../../src/core/ising/sweep';

const thresholds = { conviction: 1 / 3, consensus: 0.5 };

describe('phase labels', () => {
  it('indifference below the conviction threshold, else consensus or polarization by |n|', () => {
    expect(phaseLabel(0.9, 0.1, thresholds)).toBe('indifference');
    expect(phaseLabel(0.9, 0.8, thresholds)).toBe('consensus');
    expect(phaseLabel(-0.9, 0.8, thresholds)).toBe('consensus');
    expect(phaseLabel(0.1, 0.8, thresholds)).toBe('polarization');
    expect(phaseLabel(0.5, 0.8, thresholds)).toBe('polarization');
    expect(phaseLabel(0, 1 / 3, thresholds)).toBe('polarization');
  });

  it('the expected-vote conviction is 0 at infinite 𝒯, 1 when frozen, and tanh² of one site in between', () => {
    const g = squareLattice(4);
    const c3 = { kind: 'three' as const, betaPlus: 1, betaMinus: 0, beta0: 0 };
    const up = new Int8Array(16).fill(1);
    expect(expectedConviction(g, c3, 0, up, 1e9)).toBeCloseTo(0, 9);
    expect(expectedConviction(g, c3, 0, up, 0.01)).toBeCloseTo(1, 9);
    expect(expectedConviction(g, c3, 0, up, 2)).toBeCloseTo(Math.tanh(4 / 4) ** 2, 12);
  });

  it('the live χ is N·Var(|n|) over the window', () => {
    expect(windowSusceptibility([0.5, -0.5, 0.5], 10, 10)).toBe(0);
    expect(windowSusceptibility([9, 0, 1], 4, 2)).toBeCloseTo(4 * 0.25, 12);
    expect(windowSusceptibility([0.3], 4, 2)).toBe(0);
  });

  it('locates 𝒯_c exactly as the core sweep does', () => {
    const lat = squareLattice(8);
    const starts = [1, -1].map((v) => ({ graph: lat, states: new Int8Array(lat.n).fill(v) }));
    const r = temperatureSweep({ type: 'glauber', couplings: { kind: 'one', beta: 1 }, field: 'none', fieldWeights: [] }, starts, {
      count: 15,
      tMin: 0.5,
      tMax: 3,
      steps: 120,
      burn: 40,
      seed: 2,
    });
    const mine = locateTc(r.temperatures, r.chi);
    expect(mine.tc).toBeCloseTo(r.tc, 12);
    expect(mine.peakIndex).toBe(r.peakIndex);
    expect(mine.atEdge).toBe(r.atEdge);
    expect(locateTc([1, 2, 3], [5, 1, 0])).toEqual({ tc: 1, peakIndex: 0, atEdge: true });
  });

  it('downsampling keeps the first and last points and at most ~max points', () => {
    const xs = Array.from({ length: 1001 }, (_, i) => i);
    const d = downsample(xs, 100);
    expect(d.t[0]).toBe(0);
    expect(d.t[d.t.length - 1]).toBe(1000);
    expect(d.v.length).toBeLessThanOrEqual(102);
    expect(downsample([], 10)).toEqual({ t: [], v: [] });
  });
});

describe('live simulation', () => {
  const config = () => {
    const c = defaultConfig(opinionsLab);
    c.graph.side = 12;
    c.live.stepsPerFrame = 3;
    return c;
  };

  it('is reproducible from the seed and the frame size, and records n(t) for every step', () => {
    const run = () => {
      const s = new LiveSimulation(config());
      for (let k = 0; k < 5; k++) s.frame();
      return s;
    };
    const a = run();
    const b = run();
    expect(a.t).toBe(15);
    expect(a.net).toHaveLength(16);
    expect(Array.from(a.spins)).toEqual(Array.from(b.spins));
    expect(a.net).toEqual(b.net);
    expect(a.updates).toBe(15 * 144);
    const other = config();
    other.seed = 2;
    expect(Array.from(new LiveSimulation(other).spins)).not.toEqual(Array.from(new LiveSimulation(config()).spins));
  });

  it('retunes in place: a frozen low-𝒯 ferromagnet orders, and a sample reports n and c', () => {
    const c = config();
    const s = new LiveSimulation(c);
    c.dynamics.temperature = 0.01;
    c.dynamics.field = 'uniform';
    c.dynamics.fieldStrength = 3;
    s.retune(c);
    s.frame();
    s.frame();
    const sample = s.sample();
    expect(sample.n).toBe(1);
    expect(sample.c).toBeCloseTo(1, 9);
    expect(phaseLabel(sample.n, sample.c, thresholds)).toBe('consensus');
  });

  it('a hot system is indifferent', () => {
    const c = config();
    c.dynamics.temperature = 100;
    const s = new LiveSimulation(c);
    for (let k = 0; k < 10; k++) s.frame();
    const sample = s.sample();
    expect(phaseLabel(sample.n, sample.c, thresholds)).toBe('indifference');
  });

  it('paints one pixel per spin, in the lattice layout, and greys empty cells', () => {
    expect(gridSide(144, 12)).toBe(12);
    expect(gridSide(10)).toBe(4);
    const rgba = new Uint8ClampedArray(4 * 4 * 4);
    paintSpins(Int8Array.from([1, -1, 1, 1, -1, -1, 1, 1, 1, 1]), 4, rgba);
    expect(Array.from(rgba.slice(0, 4))).toEqual([...SPIN_COLOURS.up, 255]);
    expect(Array.from(rgba.slice(4, 8))).toEqual([...SPIN_COLOURS.down, 255]);
    expect(Array.from(rgba.slice(4 * 15, 4 * 16))).toEqual([229, 231, 235, 255]);
  });
});

describe('temperature sweep of the view', () => {
  it('finds 𝒯_c of the default couplings on a lattice (w = β⁺ + β₀ = 1.2, so 𝒯_c ≈ 1.2 · 1.134 ≈ 1.36)', async () => {
    const c = defaultConfig(opinionsLab);
    c.graph.side = 16;
    c.sweep = { points: 21, tMin: 0.3, tMax: 6, steps: 300, burn: 100, starts: 2, start: 'ordered' };
    const progress: number[] = [];
    const r = await runSweep(
      c,
      (done) => progress.push(done),
      async () => {},
    );
    expect(progress).toEqual(Array.from({ length: 21 }, (_, k) => k + 1));
    expect(r.atEdge).toBe(false);
    expect(r.tc).toBeGreaterThan(1.1);
    expect(r.tc).toBeLessThan(1.8);
    expect(r.current).toBe(1);
    // Ordered below 𝒯_c, disordered far above it.
    expect(r.phases[0]).toBe('consensus');
    expect(r.phases[r.phases.length - 1]).toBe('indifference');
    expect(r.finalC[0]).toBeGreaterThan(0.9);
  });

  it('phase bands join equal neighbours and split at geometric midpoints', () => {
    expect(phaseBands([1, 4, 16, 64], ['consensus', 'consensus', 'indifference', 'indifference'])).toEqual([
      { x0: 1, x1: 8, phase: 'consensus' },
      { x0: 8, x1: 64, phase: 'indifference' },
    ]);
    expect(phaseBands([2], ['polarization'])).toEqual([{ x0: 2, x1: 2, phase: 'polarization' }]);
    expect(phaseBands([], [])).toEqual([]);
  });

  it('per-node fields enter the sweep as one feature column', () => {
    const c = defaultConfig(opinionsLab);
    c.custom = { nodes: 3, edges: '0+1,1-2' };
    c.dynamics.nodeFields = [0.5, -1, 2];
    c.sweep.start = 'random';
    const { model, starts } = sweepSetup(c);
    expect(model.type === 'glauber' && model.field).toBe('features');
    expect(Array.from(starts[0].features!)).toEqual([0.5, -1, 2]);
    expect(starts).toHaveLength(c.sweep.starts);
  });
});
