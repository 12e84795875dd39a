/**
 * Small float64 linear-algebra toolkit on row-major Float64Arrays.
 *
 * Everything heavy is phrased as "rows dot rows" (C = A·Bᵀ): contiguous rows stream through a register tile of
 * accumulators. Large products go to the WebAssembly SIMD kernel (simd-gemm.ts, ~2× the JS tile); small ones and
 * hosts without wasm SIMD use the JS tile.
 */

import { gemmNTSimd, mirrorUpper } from './simd-gemm';

export type Mat = Float64Array;

/** Below this many multiply-adds the copy into wasm memory costs more than SIMD saves. */
const SIMD_MIN_WORK = 1 << 16;

/**
 * C (m×n) = A (m×k) · B (n×k)ᵀ. With `symmetric` (A and B the same rows), only j ≥ i tiles are computed, and the
 * lower triangle is filled from the upper one unless `mirror` is false.
 */
export function gemmNT(A: Mat, B: Mat, m: number, n: number, k: number, C: Mat = new Float64Array(m * n), symmetric = false, mirror = true): Mat {
  if (m * n * k >= SIMD_MIN_WORK && gemmNTSimd(A, symmetric ? null : B, m, n, k, C, symmetric, mirror)) return C;
  return gemmNTScalar(A, B, m, n, k, C, symmetric, mirror);
}

/** The plain-JS kernel: a 2×4 register tile (~1.8 GMAC/s here; the NN axpy form was ~4× slower). */
export function gemmNTScalar(A: Mat, B: Mat, m: number, n: number, k: number, C: Mat = new Float64Array(m * n), symmetric = false, mirror = true): Mat {
  const m2 = m - (m % 2);
  const n4 = n - (n % 4);
  for (let i = 0; i < m2; i += 2) {
    const a0 = i * k;
    const a1 = a0 + k;
    const jStart = symmetric ? i - (i % 4) : 0;
    for (let j = jStart; j < n4; j += 4) {
      const b0 = j * k;
      const b1 = b0 + k;
      const b2 = b1 + k;
      const b3 = b2 + k;
      let c00 = 0,
        c01 = 0,
        c02 = 0,
        c03 = 0,
        c10 = 0,
        c11 = 0,
        c12 = 0,
        c13 = 0;
      for (let p = 0; p < k; p++) {
        const x0 = A[a0 + p];
        const x1 = A[a1 + p];
        const y0 = B[b0 + p];
        const y1 = B[b1 + p];
        const y2 = B[b2 + p];
        const y3 = B[b3 + p];
        c00 += x0 * y0;
        c01 += x0 * y1;
        c02 += x0 * y2;
        c03 += x0 * y3;
        c10 += x1 * y0;
        c11 += x1 * y1;
        c12 += x1 * y2;
        c13 += x1 * y3;
      }
      let o = i * n + j;
      C[o] = c00;
      C[o + 1] = c01;
      C[o + 2] = c02;
      C[o + 3] = c03;
      o += n;
      C[o] = c10;
      C[o + 1] = c11;
      C[o + 2] = c12;
      C[o + 3] = c13;
    }
    for (let j = n4; j < n; j++) {
      C[i * n + j] = dot(A, a0, B, j * k, k);
      C[(i + 1) * n + j] = dot(A, a1, B, j * k, k);
    }
  }
  for (let i = m2; i < m; i++) for (let j = symmetric ? i : 0; j < n; j++) C[i * n + j] = dot(A, i * k, B, j * k, k);
  if (symmetric && mirror) mirrorUpper(C, n);
  return C;
}

/** Σ_p a[ao+p]·b[bo+p], four accumulators so the adds pipeline. */
export function dot(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number, k: number): number {
  let s0 = 0,
    s1 = 0,
    s2 = 0,
    s3 = 0;
  let p = 0;
  for (; p + 4 <= k; p += 4) {
    s0 += a[ao + p] * b[bo + p];
    s1 += a[ao + p + 1] * b[bo + p + 1];
    s2 += a[ao + p + 2] * b[bo + p + 2];
    s3 += a[ao + p + 3] * b[bo + p + 3];
  }
  for (; p < k; p++) s0 += a[ao + p] * b[bo + p];
  return s0 + s1 + (s2 + s3);
}

