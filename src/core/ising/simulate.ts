/**
 * Glauber dynamics on a signed graph: P(s_i(t+1) = +1) = σ(h_i / 𝒯).
 * - sync: every spin is redrawn from the previous state;
 * - async (rate ε): each spin is redrawn with probability ε, else kept (the method's asynchronous variant).
 * Speed matters (10⁷ updates/s on a 316² lattice): spins are Int8Array, neighbours come from sign-split CSR (or
 * row/column arithmetic on a square lattice), the random stream is an inlined sfc32 kept in locals and compared
 * against integer thresholds, P(+1) comes from a table when the field is uniform and correctness is ignored, and
 * async steps with a small ε jump between selected spins by geometric gaps.
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
/** Below this ε, async steps jump between selected spins by geometric gaps instead of visiting every spin. */
const GEOMETRIC_BELOW = 0.15; // measured crossover: per-visit ≈ ε·70–100 M updates/s, geometric ≈ 11 M/s

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
  const eps = Math.min(1, Math.max(0, params.eps ?? 0.5));
  const epsThr = async ? eps * TWO32 : TWO32;
  // Per-visit async pre-scales thresholds by ε (one draw decides selection and spin); geometric async does not.
  const scale = async && eps >= GEOMETRIC_BELOW ? epsThr : TWO32;
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
  // Otherwise P(+1) of node i still depends only on its (friendly sum, unfriendly sum), so a per-node table replaces
  // Math.exp whenever building it costs less than half the run it serves.
  let nodeOff: Int32Array | null = null;
  let nodeTab: Float64Array | null = null;
  if (!tableOk) {
    let total = 0;
    for (let i = 0; i < n; i++) total += (2 * (fPtr[i + 1] - fPtr[i]) + 1) * (2 * (uPtr[i + 1] - uPtr[i]) + 1);
    if (total <= (steps * n) / 2 && total <= 1 << 24) {
      nodeOff = new Int32Array(n);
      nodeTab = new Float64Array(total);
      let o = 0;
      for (let i = 0; i < n; i++) {
        nodeOff[i] = o;
        const kf = fPtr[i + 1] - fPtr[i];
        const ku = uPtr[i + 1] - uPtr[i];
        for (let sf = -kf; sf <= kf; sf++)
          for (let su = -ku; su <= ku; su++) {
            let h: number;
            if (five) {
              const cf = (kf + yTrue * sf) / 2;
              const cu = (ku + yTrue * su) / 2;
              h = yTrue * (wFT * cf - wFF * (kf - cf) + wUT * cu - wUF * (ku - cu));
            } else h = wFT * sf + wUT * su;
            nodeTab[o++] = sigmoid((h + field[i]) / T) * scale;
          }
      }
    }
  }
  const side = g.side ?? 0;
  // Square lattice (periodic, all friendly): neighbours by index arithmetic, no CSR reads at all.
  const lattice = (!async || eps >= GEOMETRIC_BELOW) && tableOk && g.kind === 'square' && side * side === n && maxU === 0 && g.rowPtr[n] === 4 * n;
  const invT = 1 / T;

  let updates = 0;
  if (lattice || (async && eps < GEOMETRIC_BELOW)) {
    const law: Law = { fPtr, fCol, uPtr, uCol, maxF, maxU, table, WU, tableOk, five, field, invT, yTrue, wFT, wFF, wUT, wUF };
    const rs = Int32Array.of(a, b, c, d);
    const thrByK = new Float64Array(lattice ? 2 * maxF + 1 : 0);
    for (let k = 0; k < thrByK.length; k++) thrByK[k] = table[k * WU + maxU];
    const logKeep = Math.log1p(-eps);
    const counter = new Float64Array(1);
    let sum = 0;
    for (let i = 0; i < n; i++) sum += cur[i];
    for (let t = 1; t <= steps; t++) {
      if (lattice) {
        sum = latticeStep(rs, cur, nxt, side, thrByK, maxF, epsThr, counter);
        updates += counter[0];
      } else {
        nxt.set(cur);
        if (eps > 0) {
          const r = asyncStep(rs, cur, nxt, law, logKeep);
          sum += r.delta;
          updates += r.updates;
        }
      }
      const tmp = cur;
      cur = nxt;
      nxt = tmp;
      if (states) states.set(cur, t * n);
      net[t] = sum / n;
    }
    return { states, final: cur, net, updates };
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
      else if (nodeTab !== null) {
        const kf = fPtr[i + 1] - fPtr[i];
        const ku = uPtr[i + 1] - uPtr[i];
        thr = nodeTab[nodeOff![i] + (sf + kf) * (2 * ku + 1) + su + ku];
      } else {
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
export function rolloutSign(g: SignedGraph, params: Pick<GlauberParams, 'couplings' | 'fields' | 'yTrue'>, s0: ArrayLike<number>, steps: number): Int8Array {
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

interface Law {
  fPtr: Int32Array;
  fCol: Int32Array;
  uPtr: Int32Array;
  uCol: Int32Array;
  maxF: number;
  maxU: number;
  table: Float64Array;
  WU: number;
  tableOk: boolean;
  five: boolean;
  field: Float64Array;
  invT: number;
  yTrue: number;
  wFT: number;
  wFF: number;
  wUT: number;
  wUF: number;
}

/** One sfc32 output; the state lives in an Int32Array so kernels can keep it in locals between calls. */
function sfc32(s: Int32Array): number {
  const t = (((s[0] + s[1]) | 0) + s[3]) | 0;
  s[3] = (s[3] + 1) | 0;
  s[0] = s[1] ^ (s[1] >>> 9);
  s[1] = (s[2] + (s[2] << 3)) | 0;
  s[2] = (((s[2] << 21) | (s[2] >>> 11)) + t) | 0;
  return t >>> 0;
}

/** P(s_i = +1 | cur)·2³². */
function threshold(i: number, cur: Int8Array, L: Law): number {
  let sf = 0;
  let su = 0;
  for (let p = L.fPtr[i], e = L.fPtr[i + 1]; p < e; p++) sf += cur[L.fCol[p]];
  for (let p = L.uPtr[i], e = L.uPtr[i + 1]; p < e; p++) su += cur[L.uCol[p]];
  if (L.tableOk) return L.table[(sf + L.maxF) * L.WU + (su + L.maxU)];
  let h: number;
  if (L.five) {
    // Among k neighbours with spin sum S, (k + y·S)/2 hold y (correct), so correctness needs no per-edge test.
    const kf = L.fPtr[i + 1] - L.fPtr[i];
    const ku = L.uPtr[i + 1] - L.uPtr[i];
    const y = L.yTrue;
    const cf = (kf + y * sf) / 2;
    const cu = (ku + y * su) / 2;
    h = y * (L.wFT * cf - L.wFF * (kf - cf) + L.wUT * cu - L.wUF * (ku - cu));
  } else h = L.wFT * sf + L.wUT * su;
  h = (h + L.field[i]) * L.invT;
  return (h >= 0 ? 1 / (1 + Math.exp(-h)) : 1 - 1 / (1 + Math.exp(h))) * TWO32;
}

/** Async: the gap to the next selected spin is geometric(ε), so unselected spins cost only the bulk copy. */
function asyncStep(rs: Int32Array, cur: Int8Array, nxt: Int8Array, L: Law, logKeep: number): { delta: number; updates: number } {
  const n = cur.length;
  let delta = 0;
  let updates = 0;
  for (let i = Math.floor(Math.log((sfc32(rs) + 1) / TWO32) / logKeep); i < n;) {
    const v = sfc32(rs) < threshold(i, cur, L) ? 1 : -1;
    delta += v - cur[i];
    nxt[i] = v;
    updates++;
    i += 1 + Math.floor(Math.log((sfc32(rs) + 1) / TWO32) / logKeep);
  }
  return { delta, updates };
}

/**
 * One sweep of a periodic square lattice: neighbours by row/column arithmetic, thresholds by neighbour sum. Async
 * (epsThr < 2³²) uses the per-visit draw, with thrByK pre-scaled by ε. Writes the number of redrawn spins to
 * counter[0] and returns the spin sum.
 */
function latticeStep(
  rs: Int32Array,
  cur: Int8Array,
  nxt: Int8Array,
  side: number,
  thrByK: Float64Array,
  maxF: number,
  epsThr: number,
  counter: Float64Array,
): number {
  let a = rs[0];
  let b = rs[1];
  let c = rs[2];
  let d = rs[3];
  const n = side * side;
  let sum = 0;
  let updates = 0;
  for (let r = 0; r < side; r++) {
    const row = r * side;
    const up = r === 0 ? n - side : row - side;
    const dn = r === side - 1 ? 0 : row + side;
    for (let col = 0; col < side; col++) {
      const i = row + col;
      const u = (((a + b) | 0) + d) | 0;
      d = (d + 1) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (((c << 21) | (c >>> 11)) + u) | 0;
      let v: number;
      if (u >>> 0 >= epsThr) v = cur[i];
      else {
        const k = cur[col === 0 ? row + side - 1 : i - 1] + cur[col === side - 1 ? row : i + 1] + cur[up + col] + cur[dn + col];
        v = u >>> 0 < thrByK[k + maxF] ? 1 : -1;
        updates++;
      }
      nxt[i] = v;
      sum += v;
    }
  }
  rs[0] = a;
  rs[1] = b;
  rs[2] = c;
  rs[3] = d;
  counter[0] = updates;
  return sum;
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
