// Parameter recovery: simulate from known couplings and fields, fit, and compare the identifiable quantities.
import { describe, expect, it } from 'vitest';
import { fitGlauber } from '../../src/core/ising/fit';
import { effectiveWeights } from '../../src/core/ising/couplings';
import { synthEpisodes, relErr, TRUE_W } from './ising-synth';
import { squareLattice } from '../../src/core/graphs/generators';
import { simulateGlauber } from '../../src/core/ising/simulate';
import { createRng } from '../../src/core/rng';

const maxFieldErr = (w: ArrayLike<number>) => Math.max(...Array.from(w, (v, k) => Math.abs(v - TRUE_W[k])));

// Generous timeouts: each fit takes ~1 s alone, but this 2-core machine is shared and often loaded.
describe('parameter recovery (N = 32, T = 8, random / sign-mixed / low-rank graphs)', { timeout: 30_000 }, () => {
  it('three couplings, two-stage: effective weights within 10%, field weights within 0.1', () => {
    const truth = { kind: 'three' as const, betaPlus: 0.5, betaMinus: 0.6, beta0: 0.3 };
    const [tf, , tu] = effectiveWeights(truth);
    const f = fitGlauber(synthEpisodes(truth, { episodes: 60, seed: 'three' }), { kind: 'three' });
    expect(relErr(f.effective.friendly, tf)).toBeLessThan(0.1);
    expect(relErr(f.effective.unfriendly, tu)).toBeLessThan(0.1);
    expect(maxFieldErr(f.fieldWeights)).toBeLessThan(0.1);
    expect(f.stage1).toBeDefined();
    expect(f.converged).toBe(true);
  });

  it('one coupling: β within 10%', () => {
    const truth = { kind: 'one' as const, beta: 0.6 };
    const f = fitGlauber(synthEpisodes(truth, { episodes: 40, seed: 'one' }), { kind: 'one' });
    expect(f.couplings.kind).toBe('one');
    expect(relErr(f.effective.friendly, 0.6)).toBeLessThan(0.1);
    expect(maxFieldErr(f.fieldWeights)).toBeLessThan(0.12);
  });

  it('five couplings (objective questions): the four effective weights within 10%', () => {
    const truth = { kind: 'five' as const, betaPlusT: 0.9, betaPlusF: 0.3, betaMinusT: 0.2, betaMinusF: 0.9, beta0: 0.3 };
    const [fT, fF, uT, uF] = effectiveWeights(truth);
    const f = fitGlauber(synthEpisodes(truth, { episodes: 80, seed: 'five' }), { kind: 'five' });
    expect(relErr(f.effective.friendly, fT)).toBeLessThan(0.1);
    expect(relErr(f.effective.friendlyWrong!, fF)).toBeLessThan(0.1);
    expect(relErr(f.effective.unfriendly, uT)).toBeLessThan(0.1);
    expect(relErr(f.effective.unfriendlyWrong!, uF)).toBeLessThan(0.1);
  });
});

describe('identifiability guard', { timeout: 30_000 }, () => {
  it('with no unfriendly edge anywhere, β⁻ is flagged unidentified and reported as 0', () => {
    const lat = squareLattice(6);
    const rng = createRng('lat');
    const episodes = Array.from({ length: 20 }, () => {
      const s0 = Int8Array.from({ length: 36 }, () => (rng.next() < 0.5 ? 1 : -1));
      return { graph: lat, states: simulateGlauber(lat, { couplings: { kind: 'one', beta: 0.5 }, fields: 0.1 }, s0, 6, rng).states! };
    });
    const f = fitGlauber(episodes, { kind: 'three', field: 'bias' });
    expect(f.unidentified).toEqual(['betaMinus']);
    expect(f.couplings.kind === 'three' && f.couplings.betaMinus).toBe(0);
    expect(relErr(f.effective.friendly, 0.5)).toBeLessThan(0.15);
    expect(fitGlauber(episodes, { kind: 'one', field: 'bias' }).unidentified).toEqual([]);
  });
});