/** Bᵀ (cols×rows) of A (rows×cols), blocked so both sides stay in cache. */
export function transpose(A: ArrayLike<number>, rows: number, cols: number, out: Mat = new Float64Array(rows * cols)): Mat {
  const T = 32;
  for (let i0 = 0; i0 < rows; i0 += T) {
    const i1 = Math.min(rows, i0 + T);
    for (let j0 = 0; j0 < cols; j0 += T) {
      const j1 = Math.min(cols, j0 + T);
      for (let i = i0; i < i1; i++) for (let j = j0; j < j1; j++) out[j * rows + i] = A[i * cols + j];
    }
  }
  return out;
}

/** C (m×n) = A (m×k) · B (k×n), via Bᵀ so the inner loop is a row dot. */
export function matmul(A: Mat, B: Mat, m: number, k: number, n: number): Mat {
  return gemmNT(A, transpose(B, k, n), m, n, k);
}

/**
 * In-place Cholesky S = L·Lᵀ (lower triangle written, upper zeroed). Throws when S is not positive definite.
 * Below each pivot, four rows are updated together so that each load of row j feeds four accumulators.
 */
export function choleskyUnblocked(S: Mat, n: number): Mat {
  for (let j = 0; j < n; j++) {
    const rj = j * n;
    let d = S[rj + j] - dot(S, rj, S, rj, j);
    if (!(d > 0)) throw new Error(`cholesky: matrix is not positive definite (pivot ${j} = ${d})`);
    d = Math.sqrt(d);
    S[rj + j] = d;
    const inv = 1 / d;
    let i = j + 1;
    for (; i + 4 <= n; i += 4) {
      const r0 = i * n;
      const r1 = r0 + n;
      const r2 = r1 + n;
      const r3 = r2 + n;
      let s0 = 0,
        s1 = 0,
        s2 = 0,
        s3 = 0;
      for (let p = 0; p < j; p++) {
        const l = S[rj + p];
        s0 += S[r0 + p] * l;
        s1 += S[r1 + p] * l;
        s2 += S[r2 + p] * l;
        s3 += S[r3 + p] * l;
      }
      S[r0 + j] = (S[r0 + j] - s0) * inv;
      S[r1 + j] = (S[r1 + j] - s1) * inv;
      S[r2 + j] = (S[r2 + j] - s2) * inv;
      S[r3 + j] = (S[r3 + j] - s3) * inv;
    }
    for (; i < n; i++) {
      const ri = i * n;
      S[ri + j] = (S[ri + j] - dot(S, ri, S, rj, j)) * inv;
    }
  }
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) S[i * n + j] = 0;
  return S;
}

/**
 * Solves (L·Lᵀ) f = x for each of the r rows of X (r×n) in place. Lt is Lᵀ (row-major), so that the back
 * substitution also walks contiguous rows. Four right-hand sides go together, sharing each load of L.
 */
