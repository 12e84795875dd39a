/** Metrics of polarization.md on opinions x ∈ {−2, …, +2} over directed links. */
import type { DirectedGraph } from '../graphs/directed';

export const LEVELS = [-2, -1, 0, 1, 2] as const;

/** P = (1/N) Σ |x_i|. */
export function polarization(x: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += Math.abs(x[i]);
  return x.length ? s / x.length : 0;
}

/**
 * H = (links whose ends share a non-zero sign) / (all links). Neutral ends never count as homophilic but stay in
 * the denominator: with the seed's initial shares that gives 0.36·0.5 ≈ 0.18, matching its H(0) = 0.189.
 * Continuous opinions are read by the sign of round(x).
 */
export function homophily(g: DirectedGraph, x: ArrayLike<number>): number {
  let links = 0;
  let same = 0;
  for (let i = 0; i < g.n; i++)
    for (const j of g.out[i]) {
      links++;
      const a = Math.sign(Math.round(x[i]));
      if (a !== 0 && a === Math.sign(Math.round(x[j]))) same++;
    }
  return links ? same / links : 0;
}

/** Counts per level −2..+2 (continuous opinions are rounded and clamped). */
export function opinionDistribution(x: ArrayLike<number>): number[] {
  const c = [0, 0, 0, 0, 0];
  for (let i = 0; i < x.length; i++) c[Math.max(-2, Math.min(2, Math.round(x[i]))) + 2]++;
  return c;
}

/**
 * Link-level homophily: counts[a][b] = links from an agent at level a−2 to one at level b−2, and for each level the
 * share of its out-links that reach the same sign (neutral: the same level).
 */
export function linkHomophily(g: DirectedGraph, x: ArrayLike<number>): { counts: number[][]; sameSideShare: number[] } {
  const counts = LEVELS.map(() => [0, 0, 0, 0, 0]);
  const lv = (v: number) => Math.max(-2, Math.min(2, Math.round(v))) + 2;
  for (let i = 0; i < g.n; i++) for (const j of g.out[i]) counts[lv(x[i])][lv(x[j])]++;
  const sameSideShare = counts.map((row, a) => {
    const tot = row.reduce((p, q) => p + q, 0);
    if (!tot) return NaN;
    const s = Math.sign(a - 2);
    const same = s === 0 ? row[2] : row.reduce((p, q, b) => p + (Math.sign(b - 2) === s ? q : 0), 0);
    return same / tot;
  });
  return { counts, sameSideShare };
}

export type Side = 'same' | 'opposing' | 'neutral';
export type Radicality = 'moreModerate' | 'same' | 'moreRadical';

export interface EchoCell {
  count: number;
  /** Mean of |x_post| − |x_prior|. */
  meanChange: number;
}

export interface EchoTable {
  windows: number;
  cells: Record<Side, Record<Radicality, EchoCell>>;
  /** Mean change after same-side, more-radical interactions. */
  echoChamber: number;
  /** Mean change after opposing interactions (any radicality). */
  backfire: number;
  records: { window: number; agent: number; prior: number; post: number; partners: number; side: Side; radicality: Radicality; change: number }[];
}

/**
 * Echo chamber / backfire over non-overlapping windows of `window` epochs. history[e] = opinions at the start of
 * epoch e (length E+1); interactions[e] = [agent, partner] pairs during epoch e. For each non-neutral agent with at
 * least one interaction in [t0, t0+window): partners = mean opinion of its partners at the epochs they interacted;
 * side = same if sign(partners) = sign(x_prior), opposing if opposite, neutral if partners = 0;
 * radicality by d = |partners| − |x_prior|: more radical if d > tol, more moderate if d < −tol, else same
 * (tol 0.5 = half a level, because a mean of partners is rarely an exact level); change = |x_post| − |x_prior|.
 */
export function echoChamberTable(
  history: ReadonlyArray<ArrayLike<number>>,
  interactions: ReadonlyArray<ReadonlyArray<readonly [number, number]>>,
  o: { window?: number; tol?: number } = {},
): EchoTable {
  const W = o.window ?? 5;
  const tol = o.tol ?? 0.5;
  const mk = (): Record<Radicality, EchoCell> => ({
    moreModerate: { count: 0, meanChange: 0 },
    same: { count: 0, meanChange: 0 },
    moreRadical: { count: 0, meanChange: 0 },
  });
  const cells: Record<Side, Record<Radicality, EchoCell>> = { same: mk(), opposing: mk(), neutral: mk() };
  const records: EchoTable['records'] = [];
  const E = history.length - 1;
  let windows = 0;
  for (let t0 = 0; t0 + W <= E; t0 += W, windows++) {
    const n = history[t0].length;
    const sum = new Float64Array(n);
    const cnt = new Int32Array(n);
    for (let e = t0; e < t0 + W && e < interactions.length; e++)
      for (const [i, j] of interactions[e]) {
        sum[i] += history[e][j];
        cnt[i]++;
      }
    for (let i = 0; i < n; i++) {
      const prior = history[t0][i];
      if (prior === 0 || cnt[i] === 0) continue;
      const partners = sum[i] / cnt[i];
      const post = history[t0 + W][i];
      const side: Side = partners === 0 ? 'neutral' : Math.sign(partners) === Math.sign(prior) ? 'same' : 'opposing';
      const d = Math.abs(partners) - Math.abs(prior);
      const radicality: Radicality = d > tol ? 'moreRadical' : d < -tol ? 'moreModerate' : 'same';
      const change = Math.abs(post) - Math.abs(prior);
      records.push({ window: windows, agent: i, prior, post, partners, side, radicality, change });
      const c = cells[side][radicality];
      c.meanChange = (c.meanChange * c.count + change) / (c.count + 1);
      c.count++;
    }
  }
  const opp = Object.values(cells.opposing);
  const oppN = opp.reduce((a, c) => a + c.count, 0);
  return {
    windows,
    cells,
    echoChamber: cells.same.moreRadical.count ? cells.same.moreRadical.meanChange : NaN,
    backfire: oppN ? opp.reduce((a, c) => a + c.meanChange * c.count, 0) / oppN : NaN,
    records,
  };
}
