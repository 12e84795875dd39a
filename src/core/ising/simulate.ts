/**
 * Glauber dynamics on a signed graph: P(s_i(t+1) = +1) = σ(h_i / 𝒯).
 * - sync: every spin is redrawn from the previous state;
 * - async (rate ε): each spin is redrawn with probability ε, else kept (the method's asynchronous variant).
 * Speed matters (10⁷ updates/s on a 316² lattice): spins are Int8Array, neighbours come from CSR, the random
 * stream is an inlined sfc32 compared against integer thresholds, and when the field is uniform and the
 * couplings ignore correctness, P(+1) is read from a table indexed by (friendly sum, unfriendly sum).
 */
import type { Rng } from '../rng';
import type { SignedGraph } from '../graphs/signed';
import { effectiveWeights, type Couplings } from './couplings';

export interface GlauberParams {
  couplings: Couplings;
  /** g_i per node, or one value for all; default 0. */
  fields?: ArrayLike<number> | number;
  /** 𝒯; default 1. */
  temperature?: number;
  mode?: 'sync' | 'async';
  /** Update probability per spin and step in async mode. */
  eps?: number;
  /** Correct answer (±1), used by five couplings only. */
  yTrue?: number;
}

export interface SimulationResult {
  /** (steps+1)·N spins, row t = s(t); null when record = false. */
  states: Int8Array | null;
  final: Int8Array;
  /** n(t) = mean spin, length steps+1. */
  net: Float64Array;
  updates: number;
}

const TWO32 = 4294967296;

function uniformField(f: GlauberParams['fields']): number | null {
  if (f === undefined) return 0;
  if (typeof f === 'number') return f;
  for (let i = 1; i < f.length; i++) if (f[i] !== f[0]) return null;
  return f.length ? f[0] : 0;
}

export function simulateGlauber(
  g: SignedGraph,
  params: GlauberParams,
  s0: ArrayLike<number>,
  steps: number,
  rng: Rng,
  opts: { record?: boolean } = {},
): SimulationResult {
  const n = g.n;
  const record = opts.record ?? true;
  const T = params.temperature ?? 1;
  const async = params.mode === 'async';
  const epsThr = async ? (params.eps ?? 0.5) * TWO32 : TWO32;
  const scale = async ? epsThr : TWO32;
  const yTrue = params.yTrue ?? 1;
  const [wFT, wFF, wUT, wUF] = effectiveWeights(params.couplings);
  const g0 = uniformField(params.fields);
  const fields = params.fields;

  let cur = new Int8Array(n);
  for (let i = 0; i < n; i++) cur[i] = s0[i] > 0 ? 1 : -1;
  let nxt = new Int8Array(n);
  const states = record ? new Int8Array((steps + 1) * n) : null;
  const net = new Float64Array(steps + 1);
  if (states) states.set(cur, 0);
  net[0] = mean(cur);

  let a = rng.u32() | 0;
  let b = rng.u32() | 0;
  let c = rng.u32() | 0;
  let d = rng.u32() | 1;
  for (let k = 0; k < 8; k++) {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (((c << 21) | (c >>> 11)) + t) | 0;
  }

  // Split CSR by sign once, so the hot loop sums friendly and unfriendly neighbours without a branch per edge.
  const { fPtr, fCol, uPtr, uCol, maxF, maxU } = splitBySign(g);
  const field = new Float64Array(n);
  if (typeof fields === 'number') field.fill(fields);
  else if (fields) field.set(fields);
  const five = wFT !== wFF || wUT !== wUF;
  // P(+1) depends on (friendly sum, unfriendly sum) alone when the field is uniform and correctness is ignored.
  const tableOk = g0 !== null && !five;
  const WU = 2 * maxU + 1;
  const table = new Float64Array(tableOk ? (2 * maxF + 1) * WU : 0);
  if (tableOk)
    for (let sf = -maxF; sf <= maxF; sf++)
      for (let su = -maxU; su <= maxU; su++) table[(sf + maxF) * WU + (su + maxU)] = sigmoid((wFT * sf + wUT * su + g0!) / T) * scale;
  const side = g.side ?? 0;
  // Square lattice (periodic, all friendly): neighbours by index arithmetic, no CSR reads at all.
  const lattice = tableOk && g.kind === 'square' && side * side === n && maxU === 0 && g.rowPtr[n] === 4 * n;
  const invT = 1 / T;

  let updates = 0;
  if (lattice) {
    const r = latticeKernel(side, cur, nxt, table, maxF, maxU, WU, steps, [a, b, c, d], epsThr, states, net);
    return { states, final: r.final, net, updates: r.updates };
  }
  for (let t = 1; t <= steps; t++) {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      const u = (((a + b) | 0) + d) | 0;
      d = (d + 1) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (((c << 21) | (c >>> 11)) + u) | 0;
      // One draw serves both decisions: u < ε·2³² selects the spin for update, and given that, u/ε is again
      // uniform, so "u/ε < P·2³²" is "u < ε·P·2³²" (the thresholds below are pre-scaled by ε).
      if (async && u >>> 0 >= epsThr) {
        const v = cur[i];
        nxt[i] = v;
        sum += v;
        continue;
      }
      let sf = 0;
      let su = 0;
      for (let p = fPtr[i], e = fPtr[i + 1]; p < e; p++) sf += cur[fCol[p]];
      for (let p = uPtr[i], e = uPtr[i + 1]; p < e; p++) su += cur[uCol[p]];
      let thr: number;
      if (tableOk) thr = table[(sf + maxF) * WU + (su + maxU)];
      else {
        let h: number;
        if (five) {
          // Among k neighbours with spin sum S, (k + y·S)/2 hold y (correct), so correctness needs no per-edge test.
          const kf = fPtr[i + 1] - fPtr[i];
          const ku = uPtr[i + 1] - uPtr[i];
          const cf = (kf + yTrue * sf) / 2;
          const cu = (ku + yTrue * su) / 2;
          h = yTrue * (wFT * cf - wFF * (kf - cf) + wUT * cu - wUF * (ku - cu));
        } else h = wFT * sf + wUT * su;
        h = (h + field[i]) * invT;
        thr = (h >= 0 ? 1 / (1 + Math.exp(-h)) : 1 - 1 / (1 + Math.exp(h))) * scale;
      }
      const v = u >>> 0 < thr ? 1 : -1;
      nxt[i] = v;
      sum += v;
      updates++;
    }
    const tmp = cur;
    cur = nxt;
    nxt = tmp;
    if (states) states.set(cur, t * n);
    net[t] = sum / n;
  }
  return { states, final: cur, net, updates };
}

