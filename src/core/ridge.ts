/**
 * Test R² of a multi-target ridge map for every (source layer, target layer) pair, sharing all work that can be
 * shared (see synchrony.md for the method).
 *
 * Why it is fast: the per-pair model X = [1 | h_A] → Y = h_B has an unpenalised intercept, so centring X and Y by the
 * training means removes it. Then the test predictions are A·Y_tr with A = X_te (X_trᵀX_tr + αI)⁻¹ X_trᵀ
 * (n_te × n_tr), which depends on the source layer only. sklearn's uniform-average R² weighs dimension d by
 * w_d = 1/SST_d (test SST), so
 *     Σ_d w_d SSE_d = Σ w_d‖y_te,d‖² − 2⟨A, Y_te W Y_trᵀ⟩ + ⟨AᵀA, Y_tr W Y_trᵀ⟩,
 * where the two weighted Gram matrices depend on the target layer only. One factorisation per source layer and
 * two Gram products per target layer replace L_A·L_B separate solves; each pair costs one dot product (done as one
 * wasm gemv per target layer against all source layers of the chunk).
 */
import { cholesky, cholSolveRows, dot, gemmNT, transpose } from './linalg';
import { ResidentRows } from './simd-gemm';
import { checkStack, type LayerStack } from './layer-stack';
import { runSteps, type Progress } from './steps';

export { checkStack, type LayerStack } from './layer-stack';
export { runSteps, runStepsAsync, type Progress } from './steps';

export interface GridOptions {
  alpha?: number;
  /** Called with (done, total) units of work; may be a comlink proxy (its promise is ignored). */
  onProgress?: (done: number, total: number) => unknown;
  signal?: AbortSignal;
  /** Upper bound for the per-source matrices kept at once; sources are processed in chunks under it. */
  memoryBudgetBytes?: number;
  /**
   * Full-sample source moments shared by several splits of one run (see MomentCache). Primal: each split's XᵀX is
   * the full one minus the test rows' part (n_te·H²/2 instead of n_tr·H²/2 multiply-adds). Dual: each split's
   * kernel blocks are read from the full n×n Gram matrix and re-centred in O(n²).
   */
  momentCache?: MomentCache;
  /** Set by callers that already ran checkStack on both stacks (the scan is a full pass over the data). */
  inputsChecked?: boolean;
}

/** Per source layer: the full-sample mean μ and either S = Σ (x − μ)(x − μ)ᵀ (H×H) or K = X̃X̃ᵀ (n×n), X̃ = X − μ. */
export type MomentCache = Map<number, { mu: Float64Array; S?: Float64Array; K?: Float64Array }>;

/** Bytes a MomentCache needs for `L` source layers of width H over n samples, with n_tr training samples. */
export function momentCacheBytes(L: number, H: number, n: number, nTr: number): number {
  return L * 8 * (H <= nTr ? H * H : n * n);
}

/** Rows `idx` of layer l as a float64 matrix, centred by `mean` (pass null to get raw values). */
function gatherLayer(s: LayerStack, l: number, idx: Int32Array, mean: Float64Array | null): Float64Array {
  const { data, L, H } = s;
  const out = new Float64Array(idx.length * H);
  for (let r = 0; r < idx.length; r++) {
    const o = (idx[r] * L + l) * H;
    const w = r * H;
    if (mean) for (let h = 0; h < H; h++) out[w + h] = data[o + h] - mean[h];
    else for (let h = 0; h < H; h++) out[w + h] = data[o + h];
  }
  return out;
}

/**
 * Column means over rows `idx` of layer l, computed as first + mean(x − first) so that a constant column gets its
 * value back exactly (the constant-target rule compares residuals with 0).
 */
export function layerMean(s: LayerStack, l: number, idx: Int32Array): Float64Array {
  const { data, L, H } = s;
  const mean = new Float64Array(H);
  if (idx.length === 0) return mean;
  const o0 = (idx[0] * L + l) * H;
  for (let r = 1; r < idx.length; r++) {
    const o = (idx[r] * L + l) * H;
    for (let h = 0; h < H; h++) mean[h] += data[o + h] - data[o0 + h];
  }
  for (let h = 0; h < H; h++) mean[h] = data[o0 + h] + mean[h] / idx.length;
  return mean;
}

