/**
 * Turns observed episodes into one-step transition rows: covariates at s(t), target s_i(t+1), t = 0..T−1.
 * Row layout: [coupling covariates (COUPLING_NAMES order) | field features φ_i].
 */
import type { SignedGraph } from '../graphs/signed';
import { COUPLING_NAMES, covariates, type CouplingKind } from './couplings';

export interface Episode {
  graph: SignedGraph;
  /** (T+1)·N spins (±1), row t = s(t). */
  states: Int8Array;
  /** Field features φ_i, N·F row-major (e.g. the 16 of fieldFeatures); omit for a bias-only field. */
  features?: Float64Array;
  /** Number of feature columns in `features`. */
  featureCount?: number;
  /** Correct answer (±1) for objective questions; five couplings need it. */
  yTrue?: number;
}

/** 'features' uses Episode.features, 'bias' a single constant g, 'none' no field at all. */
export type FieldMode = 'features' | 'bias' | 'none';

export interface Design {
  rows: number;
  cols: number;
  /** rows·cols, row-major. */
  X: Float64Array;
  /** s_i(t+1) ∈ ±1. */
  y: Int8Array;
  /** s_i(t) ∈ ±1 (the ε form needs it; scores need it for flip/stay). */
  prev: Int8Array;
  names: string[];
  couplingCols: number;
  featureCols: number;
}

export function episodeSteps(e: Episode): number {
  return e.states.length / e.graph.n - 1;
}

export function featureCountOf(episodes: readonly Episode[], field: FieldMode): number {
  if (field === 'none') return 0;
  if (field === 'bias') return 1;
  const f = episodes[0]?.featureCount ?? 0;
  for (const e of episodes)
    if (!e.features || (e.featureCount ?? 0) !== f) throw new Error('field "features" needs every episode to carry the same featureCount');
  return f;
}

/** kind = null gives a coupling-free design (the Interaction-Free baseline). 'meanField' gives one column s̄(t). */
export function buildDesign(episodes: readonly Episode[], kind: CouplingKind | 'meanField' | null, field: FieldMode): Design {
  const K = kind === null ? 0 : kind === 'meanField' ? 1 : COUPLING_NAMES[kind].length;
  const F = featureCountOf(episodes, field);
  if (kind === 'five' && episodes.some((e) => e.yTrue !== 1 && e.yTrue !== -1))
    throw new Error('five couplings need every episode to carry yTrue = ±1 (objective questions only)');
  const cols = K + F;
  let rows = 0;
  for (const e of episodes) rows += e.graph.n * episodeSteps(e);
  const X = new Float64Array(rows * cols);
  const y = new Int8Array(rows);
  const prev = new Int8Array(rows);
  let r = 0;
  for (const e of episodes) {
    const n = e.graph.n;
    const T = episodeSteps(e);
    const cov = new Float64Array(n * Math.max(K, 1));
    for (let t = 0; t < T; t++) {
      const s = e.states.subarray(t * n, (t + 1) * n);
      if (kind !== null && kind !== 'meanField') covariates(e.graph, kind, s, e.yTrue ?? 1, cov);
      let sbar = 0;
      if (kind === 'meanField') for (let i = 0; i < n; i++) sbar += s[i] / n;
      for (let i = 0; i < n; i++, r++) {
        const o = r * cols;
        if (kind === 'meanField') X[o] = sbar;
        else for (let k = 0; k < K; k++) X[o + k] = cov[i * K + k];
        if (field === 'bias') X[o + K] = 1;
        else if (field === 'features') for (let f = 0; f < F; f++) X[o + K + f] = e.features![i * F + f];
        y[r] = e.states[(t + 1) * n + i] > 0 ? 1 : -1;
        prev[r] = s[i] > 0 ? 1 : -1;
      }
    }
  }
  const names = [...(kind === null ? [] : kind === 'meanField' ? ['betaMF'] : COUPLING_NAMES[kind]), ...Array.from({ length: F }, (_, f) => `w${f}`)];
  return { rows, cols, X, y, prev, names, couplingCols: K, featureCols: F };
}

/** Copies a subset of columns (and optionally appends none); used by the two-stage fits. */
export function selectColumns(d: Design, keep: readonly number[]): Float64Array {
  const out = new Float64Array(d.rows * keep.length);
  for (let r = 0; r < d.rows; r++) for (let k = 0; k < keep.length; k++) out[r * keep.length + k] = d.X[r * d.cols + keep[k]];
  return out;
}

/**
 * Spins from vote means ō ((T+1)·N, row t = round t): s = sign(ō). A tie (ō = 0, possible only with an even
 * number of votes) keeps the agent's previous spin, and is +1 in round 0.
 */
export function spinsFromVoteMeans(obar: ArrayLike<number>, n: number): Int8Array {
  const out = new Int8Array(obar.length);
  for (let k = 0; k < obar.length; k++) out[k] = obar[k] > 0 ? 1 : obar[k] < 0 ? -1 : k < n ? 1 : out[k - n];
  return out;
}
