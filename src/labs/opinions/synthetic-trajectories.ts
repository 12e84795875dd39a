/**
 * Synthetic trajectories with a known law: Glauber dynamics with given couplings on several seeded signed graphs,
 * several questions and field features φ = [1 | p_i | q | p_i ⊗ q] with known weights. Recovery tests, the CLI test
 * and the browser test use them; they are also a way to try the Fit panel without a model.
 */
import { createRng } from '../../core/rng';
import { lowRank, randomSigned } from '../../core/graphs/generators';
import { edgeList } from '../../core/graphs/signed';
import { fieldFeatures } from '../../core/ising/features';
import { simulateGlauber } from '../../core/ising/simulate';
import type { Couplings } from '../../core/ising/couplings';
import type { OpinionTrajectory } from './trajectory';

/** Field weights on the 16 features (bias, p, q, p⊗q). */
export const SYNTHETIC_FIELD_WEIGHTS = [0.1, 0.5, -0.4, 0, 0.3, 0, 0.1, 0.4, 0, 0, 0, -0.3, 0, 0, 0, 0];
export const FEATURE_NAMES = ['bias', 'p1', 'p2', 'p3', 'q1', 'q2', 'q3', ...[1, 2, 3].flatMap((a) => [1, 2, 3].map((b) => `p${a}q${b}`))];

export interface SyntheticOptions {
  couplings: Couplings;
  seed: string | number;
  graphs?: number;
  questions?: number;
  /** Trajectories per (graph, question). */
  episodes?: number;
  agents?: number;
  rounds?: number;
  objective?: boolean;
  mode?: 'sync' | 'async';
  eps?: number;
  fieldWeights?: number[];
}

export function syntheticTrajectories(o: SyntheticOptions): OpinionTrajectory[] {
  const rng = createRng(`${o.seed}/synthetic`);
  const N = o.agents ?? 32;
  const T = o.rounds ?? 8;
  const G = o.graphs ?? 4;
  const Q = o.questions ?? 4;
  const E = o.episodes ?? 2;
  const w = o.fieldWeights ?? SYNTHETIC_FIELD_WEIGHTS;
  const p = Array.from({ length: N * 3 }, () => rng.normal());
  const graphs = Array.from({ length: G }, (_, k) =>
    k % 3 === 0
      ? randomSigned(N, { budget: 3 * N }, rng)
      : k % 3 === 1
        ? randomSigned(N, { budget: 2 * N, positiveFraction: 0.7 }, rng)
        : lowRank(N, { rank: 4, frustration: 0.1, budget: 3 * N, restarts: 4 }, rng),
  );
  const questions = Array.from({ length: Q }, () => ({ q: [rng.normal(), rng.normal(), rng.normal()], correct: (rng.next() < 0.5 ? 1 : -1) as 1 | -1 }));
  const out: OpinionTrajectory[] = [];
  graphs.forEach((g, gi) => {
    const edges = edgeList(g).map(([i, j, s]) => [i, j, s > 0 ? 1 : -1] as [number, number, 1 | -1]);
    questions.forEach((qq, qi) => {
      const { features } = fieldFeatures(p, N, qq.q);
      const fields = Float64Array.from({ length: N }, (_, i) => w.reduce((a, wk, k) => a + wk * features[i * 16 + k], 0));
      for (let e = 0; e < E; e++) {
        const s0 = Int8Array.from({ length: N }, () => (rng.next() < 0.5 ? 1 : -1));
        const states = simulateGlauber(g, { couplings: o.couplings, fields, mode: o.mode, eps: o.eps, yTrue: qq.correct }, s0, T, rng).states!;
        out.push({
          id: `g${gi}/q${qi}/e${e}`,
          question: { id: `q${qi}`, kind: o.objective ? 'objective' : 'subjective', ...(o.objective ? { correct: qq.correct } : {}) },
          graphId: `g${gi}`,
          graph: { n: N, edges },
          voteMeans: Array.from({ length: T + 1 }, (_, t) => Array.from(states.subarray(t * N, (t + 1) * N))),
          features: Array.from({ length: N }, (_, i) => Array.from(features.subarray(i * 16, (i + 1) * 16))),
          featureNames: FEATURE_NAMES,
        });
      }
    });
  });
  return out;
}
