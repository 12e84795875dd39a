// Parameter recovery: simulate from known couplings and fields, fit, and compare the identifiable quantities.
import { describe, expect, it } from 'vitest';
import { fitGlauber } from '../../src/core/ising/fit';
import { effectiveWeights } from '../../src/core/ising/couplings';
import { synthEpisodes, relErr, TRUE_W } from './ising-synth';

const maxFieldErr = (w: ArrayLike<number>) => Math.max(...Array.from(w, (v, k) => Math.abs(v - TRUE_W[k])));

describe('parameter recovery (N = 32, T = 8, random / sign-mixed / low-rank graphs)', () => {
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
