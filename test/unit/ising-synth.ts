// Synthetic Glauber episodes with known parameters, shared by the recovery tests (not a test file itself).
import { createRng } from '../../src/core/rng';
import { lowRank, randomSigned } from '../../src/core/graphs/generators';
import { fieldFeatures } from '../../src/core/ising/features';
import { fieldsFor } from '../../src/core/ising/fit';
import { simulateGlauber } from '../../src/core/ising/simulate';
import type { Couplings } from '../../src/core/ising/couplings';
import type { Episode } from '../../src/core/ising/design';

export const TRUE_W = Float64Array.from([0.1, 0.5, -0.4, 0, 0.3, 0, 0.1, 0.4, 0, 0, 0, -0.3, 0, 0, 0, 0]);

export function synthEpisodes(
  couplings: Couplings,
  o: { episodes: number; seed: string; n?: number; steps?: number; mode?: 'sync' | 'async'; eps?: number },
): Episode[] {
  const rng = createRng(o.seed);
  const N = o.n ?? 32;
  const T = o.steps ?? 8;
  const p = new Float64Array(N * 3).map(() => rng.normal());
  const out: Episode[] = [];
  for (let e = 0; e < o.episodes; e++) {
    const kind = e % 3;
    const g =
      kind === 0
        ? randomSigned(N, { budget: 100 }, rng)
        : kind === 1
          ? randomSigned(N, { budget: 70, positiveFraction: 0.7 }, rng)
          : lowRank(N, { rank: 4, frustration: 0.1, budget: 90, restarts: 4 }, rng);
    const { features, featureCount } = fieldFeatures(p, N, [rng.normal(), rng.normal(), rng.normal()]);
    const yTrue = rng.next() < 0.5 ? 1 : -1;
    const ep: Episode = { graph: g, states: new Int8Array(0), features, featureCount, yTrue };
    const s0 = new Int8Array(N).map(() => (rng.next() < 0.5 ? 1 : -1));
    ep.states = simulateGlauber(g, { couplings, fields: fieldsFor(ep, 'features', TRUE_W), mode: o.mode, eps: o.eps, yTrue }, s0, T, rng).states!;
    out.push(ep);
  }
  return out;
}

export const relErr = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);
