/**
 * Linear CKA over the full L1 × L2 layer grid (similarity.md), biased and debiased HSIC, poolings, regions and a
 * seeded permutation test.
 *
 * Why it is organised this way: with column-centred features, K = XXᵀ already satisfies HKH = K, so the biased HSIC
 * is ⟨K, L⟩ and the debiased one needs only ⟨K̃, L̃⟩ (zero diagonals), the total sums and the row sums
 * (Σ K̃L̃ = rowsum(K̃)·rowsum(L̃)). Each layer's Gram matrix is built once; each pair then costs one dot product over
 * a packed triangle (one wasm gemv per y layer against all x layers). A sample permutation π changes only
 * ⟨K̃, L̃_π⟩ and rowsum(K̃)·rowsum(L̃)_π.
 */
import { dot, gemmNT, gemmNTScalar } from './linalg';
import { createRng } from './rng';
import { gemmNTSimd, ResidentRows } from './simd-gemm';
import { checkStack, type LayerStack } from './layer-stack';
import { runSteps, type Progress } from './steps';

export interface Pooled {
  global: number;
  maxAligned: number;
  regions: { early: number; mid: number; late: number };
}

export interface CkaGrid extends Pooled {
  /** L1 × L2, row = layer of x. */
  grid: Float64Array;
  /** One-sided permutation p-values, (1 + #{perm ≥ observed}) / (N + 1); present when permutations > 0. */
  p?: { grid: Float64Array } & Pooled;
}

export interface CkaResult {
  L1: number;
  L2: number;
  m: number;
  permutations: number;
  linear: CkaGrid;
  debiased: CkaGrid;
}

export interface CkaOptions {
  permutations?: number;
  seed?: number | string;
  /** Explicit sample orders to use instead of seeded shuffles (reproducing another tool's permutations). */
  orders?: ArrayLike<number>[];
  onProgress?: (done: number, total: number) => unknown;
  signal?: AbortSignal;
  /**
   * Each side's Gram statistics, when the caller already has them (gramStats): a model compared with several others
   * builds its Gram matrices once instead of once per pair. The result is the same to the last bit.
   */
  gramsX?: GramStats;
  gramsY?: GramStats;
  /** ⟨K̃_i, L̃_j⟩ for every layer pair (L1 × L2), when the caller computed them with others (crossDotsAll). */
  dots?: Float64Array;
}

/** Per-layer statistics of the centred Gram matrix. */
export interface GramInfo {
  off: Float64Array; // strict upper triangle of K̃ (row-major packed)
  diag: Float64Array;
  rowsum: Float64Array; // rows of K̃ (zero diagonal)
  total: number; // Σ K̃
  selfBiased: number; // ⟨K, K⟩
  selfDebiased: number; // HSIC_d(K, K)
}

/** Layer l's Gram statistics: one m × m product (the expensive part of CKA; a worker pool runs one per layer). */
export function gramInfo(s: LayerStack, l: number, triangle?: (length: number) => Float64Array): GramInfo {
  const m = s.n;
  const X = centredLayer(s, l, scratch(0, m * s.H));
  const K = gemmNT(X, X, m, m, s.H, scratch(1, m * m), true, false); // only the upper triangle is read
  return gramInfoOf(K, m, triangle);
}

/**
 * Two working arrays reused from layer to layer (the centred states and the Gram matrix, 64 MB each for m = 2000,
 * H = 2048): allocated afresh for every layer they were garbage faster than the collector freed them, and one
 * worker's memory peaked 1.7 GB above the states for a 1B-shaped model.
 */
const scratchArrays: Float64Array[] = [];
function scratch(slot: number, size: number): Float64Array {
  const have = scratchArrays[slot];
  if (have && have.length >= size) return have.subarray(0, size);
  return (scratchArrays[slot] = new Float64Array(size));
}

/** Layer l's states (m × H, row-major) in float64, each column centred by its mean over the m probes. */
export function centredLayer(s: LayerStack, l: number, out?: Float64Array): Float64Array {
  const { n: m, L, H, data } = s;
  const X = out ?? new Float64Array(m * H);
  const mean = new Float64Array(H);
  for (let i = 0; i < m; i++) for (let h = 0; h < H; h++) mean[h] += data[(i * L + l) * H + h];
  for (let h = 0; h < H; h++) mean[h] /= m;
  for (let i = 0; i < m; i++) for (let h = 0; h < H; h++) X[i * H + h] = data[(i * L + l) * H + h] - mean[h];
  return X;
}