export function maskToIndices(testMask: Uint8Array): { train: Int32Array; test: Int32Array } {
  let nt = 0;
  for (let i = 0; i < testMask.length; i++) if (testMask[i]) nt++;
  const train = new Int32Array(testMask.length - nt);
  const test = new Int32Array(nt);
  let a = 0;
  let b = 0;
  for (let i = 0; i < testMask.length; i++) {
    if (testMask[i]) test[b++] = i;
    else train[a++] = i;
  }
  return { train, test };
}

/** The source-side operator A (n_te × n_tr) and ⟨AᵀA, ·⟩ packed as its upper triangle with off-diagonals doubled. */
interface SourceOp {
  A: Float64Array;
  Mpacked: Float64Array;
}
// Per pair, ⟨AᵀA, G⟩ − 2⟨A, C⟩ is one dot product of [Mpacked | A] with [Gpacked | −2·C]; the source rows stay
// resident in wasm memory (ResidentRows) while the target layers stream past.

function sourceOperator(s: LayerStack, l: number, train: Int32Array, test: Int32Array, alpha: number, cache?: MomentCache): SourceOp {
  const A = ridgeOperator(s, l, train, test, alpha, cache);
  const nTr = train.length;
  const At = transpose(A, test.length, nTr);
  const M = gemmNT(At, At, nTr, nTr, test.length, undefined, true, false); // packUpper reads the upper triangle only
  return { A, Mpacked: packUpper(M, nTr, 2) };
}

/**
 * The ridge map's test operator for source layer l: A = X_te (X_trᵀX_tr + αI)⁻¹ X_trᵀ (n_te × n_tr), both sides
 * centred by the training mean, so that the test predictions of any targets are ȳ_tr + A·(Y_tr − ȳ_tr). Primal
 * (H × H system) or dual (n_tr × n_tr), whichever is smaller; `cache` shares the full-sample moments across splits.
 */
export function ridgeOperator(s: LayerStack, l: number, train: Int32Array, test: Int32Array, alpha: number, cache?: MomentCache): Float64Array {
  const H = s.H;
  const nTr = train.length;
  const nTe = test.length;
  const mean = layerMean(s, l, train);
  const Xtr = gatherLayer(s, l, train, mean);
  const Xte = gatherLayer(s, l, test, mean);
  let A: Float64Array;
  if (H <= nTr) {
    // Primal: (H×H) system, one Cholesky, then n_te row solves.
    let S: Float64Array;
    if (cache) {
      // Σ_tr (x − μ_tr)(x − μ_tr)ᵀ = Σ_all x̃x̃ᵀ − Σ_te x̃x̃ᵀ − n_tr·δδᵀ, with x̃ = x − μ_all and δ = μ_tr − μ_all.
      let mom = cache.get(l);
      if (!mom?.S) {
        const all = Int32Array.from({ length: s.n }, (_, i) => i);
        const mu = layerMean(s, l, all);
        const XT = transpose(gatherLayer(s, l, all, mu), s.n, H);
        mom = { mu, S: gemmNT(XT, XT, H, H, s.n, undefined, true) };
        cache.set(l, mom);
      }
      const Sf = mom.S!;
      const XteT = transpose(gatherLayer(s, l, test, mom.mu), nTe, H);
      S = gemmNT(XteT, XteT, H, H, nTe, undefined, true);
      const d = new Float64Array(H);
      for (let h = 0; h < H; h++) d[h] = mean[h] - mom.mu[h];
      for (let i = 0; i < H; i++) {
        const ri = i * H;
        const di = nTr * d[i];
        for (let j = 0; j < H; j++) S[ri + j] = Sf[ri + j] - S[ri + j] - di * d[j];
      }
    } else {
      const XtrT = transpose(Xtr, nTr, H);
      S = gemmNT(XtrT, XtrT, H, H, nTr, undefined, true);
    }
    for (let i = 0; i < H; i++) S[i * H + i] += alpha;
    const Lc = cholesky(S, H);
    const F = cholSolveRows(Lc, transpose(Lc, H, H), H, Xte, nTe);
    A = gemmNT(F, Xtr, nTe, nTr, H);
  } else {
    // Dual: (n_tr×n_tr) kernel system; A = K_te,tr (K_tr + αI)⁻¹, solved row by row (K is symmetric).
    let K: Float64Array;
    let Kte: Float64Array;
    if (cache) {
      // Centring by the training mean is a rank-one correction of the full Gram of X̃ = X − μ_all:
      // K_c[i,j] = K[i,j] − r_i − r_j + c, with r_i = mean over training t of K[i,t] and c = mean over training of r.
      let mom = cache.get(l);
      if (!mom?.K) {
        const all = Int32Array.from({ length: s.n }, (_, i) => i);
        const mu = layerMean(s, l, all);
        const Xall = gatherLayer(s, l, all, mu);
        mom = { mu, K: gemmNT(Xall, Xall, s.n, s.n, H, undefined, true) };
        cache.set(l, mom);
      }
      const Kf = mom.K!;
      const n = s.n;
      const r = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        let t = 0;
        for (let q = 0; q < nTr; q++) t += Kf[i * n + train[q]];
        r[i] = t / nTr;
      }
      let c = 0;
      for (let q = 0; q < nTr; q++) c += r[train[q]];
      c /= nTr;
      K = new Float64Array(nTr * nTr);
      for (let a = 0; a < nTr; a++) {
        const ia = train[a];
        for (let b = 0; b < nTr; b++) K[a * nTr + b] = Kf[ia * n + train[b]] - r[ia] - r[train[b]] + c;
      }
      Kte = new Float64Array(nTe * nTr);
      for (let a = 0; a < nTe; a++) {
        const ia = test[a];
        for (let b = 0; b < nTr; b++) Kte[a * nTr + b] = Kf[ia * n + train[b]] - r[ia] - r[train[b]] + c;
      }
    } else {
      K = gemmNT(Xtr, Xtr, nTr, nTr, H, undefined, true);
      Kte = gemmNT(Xte, Xtr, nTe, nTr, H);
    }
    for (let i = 0; i < nTr; i++) K[i * nTr + i] += alpha;
    const Lc = cholesky(K, nTr);
    A = cholSolveRows(Lc, transpose(Lc, nTr, nTr), nTr, Kte, nTe);
  }
  return A;
}

