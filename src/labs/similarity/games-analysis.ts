import { mixedLM, type MixedLmResult } from '../../core/mixedlm';
import type { Episode } from '../../core/runs/types';
import type { GameName, GameRecord } from './games';
import type { SimilarityPair } from './analysis';

/** One outcome row of the method's regression: the focal model's score against a partner in one game. */
export interface GameRow {
  /** A game, or a novelty outcome: `<task>.uniqueness` or `<task>.mi`. */
  game: string;
  focal: string;
  partner: string;
  repeat: number;
  score: number;
  /** The pair's CKA (chosen estimator): global, max-aligned, early third; null when the pair was not compared. */
  sim: number | null;
  simMaxAligned: number | null;
  simEarly: number | null;
}

export interface GamePairSummary {
  game: GameName;
  a: string;
  b: string;
  games: number;
  meanA: number;
  meanB: number;
  forfeits: number;
  moves: number;
}

export interface SimilarityRegression {
  game: string;
  /** y = score z-scored within each game (or outcome), sim = CKA global min-max scaled over the rows, crossed intercepts. */
  formula: string;
  rows: number;
  result: MixedLmResult | null;
  note?: string;
}

export interface GamesSummary {
  rows: GameRow[];
  pairs: GamePairSummary[];
  regressions: SimilarityRegression[];
  forfeitRate: number;
}

const gameRecords = (episodes: readonly Episode[]) =>
  episodes.flatMap((e) => e.records.filter((r) => r.kind === 'game') as unknown as GameRecord[]);

function simOf(pairs: readonly SimilarityPair[], a: string, b: string, kind: 'linear' | 'debiased') {
  const p = pairs.find((q) => (q.a === a && q.b === b) || (q.a === b && q.b === a));
  return p ? { sim: p[kind].global, simMaxAligned: p[kind].maxAligned, simEarly: p[kind].regions.early } : { sim: null, simMaxAligned: null, simEarly: null };
}

function zscore(xs: number[]): number[] {
  const m = xs.reduce((s, x) => s + x, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / Math.max(1, xs.length - 1));
  return xs.map((x) => (sd > 0 ? (x - m) / sd : 0));
}

function minMax(xs: number[]): number[] {
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return xs.map((x) => (hi > lo ? (x - lo) / (hi - lo) : 0));
}

/** The method's y ~ sim with crossed random intercepts for the focal and partner models, on the rows given. */
export function similarityRegression(rows: readonly GameRow[], game: string): SimilarityRegression {
  const formula = 'score_z ~ sim + (1 | focal) + (1 | partner)';
  const usable = rows.filter((r) => r.sim !== null);
  const models = new Set(usable.flatMap((r) => [r.focal, r.partner]));
  const base = { game, formula, rows: usable.length };
  if (models.size < 3) return { ...base, result: null, note: `needs at least 3 models with CKA (this run has ${models.size})` };
  const y: number[] = new Array(usable.length);
  for (const g of new Set(usable.map((r) => r.game))) {
    const idx = usable.map((r, i) => (r.game === g ? i : -1)).filter((i) => i >= 0);
    zscore(idx.map((i) => usable[i].score)).forEach((v, k) => (y[idx[k]] = v));
  }
  const sim = minMax(usable.map((r) => r.sim!));
  if (sim.every((s) => s === sim[0])) return { ...base, result: null, note: 'the similarity does not vary across these rows' };
  try {
    const result = mixedLM({
      y,
      fixed: [{ name: 'sim', values: sim }],
      factors: [
        { name: 'focal', labels: usable.map((r) => r.focal) },
        { name: 'partner', labels: usable.map((r) => r.partner) },
      ],
    });
    return { ...base, result };
  } catch (e) {
    return { ...base, result: null, note: `the fit failed: ${(e as Error).message}` };
  }
}

export function simOfPair(pairs: readonly SimilarityPair[], a: string, b: string, kind: 'linear' | 'debiased') {
  return simOf(pairs, a, b, kind);
}

export function summarizeGames(episodes: readonly Episode[], pairs: readonly SimilarityPair[], kind: 'linear' | 'debiased'): GamesSummary | null {
  const games = gameRecords(episodes);
  if (!games.length) return null;
  const rows: GameRow[] = [];
  for (const g of games) {
    rows.push({ game: g.game, focal: g.a, partner: g.b, repeat: g.repeat, score: g.scores[0], ...simOf(pairs, g.a, g.b, kind) });
    // word guessing scores the pair once (the thinker as focal); the other games score each player
    if (g.game !== 'wordGuessing') rows.push({ game: g.game, focal: g.b, partner: g.a, repeat: g.repeat, score: g.scores[1], ...simOf(pairs, g.a, g.b, kind) });
  }
  const byPair = new Map<string, GamePairSummary>();
  for (const g of games) {
    const key = `${g.game}|${g.a}|${g.b}`;
    const s = byPair.get(key) ?? { game: g.game, a: g.a, b: g.b, games: 0, meanA: 0, meanB: 0, forfeits: 0, moves: 0 };
    s.meanA = (s.meanA * s.games + g.scores[0]) / (s.games + 1);
    s.meanB = (s.meanB * s.games + g.scores[1]) / (s.games + 1);
    s.games++;
    s.forfeits += g.forfeits;
    s.moves += g.moves;
    byPair.set(key, s);
  }
  const names = [...new Set(rows.map((r) => r.game))];
  const regressions = [similarityRegression(rows, 'all'), ...(names.length > 1 ? names.map((g) => similarityRegression(rows.filter((r) => r.game === g), g)) : [])];
  const moves = games.reduce((s, g) => s + g.moves, 0);
  return { rows, pairs: [...byPair.values()], regressions, forfeitRate: moves ? games.reduce((s, g) => s + g.forfeits, 0) / moves : 0 };
}