/**
 * The statistics CKA needs of a centred Gram matrix K (m × m; only its upper triangle and diagonal are read), summed
 * in float64 whatever K's precision: the CPU's float64 product or the GPU's float32 one (src/gpu/gram.ts).
 * `triangle` allocates the packed triangle (a grid worker puts it in shared memory).
 */
export function gramInfoOf(
  K: Float64Array | Float32Array,
  m: number,
  triangle: (length: number) => Float64Array = (length) => new Float64Array(length),
): GramInfo {
  const off = triangle((m * (m - 1)) / 2);
  const diag = new Float64Array(m);
  const rowsum = new Float64Array(m);
  let p = 0;
  let offSq = 0;
  let diagSq = 0;
  for (let i = 0; i < m; i++) {
    diag[i] = K[i * m + i];
    diagSq += diag[i] * diag[i];
    let r = 0;
    for (let j = i + 1; j < m; j++) {
      const v = K[i * m + j];
      off[p++] = v;
      offSq += v * v;
      r += v;
      rowsum[j] += v;
    }
    rowsum[i] += r;
  }
  let total = 0;
  for (let i = 0; i < m; i++) total += rowsum[i];
  const info: GramInfo = { off, diag, rowsum, total, selfBiased: 2 * offSq + diagSq, selfDebiased: 0 };
  info.selfDebiased = hsicDebiased(2 * offSq, total, total, dot(rowsum, 0, rowsum, 0, m), m);
  return info;
}

/** y layers per block of crossDots, and doubles per chunk of the triangles (A and B chunks stay in cache). */
const Y_BLOCK = 8;
const K_CHUNK = 4096;

/**
 * out[i·|ys| + j] = ⟨xs[i], ys[j]⟩ over vectors of one length (ys null: xs against themselves, upper tiles only), as
 * matrix products of K_CHUNK-long slices. The slices form fixed groups of GROUP_CHUNKS: each group's sum is built
 * slice by slice (crossDotsGroup), and out adds the groups in order, so a worker pool can share out the groups and
 * still get these bits. Every slice goes to the SIMD kernel whatever its size (the JS kernel only where there is
 * none), so a cell's value depends only on its two vectors: the same whether it came from a block of 8 y layers or
 * from one product over every layer of several models (crossDotsAll).
 */
export function crossDots(xs: readonly Float64Array[], ys: readonly Float64Array[] | null): Float64Array {
  return runSteps(crossDotsSteps(xs, ys));
}

/** How many slices of K_CHUNK values a group sums before it is added to the total. */
const GROUP_CHUNKS = 8;

/** The number of groups crossDotsGroup splits vectors of length `len` into. */
export const crossDotsGroups = (len: number): number => Math.ceil(len / (K_CHUNK * GROUP_CHUNKS));

/** Group g's part of crossDots: its slices' products, summed slice by slice. */
export function crossDotsGroup(xs: readonly Float64Array[], ys: readonly Float64Array[] | null, g: number): Float64Array {
  const sym = ys === null;
  const right = ys ?? xs;
  const nx = xs.length;
  const ny = right.length;
  const len = xs[0]?.length ?? 0;
  const out = new Float64Array(nx * ny);
  const A = new Float64Array(nx * K_CHUNK);
  const B = sym ? A : new Float64Array(ny * K_CHUNK);
  const C = new Float64Array(nx * ny);
  const end = Math.min(len, (g + 1) * K_CHUNK * GROUP_CHUNKS);
  for (let k0 = g * K_CHUNK * GROUP_CHUNKS; k0 < end; k0 += K_CHUNK) {
    const kc = Math.min(K_CHUNK, len - k0);
    const a = kc === K_CHUNK ? A : A.subarray(0, nx * kc);
    const b = sym ? a : kc === K_CHUNK ? B : B.subarray(0, ny * kc);
    for (let i = 0; i < nx; i++) a.set(xs[i].subarray(k0, k0 + kc), i * kc);
    if (!sym) for (let j = 0; j < ny; j++) b.set(right[j].subarray(k0, k0 + kc), j * kc);
    if (!gemmNTSimd(a, sym ? null : b, nx, ny, kc, C, sym)) gemmNTScalar(a, b, nx, ny, kc, C, sym);
    for (let c = 0; c < out.length; c++) out[c] += C[c];
  }
  return out;
}

/** Adds group sums to a total in group order: the one way crossDots's groups are put together, here or in a pool. */
export function addGroups(groups: readonly Float64Array[], cells: number): Float64Array {
  const out = new Float64Array(cells);
  for (const part of groups) for (let c = 0; c < cells; c++) out[c] += part[c];
  return out;
}

