/**
 * Signed undirected graphs J ∈ {−1, 0, +1}^{N×N} (symmetric, zero diagonal), stored as CSR so that a 316×316
 * lattice costs a few MB; a dense Int8Array view is built on demand for small N.
 * Plain typed arrays only, so a graph is structured-cloneable across a worker boundary.
 */
export interface SignedGraph {
  n: number;
  /** CSR row pointers, length n+1. */
  rowPtr: Int32Array;
  /** Neighbour indices, sorted within each row. */
  col: Int32Array;
  /** Edge sign (+1 friendly, −1 unfriendly), aligned with col. */
  sign: Int8Array;
  /** Lattice side when the graph is a periodic lattice, so hot loops can index directly. */
  side?: number;
  kind?: string;
}

/** Builds CSR from an undirected edge list (i, j, sign); duplicates keep the last sign, self-loops are dropped. */
export function fromEdges(n: number, edges: ReadonlyArray<readonly [number, number, number]>, kind?: string): SignedGraph {
  const map: Map<number, number>[] = Array.from({ length: n }, () => new Map());
  for (const [i, j, s] of edges) {
    if (i === j || s === 0) continue;
    const v = s > 0 ? 1 : -1;
    map[i].set(j, v);
    map[j].set(i, v);
  }
  const rowPtr = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) rowPtr[i + 1] = rowPtr[i] + map[i].size;
  const col = new Int32Array(rowPtr[n]);
  const sign = new Int8Array(rowPtr[n]);
  for (let i = 0; i < n; i++) {
    const keys = [...map[i].keys()].sort((a, b) => a - b);
    let p = rowPtr[i];
    for (const k of keys) {
      col[p] = k;
      sign[p++] = map[i].get(k)!;
    }
  }
  return { n, rowPtr, col, sign, kind };
}

/** Accepts a dense row-major matrix (numbers or Int8Array); only the sign of each entry is kept. */
export function fromDense(n: number, J: ArrayLike<number>, kind?: string): SignedGraph {
  const edges: [number, number, number][] = [];
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const v = J[i * n + j];
      if (v !== 0) edges.push([i, j, Math.sign(v)]);
    }
  return fromEdges(n, edges, kind);
}

export function toDense(g: SignedGraph): Int8Array {
  const J = new Int8Array(g.n * g.n);
  for (let i = 0; i < g.n; i++) for (let p = g.rowPtr[i]; p < g.rowPtr[i + 1]; p++) J[i * g.n + g.col[p]] = g.sign[p];
  return J;
}

export function edgeList(g: SignedGraph): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (let i = 0; i < g.n; i++) for (let p = g.rowPtr[i]; p < g.rowPtr[i + 1]; p++) if (g.col[p] > i) out.push([i, g.col[p], g.sign[p]]);
  return out;
}

export function edgeCount(g: SignedGraph): { total: number; positive: number; negative: number } {
  let positive = 0;
  let negative = 0;
  for (let i = 0; i < g.n; i++)
    for (let p = g.rowPtr[i]; p < g.rowPtr[i + 1]; p++)
      if (g.col[p] > i) {
        if (g.sign[p] > 0) positive++;
        else negative++;
      }
  return { total: positive + negative, positive, negative };
}

/** Sign of edge (i, j), 0 if absent (binary search in the sorted row). */
export function edgeSign(g: SignedGraph, i: number, j: number): number {
  let lo = g.rowPtr[i];
  let hi = g.rowPtr[i + 1] - 1;
  while (lo <= hi) {
    const m = (lo + hi) >> 1;
    const c = g.col[m];
    if (c === j) return g.sign[m];
    if (c < j) lo = m + 1;
    else hi = m - 1;
  }
  return 0;
}
