/**
 * Every dynamics model the scores compare, as plain data (structured-cloneable), and what each predicts from a
 * state: P(s_i(t+1) = +1), the deterministic next state, and rollouts from s(0).
 */
import type { Rng } from '../rng';
import type { Episode, FieldMode } from './design';
import { episodeSteps } from './design';
import { localFields, type Couplings } from './couplings';
import { fieldsFor, type GlauberFit } from './fit';
import { sigmoid } from './simulate';

export type DynamicsModel =
  | { type: 'glauber'; couplings: Couplings; field: FieldMode; fieldWeights: ArrayLike<number>; link?: 'logistic' | 'eps'; eps?: number; temperature?: number }
  | { type: 'persistence' }
  | { type: 'interactionFree'; field: FieldMode; fieldWeights: ArrayLike<number> }
  | { type: 'meanField'; beta: number; field: FieldMode; fieldWeights: ArrayLike<number> }
  | { type: 'majority'; label: number };

export function modelFromFit(f: GlauberFit): DynamicsModel {
  return { type: 'glauber', couplings: f.couplings, field: f.field, fieldWeights: f.fieldWeights, link: f.link, eps: f.eps };
}

/** P(s_i(t+1) = +1 | s(t)) for every agent of an episode. */
export function predictProb(m: DynamicsModel, e: Episode, s: ArrayLike<number>): Float64Array {
  const n = e.graph.n;
  const out = new Float64Array(n);
  switch (m.type) {
    case 'persistence':
      for (let i = 0; i < n; i++) out[i] = s[i] > 0 ? 1 : 0;
      return out;
    case 'majority':
      return out.fill(m.label > 0 ? 1 : 0);
    case 'interactionFree': {
      const g = fieldsFor(e, m.field, m.fieldWeights);
      for (let i = 0; i < n; i++) out[i] = sigmoid(g[i]);
      return out;
    }
    case 'meanField': {
      const g = fieldsFor(e, m.field, m.fieldWeights);
      let sbar = 0;
      for (let i = 0; i < n; i++) sbar += s[i] / n;
      for (let i = 0; i < n; i++) out[i] = sigmoid(g[i] + m.beta * sbar);
      return out;
    }
    case 'glauber': {
      const h = localFields(e.graph, m.couplings, fieldsFor(e, m.field, m.fieldWeights), s, e.yTrue ?? 1);
      const T = m.temperature ?? 1;
      if (m.link === 'eps') {
        const eps = m.eps ?? 0.5;
        for (let i = 0; i < n; i++) out[i] = (1 + (1 - eps) * (s[i] > 0 ? 1 : -1) + eps * Math.tanh(h[i] / T)) / 2;
      } else for (let i = 0; i < n; i++) out[i] = sigmoid(h[i] / T);
      return out;
    }
  }
}

/** Deterministic next state: the more likely spin; a tie keeps the current spin. */
export function predictNext(m: DynamicsModel, e: Episode, s: ArrayLike<number>): Int8Array {
  const p = predictProb(m, e, s);
  const out = new Int8Array(p.length);
  for (let i = 0; i < p.length; i++) out[i] = p[i] > 0.5 ? 1 : p[i] < 0.5 ? -1 : s[i] > 0 ? 1 : -1;
  return out;
}

/** Deterministic rollout from the episode's s(0): (T+1)·N, row 0 = s(0). Persistence keeps s(0) throughout. */
export function rollout(m: DynamicsModel, e: Episode, steps = episodeSteps(e)): Int8Array {
  const n = e.graph.n;
  const out = new Int8Array((steps + 1) * n);
  out.set(e.states.subarray(0, n));
  for (let t = 1; t <= steps; t++) out.set(predictNext(m, e, out.subarray((t - 1) * n, t * n)), t * n);
  return out;
}

/** Stochastic rollout (sample the predicted probabilities), for archetype distributions. */
export function rolloutStochastic(m: DynamicsModel, e: Episode, rng: Rng, steps = episodeSteps(e)): Int8Array {
  const n = e.graph.n;
  const out = new Int8Array((steps + 1) * n);
  out.set(e.states.subarray(0, n));
  for (let t = 1; t <= steps; t++) {
    const p = predictProb(m, e, out.subarray((t - 1) * n, t * n));
    for (let i = 0; i < n; i++) out[t * n + i] = rng.next() < p[i] ? 1 : -1;
  }
  return out;
}