/** crossDots as a generator that yields after each group. */
export function* crossDotsSteps(xs: readonly Float64Array[], ys: readonly Float64Array[] | null): Generator<Progress, Float64Array> {
  const total = crossDotsGroups(xs[0]?.length ?? 0);
  const parts: Float64Array[] = [];
  for (let g = 0; g < total; g++) {
    parts.push(crossDotsGroup(xs, ys, g));
    yield { done: g + 1, total };
  }
  return addGroups(parts, xs.length * (ys ?? xs).length);
}

/** Each layer's strict upper triangle, models one after another: the vectors of crossDotsAll. */
export function triangles(models: readonly GramStats[]): { triangles: Float64Array[]; offsets: number[] } {
  const offsets: number[] = [];
  const tri: Float64Array[] = [];
  for (const g of models) {
    offsets.push(tri.length);
    for (const info of g) tri.push(info.off);
  }
  return { triangles: tri, offsets };
}

/**
 * ⟨K̃_u, K̃_v⟩ (strict upper triangles) for every two layers u, v of several models at once, layers numbered model
 * after model: one symmetric product over all their triangles instead of one per pair of models, whose small
 * blocks re-read every triangle for each block of y layers. The cells equal crossDots's for any pair, bit for bit.
 * A GridExecutor runs it (`crossDots`), on several workers where it has them.
 */
export function crossDotsAll(models: readonly GramStats[]): AllDots {
  const { triangles: tri, offsets } = triangles(models);
  return { dots: crossDots(tri, null), layers: tri.length, offsets };
}

/** Every layer's dot products with every other's, layers numbered model after model (offsets: each model's first). */
export interface AllDots {
  dots: Float64Array;
  layers: number;
  offsets: number[];
}

/** The L_i × L_j block of crossDotsAll for models i and j: what ckaSteps takes as `dots`. */
export function pairDots(all: AllDots, i: number, Li: number, j: number, Lj: number): Float64Array {
  const out = new Float64Array(Li * Lj);
  const U = all.layers;
  for (let a = 0; a < Li; a++) for (let b = 0; b < Lj; b++) out[a * Lj + b] = all.dots[(all.offsets[i] + a) * U + all.offsets[j] + b];
  return out;
}

/** One model's per-layer Gram statistics (opaque: ckaSteps reads them), for reuse across the pairs it is in. */
export type GramStats = readonly GramInfo[];

/** The Gram statistics of every layer of a stack, yielding after each (one m × m product per layer). */
export function* gramStatsSteps(s: LayerStack): Generator<Progress, GramStats> {
  checkStack(s, 'stack');
  const out: GramInfo[] = [];
  for (let l = 0; l < s.L; l++) {
    out.push(gramInfo(s, l));
    yield { done: l + 1, total: s.L };
  }
  return out;
}

/** Bytes that a stack's Gram statistics hold: a packed triangle and two vectors per layer. */
export const gramStatsBytes = (m: number, layers: number): number => layers * 8 * ((m * (m - 1)) / 2 + 2 * m);

/** Song et al. (2012) unbiased HSIC from ⟨K̃,L̃⟩, ΣK̃, ΣL̃ and Σ(K̃L̃). */
function hsicDebiased(kl: number, sumK: number, sumL: number, sumKL: number, m: number): number {
  return (kl + (sumK * sumL) / ((m - 1) * (m - 2)) - (2 / (m - 2)) * sumKL) / (m * (m - 3));
}

function ratio(num: number, a: number, b: number): number {
  const d = Math.sqrt(a * b);
  return d > 0 ? num / d : NaN;
}

/** np.array_split's thirds: the first blocks take the remainder. */
export function thirds(L: number): [number, number, number, number] {
  const base = Math.floor(L / 3);
  const rem = L % 3;
  const e = base + (rem > 0 ? 1 : 0);
  const m = e + base + (rem > 1 ? 1 : 0);
  return [0, e, m, L];
}

