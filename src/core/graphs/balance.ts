/** Structural-balance readouts for signed graphs. */
import type { Rng } from '../rng';
import type { SignedGraph } from './signed';
import { edgeSign } from './signed';

/** Exact: among triangles whose three edges are all non-zero, the fraction whose sign product is negative. */
export function frustratedTriangleFraction(g: SignedGraph): { triangles: number; frustrated: number; fraction: number } {
  let triangles = 0;
  let frustrated = 0;
  const { rowPtr, col, sign } = g;
  for (let i = 0; i < g.n; i++)
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
      const j = col[p];
      if (j <= i) continue;
      for (let q = p + 1; q < rowPtr[i + 1]; q++) {
        const k = col[q]; // rows are sorted, so k > j > i: each triangle counted once
        const sjk = edgeSign(g, j, k);
        if (sjk === 0) continue;
        triangles++;
        if (sign[p] * sign[q] * sjk < 0) frustrated++;
      }
    }
  return { triangles, frustrated, fraction: triangles ? frustrated / triangles : 0 };
}

export interface UnsatisfiedResult {
  /** Best (lowest) fraction of edges with J_ij c_i c_j < 0 found; an UPPER bound on the true minimum. */
  fraction: number;
  count: number;
  edges: number;
  colouring: Int8Array;
}

/** Count of unsatisfied edges under a 2-colouring. */
export function unsatisfiedCount(g: SignedGraph, c: ArrayLike<number>): number {
  let u = 0;
  for (let i = 0; i < g.n; i++) for (let p = g.rowPtr[i]; p < g.rowPtr[i + 1]; p++) if (g.col[p] > i && g.sign[p] * c[i] * c[g.col[p]] < 0) u++;
  return u;
}

/**
 * Minimal unsatisfied (frustrated) edge fraction, by a heuristic: the exact problem is NP-hard (it is a max-cut).
 * Each restart starts from a colouring propagated along a BFS tree from a random root (exact on balanced graphs)
 * or, on odd restarts, a uniformly random one, then flips single nodes while a flip lowers the count (local
 * search to a 1-flip optimum). The best over restarts is returned, so the value is an upper bound.
 */
export function minUnsatisfiedFraction(g: SignedGraph, rng: Rng, opts: { restarts?: number } = {}): UnsatisfiedResult {
  const { n, rowPtr, col, sign } = g;
  const m = rowPtr[n] / 2;
  const restarts = Math.max(1, opts.restarts ?? 16);
  let best: UnsatisfiedResult = { fraction: 0, count: 0, edges: m, colouring: new Int8Array(n).fill(1) };
  if (m === 0) return best;
  best.count = Infinity;
  const c = new Int8Array(n);
  const queue = new Int32Array(n);
  for (let r = 0; r < restarts; r++) {
    if (r % 2 === 0) {
      c.fill(0);
      const start = rng.int(n);
      for (let s0 = 0; s0 < n; s0++) {
        const root = (start + s0) % n;
        if (c[root] !== 0) continue;
        c[root] = rng.next() < 0.5 ? 1 : -1;
        let head = 0;
        let tail = 0;
        queue[tail++] = root;
        while (head < tail) {
          const i = queue[head++];
          for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
            const j = col[p];
            if (c[j] === 0) {
              c[j] = (sign[p] * c[i]) as 1 | -1;
              queue[tail++] = j;
            }
          }
        }
      }
    } else {
      for (let i = 0; i < n; i++) c[i] = rng.next() < 0.5 ? 1 : -1;
    }
    let improved = true;
    while (improved) {
      improved = false;
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) s += sign[p] * c[col[p]];
        if (s * c[i] < 0) {
          c[i] = -c[i] as 1 | -1;
          improved = true;
        }
      }
    }
    const u = unsatisfiedCount(g, c);
    if (u < best.count) best = { fraction: u / m, count: u, edges: m, colouring: Int8Array.from(c) };
    if (u === 0) break;
  }
  return best;
}
