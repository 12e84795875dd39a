/**
 * Coupling sets of opinions.md "Model" and the covariates they multiply. Every model is h_i = Σ_k β_k a_ik + g_i,
 * where the a_ik are sums over neighbours; the effective weight of one neighbour is what a simulator needs.
 */
import type { SignedGraph } from '../graphs/signed';

export type Couplings =
  | { kind: 'one'; beta: number }
  | { kind: 'three'; betaPlus: number; betaMinus: number; beta0: number }
  | { kind: 'five'; betaPlusT: number; betaPlusF: number; betaMinusT: number; betaMinusF: number; beta0: number };

export type CouplingKind = Couplings['kind'];

/** Names of the coupling covariates, in the order covariates() writes them. */
export const COUPLING_NAMES: Record<CouplingKind, string[]> = {
  one: ['beta'],
  three: ['betaPlus', 'betaMinus', 'beta0'],
  five: ['betaPlusT', 'betaPlusF', 'betaMinusT', 'betaMinusF', 'beta0'],
};

/**
 * Weight on s_j of one neighbour, by edge sign and whether j holds the correct answer.
 * [friendly·correct, friendly·wrong, unfriendly·correct, unfriendly·wrong]; one/three ignore correctness.
 * J⁻ = −1 on an unfriendly edge, so β⁻ Σ J⁻ s_j puts −β⁻ on s_j, and Σ|J| s_j puts +β₀.
 */
export function effectiveWeights(c: Couplings): [number, number, number, number] {
  switch (c.kind) {
    case 'one':
      return [c.beta, c.beta, -c.beta, -c.beta];
    case 'three':
      return [c.betaPlus + c.beta0, c.betaPlus + c.beta0, c.beta0 - c.betaMinus, c.beta0 - c.betaMinus];
    case 'five':
      return [c.betaPlusT + c.beta0, c.betaPlusF + c.beta0, c.beta0 - c.betaMinusT, c.beta0 - c.betaMinusF];
  }
}

/** The couplings in COUPLING_NAMES order (a test checks that the two orders agree). */
export function couplingVector(c: Couplings): number[] {
  switch (c.kind) {
    case 'one':
      return [c.beta];
    case 'three':
      return [c.betaPlus, c.betaMinus, c.beta0];
    case 'five':
      return [c.betaPlusT, c.betaPlusF, c.betaMinusT, c.betaMinusF, c.beta0];
  }
}

/** The couplings of `kind` from a vector in COUPLING_NAMES order. */
export function couplingsFromVector(kind: CouplingKind, v: ArrayLike<number>): Couplings {
  switch (kind) {
    case 'one':
      return { kind, beta: v[0] };
    case 'three':
      return { kind, betaPlus: v[0], betaMinus: v[1], beta0: v[2] };
    case 'five':
      return { kind, betaPlusT: v[0], betaPlusF: v[1], betaMinusT: v[2], betaMinusF: v[3], beta0: v[4] };
  }
}

/**
 * Neighbour sums for every node at state s, written to out[i·K + k] (K = 1, 3 or 5 columns, COUPLING_NAMES order).
 * one: Σ J s; three: Σ J⁺ s, Σ J⁻ s, Σ |J| s; five: Σ J⁺ s κ, Σ J⁺ s (1−κ), Σ J⁻ s κ, Σ J⁻ s (1−κ), Σ |J| s,
 * with κ_j = 1[s_j = yTrue].
 */
export function covariates(g: SignedGraph, kind: CouplingKind, s: ArrayLike<number>, yTrue = 1, out?: Float64Array): Float64Array {
  const K = COUPLING_NAMES[kind].length;
  const res = out ?? new Float64Array(g.n * K);
  const { rowPtr, col, sign } = g;
  for (let i = 0; i < g.n; i++) {
    let fT = 0;
    let fF = 0;
    let uT = 0;
    let uF = 0;
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
      const v = s[col[p]];
      const correct = v === yTrue;
      if (sign[p] > 0) {
        if (correct) fT += v;
        else fF += v;
      } else if (correct) uT += v;
      else uF += v;
    }
    const o = i * K;
    if (kind === 'one') res[o] = fT + fF - uT - uF;
    else if (kind === 'three') {
      res[o] = fT + fF;
      res[o + 1] = 0 - uT - uF; // 0 − … avoids −0, which breaks equality checks downstream
      res[o + 2] = fT + fF + uT + uF;
    } else {
      res[o] = fT;
      res[o + 1] = fF;
      res[o + 2] = 0 - uT;
      res[o + 3] = 0 - uF;
      res[o + 4] = fT + fF + uT + uF;
    }
  }
  return res;
}

/** h_i = Σ_k β_k a_ik + g_i at state s. */
export function localFields(g: SignedGraph, c: Couplings, fields: ArrayLike<number> | number, s: ArrayLike<number>, yTrue = 1): Float64Array {
  const [wFT, wFF, wUT, wUF] = effectiveWeights(c);
  const h = new Float64Array(g.n);
  const { rowPtr, col, sign } = g;
  for (let i = 0; i < g.n; i++) {
    let acc = typeof fields === 'number' ? fields : fields[i];
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
      const v = s[col[p]];
      const correct = v === yTrue;
      acc += (sign[p] > 0 ? (correct ? wFT : wFF) : correct ? wUT : wUF) * v;
    }
    h[i] = acc;
  }
  return h;
}
