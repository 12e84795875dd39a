import { toCsv } from '../../core/csv';
import type { SimilarityAnalysis } from './analysis';
import type { GamesSummary, SimilarityRegression } from './games-analysis';

export interface PooledRow {
  a: string;
  b: string;
  La: number;
  Lb: number;
  global: number;
  maxAligned: number;
  early: number;
  mid: number;
  late: number;
  pGlobal?: number;
}

/** One row per compared pair: the pooled values of the chosen HSIC estimator. */
export function pooledRows(analysis: SimilarityAnalysis, kind: 'linear' | 'debiased'): PooledRow[] {
  return analysis.pairs.map((p) => {
    const g = p[kind];
    return { a: p.a, b: p.b, La: p.La, Lb: p.Lb, global: g.global, maxAligned: g.maxAligned, ...g.regions, ...(g.p ? { pGlobal: g.p.global } : {}) };
  });
}

export function pooledCsv(analysis: SimilarityAnalysis, kind: 'linear' | 'debiased'): string {
  const head = ['model_a', 'model_b', 'layers_a', 'layers_b', 'hsic', 'global', 'max_aligned', 'early', 'middle', 'late', 'p_global', 'probes', 'probe_set'];
  return toCsv(
    head,
    pooledRows(analysis, kind).map((r) => [
      r.a,
      r.b,
      r.La,
      r.Lb,
      kind,
      r.global,
      r.maxAligned,
      r.early,
      r.mid,
      r.late,
      r.pGlobal,
      analysis.m,
      analysis.probeSet,
    ]),
  );
}

export function gameRowsCsv(games: { rows: GamesSummary['rows'] }): string {
  const head = ['game', 'focal', 'partner', 'repeat', 'score', 'sim_global', 'sim_max_aligned', 'sim_early'];
  return toCsv(
    head,
    games.rows.map((r) => [r.game, r.focal, r.partner, r.repeat, r.score, r.sim, r.simMaxAligned, r.simEarly]),
  );
}

export interface RegressionRow {
  game: SimilarityRegression['game'];
  rows: number;
  coef: number | null;
  se: number | null;
  p: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  note?: string;
}

/** The sim coefficient of each regression, or why there is none. */
export function regressionRows(regressions: readonly SimilarityRegression[]): RegressionRow[] {
  return regressions.map((r) => {
    const i = r.result ? r.result.names.indexOf('sim') : -1;
    if (!r.result || i < 0) return { game: r.game, rows: r.rows, coef: null, se: null, p: null, ciLow: null, ciHigh: null, note: r.note ?? 'no fit' };
    const f = r.result;
    return { game: r.game, rows: r.rows, coef: f.coef[i], se: f.se[i], p: f.p[i], ciLow: f.ciLow[i], ciHigh: f.ciHigh[i] };
  });
}