function packUpper(M: Float64Array | Float32Array, n: number, offDiagFactor: number): Float64Array {
  const out = new Float64Array((n * (n + 1)) / 2);
  let p = 0;
  for (let i = 0; i < n; i++) {
    out[p++] = M[i * n + i];
    for (let j = i + 1; j < n; j++) out[p++] = offDiagFactor * M[i * n + j];
  }
  return out;
}

/** Target-side weighted Grams for one target layer and split. */
export interface TargetSide {
  Gpacked: Float64Array;
  CteM2: Float64Array; // n_te × n_tr: −2 · Y_te W Y_trᵀ
  t: number; // Σ_d w_d ‖y_te,d‖²
  nonConstant: number;
  constDims: number[];
  constTr: Float64Array[]; // per constant dimension: its centred training and test values
  constTe: Float64Array[];
}

/** What a target side's two products are taken of: the centred, weighted training and test rows (n × H). */
export interface TargetInputs extends Omit<TargetSide, 'Gpacked' | 'CteM2'> {
  Wtr: Float64Array;
  Wte: Float64Array;
  nTr: number;
  nTe: number;
  H: number;
}

/** Target layer l's weighted rows for one split: everything of its side but the two products. */
export function targetInputs(s: LayerStack, l: number, train: Int32Array, test: Int32Array): TargetInputs {
  const H = s.H;
  const nTr = train.length;
  const nTe = test.length;
  const { data, L } = s;
  const mean = layerMean(s, l, train);
  const teMean = layerMean(s, l, test);
  const sst = new Float64Array(H);
  for (let r = 0; r < nTe; r++) {
    const o = (test[r] * L + l) * H;
    for (let h = 0; h < H; h++) {
      const d = data[o + h] - teMean[h];
      sst[h] += d * d;
    }
  }
  const sw = new Float64Array(H);
  const constDims: number[] = [];
  for (let h = 0; h < H; h++) {
    if (sst[h] > 0) sw[h] = 1 / Math.sqrt(sst[h]);
    else constDims.push(h);
  }
  // Centred and weighted in one pass; constant dimensions get weight 0 here and are scored separately.
  const Wtr = new Float64Array(nTr * H);
  for (let r = 0; r < nTr; r++) {
    const o = (train[r] * L + l) * H;
    const w = r * H;
    for (let h = 0; h < H; h++) Wtr[w + h] = (data[o + h] - mean[h]) * sw[h];
  }
  const Wte = new Float64Array(nTe * H);
  let t = 0;
  for (let r = 0; r < nTe; r++) {
    const o = (test[r] * L + l) * H;
    const w = r * H;
    for (let h = 0; h < H; h++) {
      const v = (data[o + h] - mean[h]) * sw[h];
      Wte[w + h] = v;
      t += v * v;
    }
  }
  const constTr = constDims.map((h) => Float64Array.from(train, (i) => data[(i * L + l) * H + h] - mean[h]));
  const constTe = constDims.map((h) => Float64Array.from(test, (i) => data[(i * L + l) * H + h] - mean[h]));
  return { Wtr, Wte, nTr, nTe, H, t, nonConstant: H - constDims.length, constDims, constTr, constTe };
}

