/**
 * The checkerboard schedule of Glauber dynamics on a periodic square lattice, as the WebGPU kernel runs it
 * (src/labs/opinions/gpu-ising.ts), written out in plain TypeScript: the GPU-free half of that kernel (its random
 * numbers, its thresholds, and a reference sweep that gives the GPU's spins bit for bit), plus the statistics that
 * check it against the CPU path (simulate.ts).
 *
 * Schedule. Colour a site (r, c) by (r + c) mod 2; a sweep (one step) redraws every colour-0 site from its four
 * colour-1 neighbours, then every colour-1 site from the colour-0 spins just drawn, each with P(s_i = +1) = σ(h_i/𝒯),
 * h_i = w·Σ_j s_j + g_i (the CPU path's law, couplings and fields). With ε < 1 each site of the colour is redrawn with
 * probability ε and kept otherwise. This is a Gibbs sampler of the same Boltzmann distribution as single-site heat
 * bath, but not the CPU's synchronous schedule (every spin from the previous state). On a bipartite lattice that
 * synchronous chain splits into two interleaved checkerboard chains: the pair (colour 0 of s(t), colour 1 of s(t+1))
 * is one checkerboard configuration, which is how `syncChainSeries` reads a CPU trajectory for the comparison.
 *
 * Random numbers. Philox-2×32-10 (Salmon et al. 2011, Random123), a counter-based generator: the two 32-bit words of
 * site i's draw in half-sweep (step, colour) are philox(counter = (i, 2·step + colour), key). Any site's number is
 * known without any other's, so a GPU thread needs no state, and the same seed gives the same spins on any device
 * that runs the kernel (this file gives them too). Word 0 decides whether an async site is redrawn, word 1 its spin.
 */
import { effectiveWeights, type Couplings } from './couplings';
import { sigmoid } from './simulate';
import type { SignedGraph } from '../graphs/signed';

const M = 0xd256d193;
const W = 0x9e3779b9;
const TWO32 = 4294967296;
/** A threshold that means "always +1" (P·2³² ≥ 2³² − 1, so P(−1) ≤ 2⁻³² is dropped). */
export const ALWAYS = 0xffffffff;

/** High 32 bits of a·b (unsigned), from 16-bit halves, the way the WGSL kernel computes it. */
export function mulhi32(a: number, b: number): number {
  const a0 = a & 0xffff;
  const a1 = a >>> 16;
  const b0 = b & 0xffff;
  const b1 = b >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const p11 = a1 * b1;
  const mid = (p00 >>> 16) + (p10 & 0xffff) + p01; // < 2³², exact in a double
  return (p11 + (p10 >>> 16) + Math.floor(mid / 65536)) >>> 0;
}

/** Philox-2×32-10 of counter (c0, c1) under key k; writes the two output words into out. */
export function philox2x32(c0: number, c1: number, key: number, out: Uint32Array = new Uint32Array(2)): Uint32Array {
  let x0 = c0 >>> 0;
  let x1 = c1 >>> 0;
  let k = key >>> 0;
  for (let r = 0; r < 10; r++) {
    const hi = mulhi32(M, x0);
    const lo = Math.imul(M, x0) >>> 0;
    x0 = (hi ^ k ^ x1) >>> 0;
    x1 = lo;
    k = (k + W) >>> 0;
  }
  out[0] = x0;
  out[1] = x1;
  return out;
}

/** ⌈P·2³²⌉, so that a uniform u32 u gives +1 exactly when u < P·2³² (the CPU's test), saturated at ALWAYS. */
export function probabilityThreshold(p: number): number {
  const t = Math.ceil(p * TWO32);
  return t >= ALWAYS ? ALWAYS : t <= 0 ? 0 : t;
}

/**
 * The side of g when the checkerboard kernel can run it: a periodic square lattice (4 neighbours, all friendly)
 * with an even side ≥ 4 (an odd side breaks the two-colouring across the wrap). Null otherwise.
 */
