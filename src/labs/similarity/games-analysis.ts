import type { Episode } from '../../core/runs/types';
import type { GameRecord, SimilarityRecord } from './records';
import type { SimilarityPair } from './pairs';
import { similarityRegression, type OutcomeRow, type RegressionOptions, type SimilarityRegression } from './regression';
import type { GamePairSummary, GamesSummary } from './results';

export { similarityRegression, type SimilarityRegression };

export type GameRow = OutcomeRow;

/** A pair's game scores and the games' summary: inferred from the result schemas (results.ts). */
export type { GamePairSummary, GamesSummary };

const gameRecords = (episodes: readonly Episode<SimilarityRecord>[]): GameRecord[] => episodes.flatMap((e) => e.records.filter((r) => r.kind === 'game'));

function simOf(pairs: readonly SimilarityPair[], a: string, b: string, kind: 'linear' | 'debiased') {
  const p = pairs.find((q) => (q.a === a && q.b === b) || (q.a === b && q.b === a));
  return p ? { sim: p[kind].global, simMaxAligned: p[kind].maxAligned, simEarly: p[kind].regions.early } : { sim: null, simMaxAligned: null, simEarly: null };
}

export function simOfPair(pairs: readonly SimilarityPair[], a: string, b: string, kind: 'linear' | 'debiased') {
  return simOf(pairs, a, b, kind);
}

export function summarizeGames(
  episodes: readonly Episode<SimilarityRecord>[],
  pairs: readonly SimilarityPair[],
  kind: 'linear' | 'debiased',
  options?: RegressionOptions,
): GamesSummary | null {
  const games = gameRecords(episodes);
  if (!games.length) return null;
  const rows: GameRow[] = [];
  for (const g of games) {
    rows.push({ game: g.game, focal: g.a, partner: g.b, repeat: g.repeat, score: g.scores[0], partnerScore: g.scores[1], ...simOf(pairs, g.a, g.b, kind) });
    // word guessing scores the pair once (the thinker as focal); the other games score each player
    if (g.game !== 'wordGuessing')
      rows.push({ game: g.game, focal: g.b, partner: g.a, repeat: g.repeat, score: g.scores[1], partnerScore: g.scores[0], ...simOf(pairs, g.a, g.b, kind) });
  }
  const byPair = new Map<string, GamePairSummary>();
  for (const g of games) {
    const key = `${g.game}|${g.a}|${g.b}`;
    const s = byPair.get(key) ?? { game: g.game, a: g.a, b: g.b, games: 0, meanA: 0, meanB: 0, forfeits: 0, moves: 0, judged: 0 };
    s.meanA = (s.meanA * s.games + g.scores[0]) / (s.games + 1);
    s.meanB = (s.meanB * s.games + g.scores[1]) / (s.games + 1);
    s.games++;
    s.forfeits += g.forfeits;
    s.moves += g.moves;
    s.judged += g.judged;
    byPair.set(key, s);
  }
  return { rows, pairs: [...byPair.values()], regressions: gameRegressions(rows, options), forfeitRate: forfeitRate(games) };
}

/** All games together, then each game when there are several. */
export function gameRegressions(rows: readonly GameRow[], options?: RegressionOptions): SimilarityRegression[] {
  const names = [...new Set(rows.map((r) => r.game))];
  return [
    similarityRegression(rows, 'all', options),
    ...(names.length > 1
      ? names.map((g) =>
          similarityRegression(
            rows.filter((r) => r.game === g),
            g,
            options,
          ),
        )
      : []),
  ];
}

function forfeitRate(games: readonly GameRecord[]): number {
  const moves = games.reduce((s, g) => s + g.moves, 0);
  return moves ? games.reduce((s, g) => s + g.forfeits, 0) / moves : 0;
}