export function poolGrid(grid: ArrayLike<number>, L1: number, L2: number): Pooled {
  let sum = 0;
  for (let i = 0; i < L1 * L2; i++) sum += grid[i];
  let rowMax = 0;
  for (let i = 0; i < L1; i++) {
    let mx = -Infinity;
    for (let j = 0; j < L2; j++) mx = Math.max(mx, grid[i * L2 + j]);
    rowMax += mx;
  }
  let colMax = 0;
  for (let j = 0; j < L2; j++) {
    let mx = -Infinity;
    for (let i = 0; i < L1; i++) mx = Math.max(mx, grid[i * L2 + j]);
    colMax += mx;
  }
  const t1 = thirds(L1);
  const t2 = thirds(L2);
  const block = (r: number): number => {
    let s = 0;
    let c = 0;
    for (let i = t1[r]; i < t1[r + 1]; i++)
      for (let j = t2[r]; j < t2[r + 1]; j++) {
        s += grid[i * L2 + j];
        c++;
      }
    return c ? s / c : NaN;
  };
  return { global: sum / (L1 * L2), maxAligned: 0.5 * (rowMax / L1 + colMax / L2), regions: { early: block(0), mid: block(1), late: block(2) } };
}

/** Permutes a symmetric matrix given by (strict upper packed, diag) into packed form under π. */
function permutePacked(info: GramInfo, perm: Int32Array, m: number, full: Float64Array, out: Float64Array): void {
  let p = 0;
  for (let i = 0; i < m; i++) {
    full[i * m + i] = info.diag[i];
    for (let j = i + 1; j < m; j++) {
      const v = info.off[p++];
      full[i * m + j] = v;
      full[j * m + i] = v;
    }
  }
  p = 0;
  for (let i = 0; i < m; i++) {
    const ri = perm[i] * m;
    for (let j = i + 1; j < m; j++) out[p++] = full[ri + perm[j]];
  }
}

export function cka(x: LayerStack, y: LayerStack, opts: CkaOptions = {}): CkaResult {
  return runSteps(ckaSteps(x, y, opts), opts);
}

/** cka as a generator that yields after each layer's Gram matrix. */
export function* ckaSteps(x: LayerStack, y: LayerStack, opts: CkaOptions = {}): Generator<Progress, CkaResult> {
  // A side given as Gram statistics was checked when they were built (gramStatsSteps), and its states are not read
  // again: a full scan per pair took most of the time of the pairs of eight large models.
  if (!opts.gramsX) checkStack(x, 'x');
  if (!opts.gramsY) checkStack(y, 'y');
  if (x.n !== y.n) throw new Error(`cka: x has ${x.n} probes, y has ${y.n}`);
  const m = x.n;
  if (m < 4) throw new Error(`cka: need at least 4 probes for debiased HSIC (got ${m})`);
  const N = opts.orders ? opts.orders.length : Math.max(0, Math.floor(opts.permutations ?? 0));
  const { L: L1 } = x;
  const { L: L2 } = y;
  const lin = new Float64Array(L1 * L2);
  const deb = new Float64Array(L1 * L2);
  const total = L1 + L2;
  let done = 0;
  if (opts.gramsX && opts.gramsX.length !== L1) throw new Error(`cka: gramsX has ${opts.gramsX.length} layers, x has ${L1}`);
  if (opts.gramsY && opts.gramsY.length !== L2) throw new Error(`cka: gramsY has ${opts.gramsY.length} layers, y has ${L2}`);
  const xs: GramInfo[] = [];
  for (let i = 0; i < L1; i++) {
    xs.push(opts.gramsX?.[i] ?? gramInfo(x, i));
    yield { done: ++done, total };
  }
  // ⟨K̃_i, L̃_j⟩ for a block of y layers at once, as chunked matrix products (crossDots): a product reads each x
  // triangle once per block, where one gemv per y layer read all of them per layer (memory-bound, ~1 GMAC/s). The
  // blocks are a fixed partition of the y layers, so a cell's sums never depend on what the caller passed in. For
  // permutations the x triangles are also kept resident in wasm memory: each permuted y layer is one gemv.
  const resident = N ? new ResidentRows(L1, (m * (m - 1)) / 2) : null;
  xs.forEach((xi, i) => resident?.setRow(i, [xi.off]));
  const rng = createRng(opts.seed ?? 0);
  const perms: Int32Array[] = [];
  for (let q = 0; q < N; q++) {
    const given = opts.orders?.[q];
    if (given && (given.length !== m || new Set(Array.from(given)).size !== m || Array.from(given).some((v) => !(v >= 0 && v < m)))) {
      throw new Error(`cka: order ${q} is not a permutation of 0..${m - 1}`);
    }
    perms.push(Int32Array.from(given ?? rng.shuffle(Array.from({ length: m }, (_, i) => i))));
  }
  const permLin = N ? new Float64Array(N * L1 * L2) : null;
  const permDeb = N ? new Float64Array(N * L1 * L2) : null;
  const full = N ? new Float64Array(m * m) : null;
  const packed = N ? new Float64Array((m * (m - 1)) / 2) : null;
  const rsPerm = new Float64Array(m);
  const xOff = xs.map((xi) => xi.off);
  if (opts.dots && opts.dots.length !== L1 * L2) throw new Error(`cka: dots has ${opts.dots.length} cells, the grid ${L1 * L2}`);
  let block: { j0: number; ys: GramInfo[]; dots: Float64Array } | null = null;
  for (let j = 0; j < L2; j++) {
    if (!block || j >= block.j0 + block.ys.length) {
      const j0 = j;
      const ys = Array.from({ length: Math.min(Y_BLOCK, L2 - j0) }, (_, b) => opts.gramsY?.[j0 + b] ?? gramInfo(y, j0 + b));
      block = {
        j0,
        ys,
        dots: opts.dots
          ? blockOf(opts.dots, L2, j0, ys.length)
          : crossDots(
              xOff,
              ys.map((g) => g.off),
            ),
      };
    }
    const yj = block.ys[j - block.j0];
    const nb = block.ys.length;
    for (let i = 0; i < L1; i++) {
      const xi = xs[i];
      const kl = 2 * block.dots[i * nb + (j - block.j0)];
      const dd = dot(xi.diag, 0, yj.diag, 0, m);
      lin[i * L2 + j] = ratio(kl + dd, xi.selfBiased, yj.selfBiased);
      deb[i * L2 + j] = ratio(hsicDebiased(kl, xi.total, yj.total, dot(xi.rowsum, 0, yj.rowsum, 0, m), m), xi.selfDebiased, yj.selfDebiased);
    }
    for (let q = 0; q < N; q++) {
      const perm = perms[q];
      permutePacked(yj, perm, m, full!, packed!);
      for (let r = 0; r < m; r++) rsPerm[r] = yj.rowsum[perm[r]];
      const permDots = resident!.dotAll([packed!]);
      for (let i = 0; i < L1; i++) {
        const xi = xs[i];
        let ddp = 0;
        for (let r = 0; r < m; r++) ddp += xi.diag[r] * yj.diag[perm[r]];
        const kl = 2 * permDots[i];
        const o = (q * L1 + i) * L2 + j;
        permLin![o] = ratio(kl + ddp, xi.selfBiased, yj.selfBiased);
        permDeb![o] = ratio(hsicDebiased(kl, xi.total, yj.total, dot(xi.rowsum, 0, rsPerm, 0, m), m), xi.selfDebiased, yj.selfDebiased);
      }
    }
    yield { done: ++done, total };
  }
  return {
    L1,
    L2,
    m,
    permutations: N,
    linear: finish(lin, permLin, N, L1, L2),
    debiased: finish(deb, permDeb, N, L1, L2),
  };
}

