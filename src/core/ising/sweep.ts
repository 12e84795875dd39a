/**
 * Temperature sweep: σ(h) → σ(h/𝒯) on log-spaced 𝒯, synchronous runs from each observed s(0);
 * χ = N·Var_t(|n(t)|) after a burn-in, averaged over starts; 𝒯_c is the vertex of the parabola in log 𝒯 through
 * the peak and its two neighbours.
 */
import { createRng } from '../rng';
import type { Episode } from './design';
import { fieldsFor } from './fit';
import type { DynamicsModel } from './models';
import { simulateGlauber } from './simulate';
import { couplingVector, couplingsFromVector } from './couplings';

export interface SweepOptions {
  count?: number;
  tMin?: number;
  tMax?: number;
  steps?: number;
  /** Steps dropped at the start (the rest enter χ). */
  burn?: number;
  seed?: number | string;
}

export interface SweepResult {
  temperatures: Float64Array;
  chi: Float64Array;
  peakIndex: number;
  /** NaN-free: at an edge peak, 𝒯_c is the edge temperature and atEdge is true. */
  tc: number;
  atEdge: boolean;
}

export function logSpace(a: number, b: number, count: number): Float64Array {
  const out = new Float64Array(count);
  for (let k = 0; k < count; k++) out[k] = Math.exp(Math.log(a) + (count > 1 ? (k / (count - 1)) * (Math.log(b) - Math.log(a)) : 0));
  return out;
}

/** Vertex of the parabola through three points (exact interpolation, as numpy.polyfit(deg=2) on three points). */
export function parabolaVertex(x: readonly number[], y: readonly number[]): { x: number; y: number } {
  const [x0, x1, x2] = x;
  const [y0, y1, y2] = y;
  const d = (x0 - x1) * (x0 - x2) * (x1 - x2);
  const A = (x2 * (y1 - y0) + x1 * (y0 - y2) + x0 * (y2 - y1)) / d;
  const B = (x2 * x2 * (y0 - y1) + x1 * x1 * (y2 - y0) + x0 * x0 * (y1 - y2)) / d;
  const C = (x1 * x2 * (x1 - x2) * y0 + x2 * x0 * (x2 - x0) * y1 + x0 * x1 * (x0 - x1) * y2) / d;
  if (A === 0) return { x: x1, y: y1 };
  const xv = -B / (2 * A);
  return { x: xv, y: C - (B * B) / (4 * A) };
}

/** χ from one trajectory of n(t), dropping the first `burn` steps (t = 0 is the start and is always dropped). */
export function susceptibility(net: ArrayLike<number>, n: number, burn: number): number {
  let m = 0;
  let c = 0;
  for (let t = burn + 1; t < net.length; t++, c++) m += Math.abs(net[t]);
  if (!c) return 0;
  m /= c;
  let v = 0;
  for (let t = burn + 1; t < net.length; t++) v += (Math.abs(net[t]) - m) ** 2;
  return (n * v) / c;
}

export function temperatureSweep(model: DynamicsModel, starts: readonly Episode[], o: SweepOptions = {}): SweepResult {
  if (model.type !== 'glauber') throw new Error('temperatureSweep needs a Glauber model');
  const temperatures = logSpace(o.tMin ?? 0.05, o.tMax ?? 20, o.count ?? 41);
  const steps = o.steps ?? 500;
  const burn = o.burn ?? 200;
  const rng = createRng(o.seed ?? 0);
  const chi = new Float64Array(temperatures.length);
  // An ε-form fit lives in tanh units: tanh(η) ⇔ σ(h) with h = 2η, so the sweep runs its Glauber equivalent.
  const k = model.link === 'eps' ? 2 : 1;
  const couplings = couplingsFromVector(
    model.couplings.kind,
    couplingVector(model.couplings).map((v) => k * v),
  );
  const fields = starts.map((e) => fieldsFor(e, model.field, model.fieldWeights).map((v) => k * v));
  temperatures.forEach((T, k) => {
    let acc = 0;
    starts.forEach((e, j) => {
      const r = simulateGlauber(
        e.graph,
        { couplings, fields: fields[j], temperature: T, mode: 'sync', yTrue: e.yTrue },
        e.states.subarray(0, e.graph.n),
        steps,
        rng,
        { record: false },
      );
      acc += susceptibility(r.net, e.graph.n, burn);
    });
    chi[k] = starts.length ? acc / starts.length : 0;
  });
  let peak = 0;
  for (let k = 1; k < chi.length; k++) if (chi[k] > chi[peak]) peak = k;
  const atEdge = peak === 0 || peak === chi.length - 1;
  let tc = temperatures[peak];
  if (!atEdge) {
    const lx = [peak - 1, peak, peak + 1].map((k) => Math.log(temperatures[k]));
    tc = Math.exp(parabolaVertex(lx, [chi[peak - 1], chi[peak], chi[peak + 1]]).x);
  }
  return { temperatures, chi, peakIndex: peak, tc, atEdge };
}