export function checkerboardSide(g: SignedGraph): number | null {
  const side = g.side ?? 0;
  if (g.kind !== 'square' || side < 4 || side % 2 !== 0 || side * side !== g.n || g.rowPtr[g.n] !== 4 * g.n) return null;
  for (let p = 0; p < g.sign.length; p++) if (g.sign[p] <= 0) return null;
  return side;
}

export interface CheckerboardLaw {
  /** P(+1)·2³² thresholds by neighbour sum k = −4, −2, 0, 2, 4: 5 values, or 5 per site when fields vary. */
  thresholds: Uint32Array;
  perSite: boolean;
  /** Redraw probability per site and half-sweep (1 = every site, the CPU's sync rule). */
  eps: number;
}

/**
 * The kernel's law for couplings, fields and 𝒯, on an all-friendly lattice: the weight of one neighbour is the
 * friendly effective weight (β⁺ + β₀ for the three couplings), as in simulate.ts; fields are one value or one per
 * site. Five couplings (correctness) are not supported.
 */
export function checkerboardLaw(
  couplings: Couplings,
  fields: ArrayLike<number> | number | undefined,
  temperature: number,
  n: number,
  eps = 1,
): CheckerboardLaw {
  const [wFT, wFF] = effectiveWeights(couplings);
  if (wFT !== wFF) throw new Error('The checkerboard kernel has no correctness term (five couplings).');
  let uniform: number | null = 0;
  if (typeof fields === 'number') uniform = fields;
  else if (fields && fields.length) {
    if (fields.length !== n) throw new Error(`${fields.length} fields for ${n} sites`);
    uniform = fields[0];
    for (let i = 1; i < n; i++)
      if (fields[i] !== uniform) {
        uniform = null;
        break;
      }
  }
  const sites = uniform === null ? n : 1;
  const thresholds = new Uint32Array(5 * sites);
  for (let i = 0; i < sites; i++) {
    const g = uniform ?? (fields as ArrayLike<number>)[i];
    for (let q = 0; q < 5; q++) thresholds[5 * i + q] = probabilityThreshold(sigmoid((wFT * (2 * q - 4) + g) / temperature));
  }
  return { thresholds, perSite: uniform === null, eps: Math.min(1, Math.max(0, eps)) };
}

/** ε·2³² as the kernel's selection threshold (ε = 1 selects every site without a draw). */
export function epsThreshold(eps: number): number {
  return eps >= 1 ? ALWAYS : Math.max(0, Math.floor(eps * TWO32));
}

export interface SweepRecords {
  /** Σ s_i after each step. */
  sum: Int32Array;
  /** Σ over the 2N bonds of s_i s_j after each step (the energy per spin is −w·bond/N, without the field). */
  bond: Int32Array;
  /** Spins redrawn in each step. */
  updates: Int32Array;
}

/**
 * `steps` checkerboard sweeps of `spins` (±1, row-major, in place), the first being step `firstStep`: what the GPU
 * kernel computes, bit for bit, and the reference its browser test holds it to.
 */
export function checkerboardSweeps(
  side: number,
  law: CheckerboardLaw,
  key: number,
  spins: Int8Array | Int32Array,
  firstStep: number,
  steps: number,
): SweepRecords {
  const rec: SweepRecords = { sum: new Int32Array(steps), bond: new Int32Array(steps), updates: new Int32Array(steps) };
  const epsThr = epsThreshold(law.eps);
  const all = law.eps >= 1;
  const u = new Uint32Array(2);
  const { thresholds, perSite } = law;
  for (let t = 0; t < steps; t++) {
    let updates = 0;
    for (let colour = 0; colour < 2; colour++) {
      const c1 = (2 * (firstStep + t) + colour) >>> 0;
      for (let r = 0; r < side; r++)
        for (let c = (r + colour) & 1; c < side; c += 2) {
          const i = r * side + c;
          philox2x32(i, c1, key, u);
          if (!all && u[0] >= epsThr) continue;
          const k = neighbourSum(spins, side, r, c);
          const thr = thresholds[(perSite ? 5 * i : 0) + (k + 4) / 2];
          spins[i] = u[1] < thr || thr === ALWAYS ? 1 : -1;
          updates++;
        }
    }
    const o = latticeObservables(spins, side);
    rec.sum[t] = o.sum;
    rec.bond[t] = o.bond;
    rec.updates[t] = updates;
  }
  return rec;
}

