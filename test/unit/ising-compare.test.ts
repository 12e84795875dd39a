// Recovery of the continuous ε form, and the fitted model against the baselines on held-out episodes.
import { describe, expect, it } from 'vitest';
import { fitGlauber } from '../../src/core/ising/fit';
import { effectiveWeights } from '../../src/core/ising/couplings';
import { compareModels } from '../../src/core/ising/compare';
import { synthEpisodes, relErr } from './ising-synth';

describe('ε form and baselines (N = 32, T = 8)', { timeout: 30_000 }, () => {
  it('continuous ε form on asynchronous data: ε and 2·(effective weights) recovered', () => {
    const truth = { kind: 'three' as const, betaPlus: 0.9, betaMinus: 0.9, beta0: 0.3 };
    const [tf, , tu] = effectiveWeights(truth);
    const eps = synthEpisodes(truth, { episodes: 80, seed: 'async', mode: 'async', eps: 0.5 });
    const f = fitGlauber(eps, { kind: 'three', link: 'eps' });
    expect(Math.abs(f.eps! - 0.5)).toBeLessThan(0.05);
    // tanh(η) ⇔ σ(h) with h = 2η
    expect(relErr(2 * f.effective.friendly, tf)).toBeLessThan(0.1);
    expect(relErr(2 * f.effective.unfriendly, tu)).toBeLessThan(0.1);
  });

  it('the fitted model beats every baseline in balanced accuracy, one-step and rollout, on held-out episodes', () => {
    const truth = { kind: 'three' as const, betaPlus: 0.5, betaMinus: 0.6, beta0: 0.3 };
    const all = synthEpisodes(truth, { episodes: 60, seed: 'compare' });
    const c = compareModels(all.slice(0, 40), all.slice(40), { kind: 'three' });
    const [glauber, ...baselines] = c.scores;
    expect(baselines.map((b) => b.name)).toEqual(['Persistence', 'Interaction-Free', 'Mean-Field', 'Majority Class']);
    for (const b of baselines) {
      expect(glauber.oneStep.balanced).toBeGreaterThan(b.oneStep.balanced);
      expect(glauber.rollout.balanced).toBeGreaterThan(b.rollout.balanced);
      expect(glauber.oneStep.raw).toBeGreaterThan(b.oneStep.raw);
    }
    expect(baselines[0].oneStep.balanced).toBe(0.5); // persistence never predicts a flip
  });
});
