/**
 * Readouts of the live simulation. Spins are ±1, so Σ s_i² is always N; the conviction shown is that of the
 * expected vote ō_i = E[vote | s(t)] = 2σ(h_i/𝒯) − 1 = tanh(h_i / 2𝒯), i.e. the mean of K → ∞ votes in the
 * method's protocol. c(t) = (1/N) Σ ō_i² is then 0 for agents who do not care (high 𝒯) and 1 for certain ones.
 */
import { localFields, type Couplings } from '../../core/ising/couplings';
import type { SignedGraph } from '../../core/graphs/signed';
import { parabolaVertex } from '../../core/ising/sweep';

export type Phase = 'indifference' | 'polarization' | 'consensus';

export interface PhaseThresholds {
  /** Below this conviction: indifference. */
  conviction: number;
  /** Above this |n| (among committed states): consensus, else polarization. */
  consensus: number;
}

/**
 * The method's regimes use pooled quantiles over many groups; one live system has no pool, so the same three-way
 * rule is applied with fixed thresholds that the user sets.
 */
export function phaseLabel(n: number, c: number, t: PhaseThresholds): Phase {
  if (c < t.conviction) return 'indifference';
  return Math.abs(n) > t.consensus ? 'consensus' : 'polarization';
}

export function expectedConviction(
  g: SignedGraph,
  couplings: Couplings,
  fields: ArrayLike<number> | number,
  s: ArrayLike<number>,
  temperature: number,
): number {
  const h = localFields(g, couplings, fields, s);
  let c = 0;
  for (let i = 0; i < h.length; i++) {
    const o = Math.tanh(h[i] / (2 * temperature));
    c += o * o;
  }
  return h.length ? c / h.length : 0;
}

/** χ = N·Var(|n|) over the last `window` values of n(t) (the live analogue of the sweep's χ). */
export function windowSusceptibility(net: readonly number[], n: number, window: number): number {
  const xs = net.slice(Math.max(0, net.length - window)).map(Math.abs);
  if (xs.length < 2) return 0;
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return (n * xs.reduce((a, b) => a + (b - m) ** 2, 0)) / xs.length;
}

/**
 * 𝒯_c from χ on a temperature grid, by the core sweep's rule: the vertex of the parabola in log 𝒯 through the peak
 * and its two neighbours; at an edge peak, the edge temperature (flagged).
 */
export function locateTc(temperatures: ArrayLike<number>, chi: ArrayLike<number>): { tc: number; peakIndex: number; atEdge: boolean } {
  let peak = 0;
  for (let k = 1; k < chi.length; k++) if (chi[k] > chi[peak]) peak = k;
  const atEdge = peak === 0 || peak === chi.length - 1;
  if (atEdge) return { tc: temperatures[peak], peakIndex: peak, atEdge };
  const lx = [peak - 1, peak, peak + 1].map((k) => Math.log(temperatures[k]));
  return { tc: Math.exp(parabolaVertex(lx, [chi[peak - 1], chi[peak], chi[peak + 1]]).x), peakIndex: peak, atEdge };
}

/** Keeps a long series plottable: at most `max` points, by striding (the last point is always kept). */
export function downsample(xs: readonly number[], max: number): { t: number[]; v: number[] } {
  const stride = Math.max(1, Math.ceil(xs.length / max));
  const t: number[] = [];
  const v: number[] = [];
  for (let k = 0; k < xs.length; k += stride) {
    t.push(k);
    v.push(xs[k]);
  }
  if (xs.length && t[t.length - 1] !== xs.length - 1) {
    t.push(xs.length - 1);
    v.push(xs[xs.length - 1]);
  }
  return { t, v };
}

/** Contiguous runs of one phase on a log-spaced grid, split at the geometric midpoints, for shading a plot. */
export function phaseBands(temperatures: readonly number[], phases: readonly Phase[]): { x0: number; x1: number; phase: Phase }[] {
  const out: { x0: number; x1: number; phase: Phase }[] = [];
  const edge = (k: number) => Math.sqrt(temperatures[k] * temperatures[k + 1]);
  for (let k = 0; k < phases.length; k++) {
    const x0 = k === 0 ? temperatures[0] : edge(k - 1);
    const x1 = k === phases.length - 1 ? temperatures[k] : edge(k);
    const last = out[out.length - 1];
    if (last && last.phase === phases[k]) last.x1 = x1;
    else out.push({ x0, x1, phase: phases[k] });
  }
  return out;
}