export function cholSolveRowsUnblocked(L: Mat, Lt: Mat, n: number, X: Mat, r: number): Mat {
  let q = 0;
  for (; q + 4 <= r; q += 4) {
    const o0 = q * n;
    const o1 = o0 + n;
    const o2 = o1 + n;
    const o3 = o2 + n;
    for (let i = 0; i < n; i++) {
      const ri = i * n;
      let s0 = 0,
        s1 = 0,
        s2 = 0,
        s3 = 0;
      for (let p = 0; p < i; p++) {
        const l = L[ri + p];
        s0 += l * X[o0 + p];
        s1 += l * X[o1 + p];
        s2 += l * X[o2 + p];
        s3 += l * X[o3 + p];
      }
      const inv = 1 / L[ri + i];
      X[o0 + i] = (X[o0 + i] - s0) * inv;
      X[o1 + i] = (X[o1 + i] - s1) * inv;
      X[o2 + i] = (X[o2 + i] - s2) * inv;
      X[o3 + i] = (X[o3 + i] - s3) * inv;
    }
    for (let i = n - 1; i >= 0; i--) {
      const ri = i * n;
      let s0 = 0,
        s1 = 0,
        s2 = 0,
        s3 = 0;
      for (let p = i + 1; p < n; p++) {
        const l = Lt[ri + p];
        s0 += l * X[o0 + p];
        s1 += l * X[o1 + p];
        s2 += l * X[o2 + p];
        s3 += l * X[o3 + p];
      }
      const inv = 1 / Lt[ri + i];
      X[o0 + i] = (X[o0 + i] - s0) * inv;
      X[o1 + i] = (X[o1 + i] - s1) * inv;
      X[o2 + i] = (X[o2 + i] - s2) * inv;
      X[o3 + i] = (X[o3 + i] - s3) * inv;
    }
  }
  for (; q < r; q++) {
    const o = q * n;
    for (let i = 0; i < n; i++) X[o + i] = (X[o + i] - dot(L, i * n, X, o, i)) / L[i * n + i];
    for (let i = n - 1; i >= 0; i--) {
      const ri = i * n;
      X[o + i] = (X[o + i] - dot(Lt, ri + i + 1, X, o + i + 1, n - i - 1)) / Lt[ri + i];
    }
  }
  return X;
}

/** Panel width of the blocked factorisation and solves: the work outside the panels goes through gemmNT. */
const NB = 64;

/** Rows r0..r1, columns c0..c1 of a row-major matrix with `cols` columns, as a dense block. */
function block(A: Mat, cols: number, r0: number, r1: number, c0: number, c1: number): Mat {
  const w = c1 - c0;
  const out = new Float64Array((r1 - r0) * w);
  for (let r = r0; r < r1; r++) out.set(A.subarray(r * cols + c0, r * cols + c1), (r - r0) * w);
  return out;
}

/**
 * In-place Cholesky S = L·Lᵀ (lower triangle written, upper zeroed). Throws when S is not positive definite.
 * Right-looking and blocked: each 64-wide panel is factorised in scalar code, and the trailing update
 * S₂₂ −= L₂₁L₂₁ᵀ (n³/6 of the n³/6 + O(n²·64) work) runs through the SIMD product.
 */
export function cholesky(S: Mat, n: number): Mat {
  if (n < 2 * NB) return choleskyUnblocked(S, n);
  for (let k0 = 0; k0 < n; k0 += NB) {
    const k1 = Math.min(n, k0 + NB);
    const b = k1 - k0;
    const D = choleskyUnblocked(block(S, n, k0, k1, k0, k1), b);
    for (let i = k0; i < k1; i++) for (let j = k0; j < k1; j++) S[i * n + j] = D[(i - k0) * b + (j - k0)];
    if (k1 === n) break;
    // Panel L₂₁ = S₂₁ D⁻ᵀ: each row solves D z = s (forward substitution).
    const m = n - k1;
    const P = block(S, n, k1, n, k0, k1);
    triangularBlock(D, b, P, m, 0, b, true);
    for (let r = 0; r < m; r++) S.set(P.subarray(r * b, (r + 1) * b), (k1 + r) * n + k0);
    // Mirrored (in cache blocks) so that S's lower triangle is updated row by row.
    const U = gemmNT(P, P, m, m, b, undefined, true);
    for (let r = 0; r < m; r++) {
      const sr = (k1 + r) * n + k1;
      const ur = r * m;
      for (let c = 0; c <= r; c++) S[sr + c] -= U[ur + c];
    }
  }
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) S[i * n + j] = 0;
  return S;
}

/**
 * Within one diagonal block [j0, j1): forward (T lower) or backward (T upper) substitution on every row of X,
 * four rows at a time so that each load of T feeds four accumulators.
 */