/**
 * A target side from its inputs and their two products, G = W_tr·W_trᵀ (n_tr × n_tr, only the upper triangle is
 * read) and C = W_te·W_trᵀ (n_te × n_tr), in float64 (this thread) or float32 (src/gpu/ridge-grid.ts).
 */
export function targetSideFrom(inp: TargetInputs, G: Float64Array | Float32Array, C: Float64Array | Float32Array): TargetSide {
  const CteM2 = new Float64Array(inp.nTe * inp.nTr);
  for (let i = 0; i < CteM2.length; i++) CteM2[i] = -2 * C[i];
  const { t, nonConstant, constDims, constTr, constTe } = inp;
  return { Gpacked: packUpper(G, inp.nTr, 1), CteM2, t, nonConstant, constDims, constTr, constTe };
}

function targetSide(s: LayerStack, l: number, train: Int32Array, test: Int32Array): TargetSide {
  const inp = targetInputs(s, l, train, test);
  const G = gemmNT(inp.Wtr, inp.Wtr, inp.nTr, inp.nTr, inp.H, undefined, true, false);
  const C = gemmNT(inp.Wte, inp.Wtr, inp.nTe, inp.nTr, inp.H);
  return targetSideFrom(inp, G, C);
}

/** sklearn's rule for a dimension that is constant on the test set: 1 if predicted exactly, else 0. */
function constantDimScore(A: Float64Array, ytr: Float64Array, yte: Float64Array, nTr: number, nTe: number): number {
  for (let i = 0; i < nTe; i++) {
    const pred = dot(A, i * nTr, ytr, 0, nTr);
    if (yte[i] - pred !== 0) return 0;
  }
  return 1;
}

/** A grid's split, checked: training and test rows, the ridge penalty, and the length of a source row. */
export interface GridPlan {
  train: Int32Array;
  test: Int32Array;
  alpha: number;
  /** Doubles per source row: [Mpacked (n_tr(n_tr+1)/2) | A (n_te·n_tr)]. */
  rowLength: number;
}

export function gridPlan(source: LayerStack, target: LayerStack, testMask: Uint8Array, alphaOpt?: number): GridPlan {
  if (source.n !== target.n || testMask.length !== source.n)
    throw new Error(`ridge: source has ${source.n} samples, target ${target.n}, mask ${testMask.length}`);
  const alpha = alphaOpt ?? 0.1;
  if (!(alpha > 0)) throw new Error(`ridge: alpha must be > 0 (got ${alpha})`);
  const { train, test } = maskToIndices(testMask);
  if (train.length < 2 || test.length < 2) throw new Error(`ridge: need at least 2 training and 2 test samples (got ${train.length} and ${test.length})`);
  const nTr = train.length;
  return { train, test, alpha, rowLength: (nTr * (nTr + 1)) / 2 + test.length * nTr };
}

/** Source layer a's row of the grid: [Mpacked | A], what each target layer's column is dotted with. */
export function sourceRow(source: LayerStack, a: number, plan: GridPlan, cache?: MomentCache): Float64Array {
  const op = sourceOperator(source, a, plan.train, plan.test, plan.alpha, cache);
  const row = new Float64Array(plan.rowLength);
  row.set(op.Mpacked);
  row.set(op.A, op.Mpacked.length);
  return row;
}