/** Columns j0 … j0 + nb − 1 of an L1 × L2 matrix, as crossDots lays out a block (row = x layer). */
function blockOf(dots: Float64Array, L2: number, j0: number, nb: number): Float64Array {
  const L1 = dots.length / L2;
  const out = new Float64Array(L1 * nb);
  for (let i = 0; i < L1; i++) for (let b = 0; b < nb; b++) out[i * nb + b] = dots[i * L2 + j0 + b];
  return out;
}

function finish(grid: Float64Array, perm: Float64Array | null, N: number, L1: number, L2: number): CkaGrid {
  const pooled = poolGrid(grid, L1, L2);
  const out: CkaGrid = { grid, ...pooled };
  if (!perm || N === 0) return out;
  const size = L1 * L2;
  const pg = new Float64Array(size);
  let pGlobal = 0;
  let pMax = 0;
  const pReg = { early: 0, mid: 0, late: 0 };
  for (let q = 0; q < N; q++) {
    const g = perm.subarray(q * size, (q + 1) * size);
    for (let c = 0; c < size; c++) if (g[c] >= grid[c]) pg[c]++;
    const pp = poolGrid(g, L1, L2);
    if (pp.global >= pooled.global) pGlobal++;
    if (pp.maxAligned >= pooled.maxAligned) pMax++;
    for (const r of ['early', 'mid', 'late'] as const) if (pp.regions[r] >= pooled.regions[r]) pReg[r]++;
  }
  const f = (c: number) => (1 + c) / (N + 1);
  for (let c = 0; c < size; c++) pg[c] = f(pg[c]);
  out.p = { grid: pg, global: f(pGlobal), maxAligned: f(pMax), regions: { early: f(pReg.early), mid: f(pReg.mid), late: f(pReg.late) } };
  return out;
}