function triangularBlock(T: Mat, n: number, X: Mat, r: number, j0: number, j1: number, forward: boolean): void {
  let q = 0;
  for (; q + 4 <= r; q += 4) {
    const o0 = q * n;
    const o1 = o0 + n;
    const o2 = o1 + n;
    const o3 = o2 + n;
    for (let s = 0; s < j1 - j0; s++) {
      const i = forward ? j0 + s : j1 - 1 - s;
      const ri = i * n;
      const p0 = forward ? j0 : i + 1;
      const p1 = forward ? i : j1;
      let s0 = X[o0 + i],
        s1 = X[o1 + i],
        s2 = X[o2 + i],
        s3 = X[o3 + i];
      for (let p = p0; p < p1; p++) {
        const t = T[ri + p];
        s0 -= t * X[o0 + p];
        s1 -= t * X[o1 + p];
        s2 -= t * X[o2 + p];
        s3 -= t * X[o3 + p];
      }
      const inv = 1 / T[ri + i];
      X[o0 + i] = s0 * inv;
      X[o1 + i] = s1 * inv;
      X[o2 + i] = s2 * inv;
      X[o3 + i] = s3 * inv;
    }
  }
  for (; q < r; q++) {
    const o = q * n;
    for (let s = 0; s < j1 - j0; s++) {
      const i = forward ? j0 + s : j1 - 1 - s;
      const ri = i * n;
      let t = X[o + i];
      if (forward) for (let p = j0; p < i; p++) t -= T[ri + p] * X[o + p];
      else for (let p = i + 1; p < j1; p++) t -= T[ri + p] * X[o + p];
      X[o + i] = t / T[ri + i];
    }
  }
}

/**
 * Solves (L·Lᵀ) f = x for each of the r rows of X (r×n) in place; Lt is Lᵀ. Blocked by 64 columns: after each
 * block of the forward (then backward) substitution, the rest of X is updated with one SIMD product.
 */
export function cholSolveRows(L: Mat, Lt: Mat, n: number, X: Mat, r: number): Mat {
  if (n < 2 * NB || r < 8) return cholSolveRowsUnblocked(L, Lt, n, X, r);
  // Forward: Z = X L⁻ᵀ, column blocks left to right.
  for (let j0 = 0; j0 < n; j0 += NB) {
    const j1 = Math.min(n, j0 + NB);
    const b = j1 - j0;
    triangularBlock(L, n, X, r, j0, j1, true);
    if (j1 === n) break;
    const U = gemmNT(block(X, n, 0, r, j0, j1), block(L, n, j1, n, j0, j1), r, n - j1, b);
    const w = n - j1;
    for (let q = 0; q < r; q++) for (let c = 0; c < w; c++) X[q * n + j1 + c] -= U[q * w + c];
  }
  // Backward: F = Z L⁻¹ (solves Lᵀ f = z), column blocks right to left.
  for (let j1 = n; j1 > 0; j1 -= NB) {
    const j0 = Math.max(0, j1 - NB);
    const b = j1 - j0;
    triangularBlock(Lt, n, X, r, j0, j1, false);
    if (j0 === 0) break;
    const U = gemmNT(block(X, n, 0, r, j0, j1), block(Lt, n, 0, j0, j0, j1), r, j0, b);
    for (let q = 0; q < r; q++) for (let c = 0; c < j0; c++) X[q * n + c] -= U[q * j0 + c];
  }
  return X;
}

/** Solves S x = b for symmetric positive-definite S (n×n); b may hold r right-hand sides as rows. */
export function spdSolve(S: ArrayLike<number>, n: number, b: ArrayLike<number>, r = 1): Mat {
  const L = cholesky(Float64Array.from(S), n);
  return cholSolveRows(L, transpose(L, n, n), n, Float64Array.from(b), r);
}

/** Inverse of a symmetric positive-definite matrix. */
export function spdInverse(S: ArrayLike<number>, n: number): Mat {
  const I = new Float64Array(n * n);
  for (let i = 0; i < n; i++) I[i * n + i] = 1;
  return spdSolve(S, n, I, n);
}

/** log det of a symmetric positive-definite matrix, via Cholesky. */
export function spdLogDet(S: ArrayLike<number>, n: number): number {
  const L = cholesky(Float64Array.from(S), n);
  let s = 0;
  for (let i = 0; i < n; i++) s += Math.log(L[i * n + i]);
  return 2 * s;
}