/** Source rows [a0, a1) of one plan, resident in wasm memory; `A(a)` reads a row's operator for constant targets. */
export interface SourceRows {
  a0: number;
  a1: number;
  resident: ResidentRows;
  A(a: number): Float64Array;
}

/** Target layer b's R² against every resident source row: entries a0..a1−1 of the grid's column b. */
export function targetColumn(target: LayerStack, b: number, plan: GridPlan, rows: SourceRows): Float64Array {
  return columnOf(targetSide(target, b, plan.train, plan.test), target.H, plan, rows);
}

/** A target side's R² against every resident source row (the column of targetColumn). */
export function columnOf(tgt: TargetSide, H: number, plan: GridPlan, rows: SourceRows): Float64Array {
  const nTr = plan.train.length;
  const nTe = plan.test.length;
  const quad = rows.resident.dotAll([tgt.Gpacked, tgt.CteM2]);
  const col = new Float64Array(rows.a1 - rows.a0);
  for (let a = rows.a0; a < rows.a1; a++) {
    const sse = tgt.t + quad[a - rows.a0];
    let constScore = 0;
    for (let q = 0; q < tgt.constDims.length; q++) constScore += constantDimScore(rows.A(a), tgt.constTr[q], tgt.constTe[q], nTr, nTe);
    col[a - rows.a0] = (tgt.nonConstant - sse + constScore) / H;
  }
  return col;
}

/** Rows a0..a0+rows.length−1 made resident for targetColumn. */
export function residentRows(plan: GridPlan, a0: number, rows: readonly Float64Array[]): SourceRows {
  const packedLen = plan.rowLength - plan.test.length * plan.train.length;
  const resident = new ResidentRows(rows.length, plan.rowLength);
  const As = rows.map((r, i) => {
    resident.setRow(i, [r]);
    return r.slice(packedLen);
  });
  return { a0, a1: a0 + rows.length, resident, A: (a) => As[a - a0] };
}

/**
 * Test R² (sklearn uniform average) for every (l_A, l_B), for one train/test split given as a test mask.
 * Returns a Float64Array L_A × L_B, row = source layer.
 */
export function ridgeR2Grid(source: LayerStack, target: LayerStack, testMask: Uint8Array, opts: GridOptions = {}): Float64Array {
  return runSteps(ridgeR2GridSteps(source, target, testMask, opts), opts);
}

/** ridgeR2Grid as a generator that yields after each source and each target layer. */
export function* ridgeR2GridSteps(source: LayerStack, target: LayerStack, testMask: Uint8Array, opts: GridOptions = {}): Generator<Progress, Float64Array> {
  if (!opts.inputsChecked) {
    checkStack(source, 'source');
    checkStack(target, 'target');
  }
  const plan = gridPlan(source, target, testMask, opts.alpha);
  const nTr = plan.train.length;
  const nTe = plan.test.length;
  const LA = source.L;
  const LB = target.L;
  const HB = target.H;
  const out = new Float64Array(LA * LB);
  const perSource = 8 * (2 * nTe * nTr + (nTr * (nTr + 1)) / 2); // A in JS, plus [Mpacked | A] in wasm memory
  const perTarget = 8 * ((nTr * (nTr + 1)) / 2 + 2 * nTe * nTr + nTr * HB + nTe * HB);
  const budget = opts.memoryBudgetBytes ?? 512 * 2 ** 20;
  const chunk = Math.max(1, Math.min(LA, Math.floor((budget - perTarget) / perSource)));
  const nChunks = Math.ceil(LA / chunk);
  const total = LA + nChunks * LB;
  let done = 0;
  for (let a0 = 0; a0 < LA; a0 += chunk) {
    const a1 = Math.min(LA, a0 + chunk);
    const rows: Float64Array[] = [];
    for (let a = a0; a < a1; a++) {
      rows.push(sourceRow(source, a, plan, opts.momentCache));
      yield { done: ++done, total };
    }
    const resident = residentRows(plan, a0, rows);
    rows.length = 0;
    for (let b = 0; b < LB; b++) {
      const col = targetColumn(target, b, plan, resident);
      for (let a = a0; a < a1; a++) out[a * LB + b] = col[a - a0];
      yield { done: ++done, total };
    }
  }
  return out;
}
