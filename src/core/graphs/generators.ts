/** Signed-graph generators from opinions.md "Graph". Every random draw goes through the seeded Rng. */
import type { Rng } from '../rng';
import { fromEdges, edgeList, type SignedGraph } from './signed';
import { minUnsatisfiedFraction } from './balance';

export interface RandomSignedOptions {
  /** Number of undirected edges kept. */
  budget: number;
  /**
   * Probability that a kept edge is friendly. The method's recipe (J = sign(u), u ~ U(−1, 1)) is 0.5; other values
   * keep the same "largest |u|" selection and only change the sign draw.
   */
  positiveFraction?: number;
}

/** u_ij ~ U(−1, 1) for i<j, keep the `budget` pairs with the largest |u|, J = sign(u). */
export function randomSigned(n: number, opts: RandomSignedOptions, rng: Rng): SignedGraph {
  const pf = opts.positiveFraction ?? 0.5;
  const pairs: { i: number; j: number; a: number; s: number }[] = [];
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const u = 2 * rng.next() - 1;
      // With pf = 0.5 the sign is sign(u) itself; otherwise an independent draw so |u| stays the ranking key.
      const s = pf === 0.5 ? (u >= 0 ? 1 : -1) : rng.next() < pf ? 1 : -1;
      pairs.push({ i, j, a: Math.abs(u), s });
    }
  pairs.sort((x, y) => y.a - x.a);
  const budget = Math.min(Math.max(0, Math.floor(opts.budget)), pairs.length);
  return fromEdges(
    n,
    pairs.slice(0, budget).map((p) => [p.i, p.j, p.s] as [number, number, number]),
    'random',
  );
}

/** Periodic L×L lattice whose node r·L + c links to the neighbours at the given (row, column) offsets. */
function periodicLattice(side: number, offsets: readonly (readonly [number, number])[], sign: number, kind: string): SignedGraph {
  const edges: [number, number, number][] = [];
  for (let r = 0; r < side; r++)
    for (let c = 0; c < side; c++) for (const [dr, dc] of offsets) edges.push([r * side + c, ((r + dr) % side) * side + ((c + dc) % side), sign]);
  return fromEdges(side * side, edges, kind);
}

/** L×L square lattice, 4 neighbours, periodic, all friendly. Node id = r·L + c. */
export function squareLattice(side: number, sign = 1): SignedGraph {
  const g = periodicLattice(
    side,
    [
      [0, 1],
      [1, 0],
    ],
    sign,
    'square',
  );
  if (side >= 3) g.side = side;
  return g;
}

/** L×L triangular lattice (square lattice plus one diagonal), 6 neighbours, periodic, all friendly. */
export function triangularLattice(side: number, sign = 1): SignedGraph {
  return periodicLattice(
    side,
    [
      [0, 1],
      [1, 0],
      [1, 1],
    ],
    sign,
    'triangular',
  );
}

export interface LowRankOptions {
  rank: number;
  /** Target minimal unsatisfied fraction γ (e.g. 0, 0.1, 0.2). */
  frustration: number;
  /** Number of undirected edges kept (largest |M_ij|); default: 25% of all pairs. */
  budget?: number;
  /** Restarts of the balance heuristic per check. */
  restarts?: number;
}

/**
 * Low-rank signed graph: M = U Uᵀ with U ~ N(0, 1)^{N×ρ}; keep the budget of pairs with the largest |M_ij| and
 * set J = sign(M). Then flip signs until the (heuristic) minimal unsatisfied fraction reaches γ: against the best
 * 2-colouring found, flip unsatisfied edges to satisfied while above γ, and satisfied edges to unsatisfied while
 * below it; re-run the heuristic after each pass, because a better colouring can appear after flips.
 */
export function lowRank(n: number, opts: LowRankOptions, rng: Rng): SignedGraph {
  const rho = Math.max(1, Math.floor(opts.rank));
  const U = new Float64Array(n * rho);
  for (let k = 0; k < U.length; k++) U[k] = rng.normal();
  const pairs: { i: number; j: number; m: number }[] = [];
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      let m = 0;
      for (let k = 0; k < rho; k++) m += U[i * rho + k] * U[j * rho + k];
      pairs.push({ i, j, m });
    }
  pairs.sort((a, b) => Math.abs(b.m) - Math.abs(a.m));
  const budget = Math.min(opts.budget ?? Math.round(0.25 * pairs.length), pairs.length);
  const edges = pairs.slice(0, budget).map((p) => [p.i, p.j, p.m >= 0 ? 1 : -1] as [number, number, number]);
  const m = edges.length;
  if (m === 0) return fromEdges(n, [], 'lowrank');
  const target = Math.round(opts.frustration * m);
  const restarts = opts.restarts ?? 8;
  let g = fromEdges(n, edges, 'lowrank');
  for (let pass = 0; pass < 50; pass++) {
    const best = minUnsatisfiedFraction(g, rng, { restarts });
    const count = Math.round(best.fraction * m);
    if (count === target) break;
    const cur = edgeList(g);
    const unsat: number[] = [];
    const sat: number[] = [];
    cur.forEach(([i, j, s], k) => (s * best.colouring[i] * best.colouring[j] < 0 ? unsat : sat).push(k));
    if (count > target) {
      rng.shuffle(unsat);
      for (let k = 0; k < count - target; k++) cur[unsat[k]][2] *= -1;
    } else {
      rng.shuffle(sat);
      for (let k = 0; k < target - count; k++) cur[sat[k]][2] *= -1;
    }
    g = fromEdges(n, cur, 'lowrank');
  }
  return g;
}