function neighbourSum(s: ArrayLike<number>, side: number, r: number, c: number): number {
  const row = r * side;
  return (
    s[row + (c === 0 ? side - 1 : c - 1)] +
    s[row + (c === side - 1 ? 0 : c + 1)] +
    s[(r === 0 ? side - 1 : r - 1) * side + c] +
    s[(r === side - 1 ? 0 : r + 1) * side + c]
  );
}

/** Σ s_i and Σ over bonds s_i s_j (each of the 2N bonds once) of a periodic lattice state. */
export function latticeObservables(s: ArrayLike<number>, side: number): { sum: number; bond: number } {
  let sum = 0;
  let bond = 0;
  for (let r = 0; r < side; r++) {
    const row = r * side;
    const down = (r === side - 1 ? 0 : r + 1) * side;
    for (let c = 0; c < side; c++) {
      const v = s[row + c];
      sum += v;
      bond += v * (s[row + (c === side - 1 ? 0 : c + 1)] + s[down + c]);
    }
  }
  return { sum, bond };
}

/**
 * A synchronous CPU trajectory (states: (steps+1)·N, row t = s(t), from simulateGlauber with record) read as its
 * checkerboard chains: for t = 0 … steps−1, the configuration (colour 0 of s(t), colour 1 of s(t+1)), whose colour-1
 * spins were drawn from exactly those colour-0 spins. Returns Σ s_i and the bond sum of each.
 */
export function syncChainSeries(states: Int8Array, side: number): { sum: Int32Array; bond: Int32Array } {
  const n = side * side;
  const steps = states.length / n - 1;
  const sum = new Int32Array(steps);
  const bond = new Int32Array(steps);
  for (let t = 0; t < steps; t++) {
    const a = t * n; // colour 0 from s(t)
    const b = a + n; // colour 1 from s(t+1)
    let m = 0;
    let e = 0;
    for (let r = 0; r < side; r++) {
      const row = r * side;
      const up = (r === 0 ? side - 1 : r - 1) * side;
      const down = (r === side - 1 ? 0 : r + 1) * side;
      for (let c = 0; c < side; c++) {
        const i = row + c;
        if (((r + c) & 1) === 0) {
          m += states[a + i];
          continue;
        }
        const v = states[b + i];
        m += v;
        // every bond joins a colour-1 site to a colour-0 one, so summing over colour-1 sites counts each bond once
        e += v * (states[a + row + (c === 0 ? side - 1 : c - 1)] + states[a + row + (c === side - 1 ? 0 : c + 1)] + states[a + up + c] + states[a + down + c]);
      }
    }
    sum[t] = m;
    bond[t] = e;
  }
  return { sum, bond };
}

/** Mean and its standard error from `blocks` equal consecutive blocks (batch means), for autocorrelated series. */
export function blockMean(xs: ArrayLike<number>, blocks: number): { mean: number; se: number; blockMeans: number[] } {
  const size = Math.floor(xs.length / blocks);
  if (blocks < 2 || size < 1) throw new Error(`${xs.length} values cannot make ${blocks} blocks`);
  const means: number[] = [];
  for (let b = 0; b < blocks; b++) {
    let s = 0;
    for (let k = b * size; k < (b + 1) * size; k++) s += xs[k];
    means.push(s / size);
  }
  const mean = means.reduce((a, b) => a + b, 0) / blocks;
  const v = means.reduce((a, b) => a + (b - mean) ** 2, 0) / (blocks - 1);
  return { mean, se: Math.sqrt(v / blocks), blockMeans: means };
}