/** Deterministic rollout s(t+1) = sign(h(s(t))); h = 0 keeps the current spin. */
export function rolloutSign(
  g: SignedGraph,
  params: Pick<GlauberParams, 'couplings' | 'fields' | 'yTrue'>,
  s0: ArrayLike<number>,
  steps: number,
): Int8Array {
  const n = g.n;
  const out = new Int8Array((steps + 1) * n);
  for (let i = 0; i < n; i++) out[i] = s0[i] > 0 ? 1 : -1;
  const [wFT, wFF, wUT, wUF] = effectiveWeights(params.couplings);
  const yTrue = params.yTrue ?? 1;
  const f = params.fields ?? 0;
  const { rowPtr, col, sign } = g;
  for (let t = 1; t <= steps; t++) {
    const prev = (t - 1) * n;
    for (let i = 0; i < n; i++) {
      let h = typeof f === 'number' ? f : f[i];
      for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
        const v = out[prev + col[p]];
        const ok = v === yTrue;
        h += (sign[p] > 0 ? (ok ? wFT : wFF) : ok ? wUT : wUF) * v;
      }
      out[t * n + i] = h > 0 ? 1 : h < 0 ? -1 : out[prev + i];
    }
  }
  return out;
}

/**
 * Sweeps of a periodic square lattice with a uniform field (sync, or async when epsThr < 2³²): neighbour sums by index arithmetic over
 * rows and columns, P(+1) from the table, the same inlined sfc32 stream. The hottest case, so it has its own loop.
 */
function latticeKernel(
  side: number,
  cur: Int8Array,
  nxt: Int8Array,
  table: Float64Array,
  maxF: number,
  maxU: number,
  WU: number,
  steps: number,
  seed: [number, number, number, number],
  epsThr: number,
  states: Int8Array | null,
  net: Float64Array,
): { final: Int8Array; updates: number } {
  let updates = 0;
  let [a, b, c, d] = seed;
  const n = side * side;
  // Thresholds indexed directly by the neighbour sum (su is always 0 here).
  const thr = new Float64Array(2 * maxF + 1);
  for (let k = -maxF; k <= maxF; k++) thr[k + maxF] = table[(k + maxF) * WU + maxU];
  for (let t = 1; t <= steps; t++) {
    let sum = 0;
    for (let r = 0; r < side; r++) {
      const row = r * side;
      const up = r === 0 ? n - side : row - side;
      const dn = r === side - 1 ? 0 : row + side;
      for (let col = 0; col < side; col++) {
        const i = row + col;
        const k =
          cur[col === 0 ? row + side - 1 : i - 1] + cur[col === side - 1 ? row : i + 1] + cur[up + col] + cur[dn + col] + maxF;
        const u = (((a + b) | 0) + d) | 0;
        d = (d + 1) | 0;
        a = b ^ (b >>> 9);
        b = (c + (c << 3)) | 0;
        c = (((c << 21) | (c >>> 11)) + u) | 0;
        if (u >>> 0 >= epsThr) {
          const v = cur[i];
          nxt[i] = v;
          sum += v;
          continue;
        }
        const v = u >>> 0 < thr[k] ? 1 : -1;
        nxt[i] = v;
        sum += v;
        updates++;
      }
    }
    const tmp = cur;
    cur = nxt;
    nxt = tmp;
    if (states) states.set(cur, t * n);
    net[t] = sum / n;
  }
  return { final: cur, updates };
}

function splitBySign(g: SignedGraph) {
  const n = g.n;
  const fPtr = new Int32Array(n + 1);
  const uPtr = new Int32Array(n + 1);
  let maxF = 0;
  let maxU = 0;
  for (let i = 0; i < n; i++) {
    let f = 0;
    for (let p = g.rowPtr[i]; p < g.rowPtr[i + 1]; p++) if (g.sign[p] > 0) f++;
    const u = g.rowPtr[i + 1] - g.rowPtr[i] - f;
    fPtr[i + 1] = fPtr[i] + f;
    uPtr[i + 1] = uPtr[i] + u;
    maxF = Math.max(maxF, f);
    maxU = Math.max(maxU, u);
  }
  const fCol = new Int32Array(fPtr[n]);
  const uCol = new Int32Array(uPtr[n]);
  for (let i = 0; i < n; i++) {
    let pf = fPtr[i];
    let pu = uPtr[i];
    for (let p = g.rowPtr[i]; p < g.rowPtr[i + 1]; p++) {
      if (g.sign[p] > 0) fCol[pf++] = g.col[p];
      else uCol[pu++] = g.col[p];
    }
  }
  return { fPtr, fCol, uPtr, uCol, maxF, maxU };
}

export function sigmoid(x: number): number {
  return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
}

function mean(s: Int8Array): number {
  let m = 0;
  for (let i = 0; i < s.length; i++) m += s[i];
  return s.length ? m / s.length : 0;
}
