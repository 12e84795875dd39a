/**
 * Directed graphs for polarization.md's networks: out-link lists (number[][]) because the rewiring models edit
 * them in place; structured-cloneable as is.
 */
import type { Rng } from '../rng';

export interface DirectedGraph {
  n: number;
  out: number[][];
}

/** Ring lattice: out-links to i±1 … i±k/2 (k = 4 gives i±1, i±2). */
export function ringLattice(n: number, k = 4): DirectedGraph {
  const half = Math.floor(k / 2);
  const out: number[][] = [];
  for (let i = 0; i < n; i++) {
    const row: number[] = [];
    for (let d = 1; d <= half; d++) {
      const a = (i + d) % n;
      const b = (i - d + n) % n;
      if (a !== i && !row.includes(a)) row.push(a);
      if (b !== i && !row.includes(b)) row.push(b);
    }
    out.push(row);
  }
  return { n, out };
}

/** Watts–Strogatz-style: a ring lattice whose out-links are each rewired to a uniform non-duplicate target with prob p. */
export function smallWorld(n: number, k: number, p: number, rng: Rng): DirectedGraph {
  const g = ringLattice(n, k);
  for (let i = 0; i < n; i++) {
    const row = g.out[i];
    for (let e = 0; e < row.length; e++) {
      if (rng.next() >= p) continue;
      const t = uniformNewTarget(n, i, row, rng);
      if (t >= 0) row[e] = t;
    }
  }
  return g;
}

/** Each node draws k distinct uniform out-neighbours (no self-links). */
export function randomDirected(n: number, k: number, rng: Rng): DirectedGraph {
  const out: number[][] = [];
  for (let i = 0; i < n; i++) {
    const row: number[] = [];
    const kk = Math.min(k, n - 1);
    while (row.length < kk) {
      const t = uniformNewTarget(n, i, row, rng);
      if (t < 0) break;
      row.push(t);
    }
    out.push(row);
  }
  return { n, out };
}

/** A uniform node that is neither `self` nor already in `row`; −1 if none exists. */
export function uniformNewTarget(n: number, self: number, row: readonly number[], rng: Rng): number {
  if (row.length >= n - 1) return -1;
  for (;;) {
    const t = rng.int(n);
    if (t !== self && !row.includes(t)) return t;
  }
}

export function directedEdgeCount(g: DirectedGraph): number {
  return g.out.reduce((a, r) => a + r.length, 0);
}
