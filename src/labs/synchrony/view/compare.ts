/**
 * What the comparison, judge and export views show, derived from the worker's SynchronyAnalysis (types.ts).
 * Pure: unit-tested, and the same numbers go to the plots and the CSV.
 */
import { toCsv, type CsvCell } from '../../../core/csv';
import type { ConditionResult, SynchronyAnalysis } from '../types';

export interface ErrorPoint {
  id: string;
  label: string;
  /** null when the condition has too few samples. */
  y: number | null;
  se: number | null;
  n: number;
  warnings: string[];
}

const point = (c: ConditionResult, label = c.label): ErrorPoint => ({ id: c.condition, label, y: c.syncR2, se: c.se, n: c.n, warnings: c.warnings });

/** The paper's comparison: real beside its controls, in this order, for the conditions the analysis has. */
export const COMPARED = ['real', 'passive', 'lag3', 'lag5'] as const;

export function conditionPoints(a: SynchronyAnalysis, ids: readonly string[] = COMPARED): ErrorPoint[] {
  return ids.flatMap((id) => {
    const c = a.conditions.find((x) => x.condition === id);
    return c ? [point(c)] : [];
  });
}

/** SyncR² against the lag k: the real condition is k = 1, and `lag<k>` the others. Sorted by k. */
export function lagPoints(a: SynchronyAnalysis): Array<ErrorPoint & { k: number }> {
  const out: Array<ErrorPoint & { k: number }> = [];
  for (const c of a.conditions) {
    const k = c.condition === 'real' ? 1 : /^lag(\d+)$/.exec(c.condition) ? Number(c.condition.slice(3)) : NaN;
    if (Number.isFinite(k)) out.push({ ...point(c, `k = ${k}`), k });
  }
  return out.sort((x, y) => x.k - y.k);
}

/** Short names of the relationship levels 0..5, for axis labels (RELATIONSHIP_LABELS has the long ones). */
export const RELATIONSHIP_SHORT = ['stranger', 'knows name', 'acquaintance', 'friend', 'romantic', 'family'];

/** SyncR² per relationship level (rel0 … rel5), labelled with the level's short name. */
export function relationshipPoints(a: SynchronyAnalysis): Array<ErrorPoint & { level: number }> {
  const out: Array<ErrorPoint & { level: number }> = [];
  for (const c of a.conditions) {
    const m = /^rel(\d)$/.exec(c.condition);
    if (!m) continue;
    const level = Number(m[1]);
    out.push({ ...point(c, `${level} ${RELATIONSHIP_SHORT[level] ?? ''}`.trim()), level });
  }
  return out.sort((x, y) => x.level - y.level);
}

/** One row per (pair, condition): both directions and their mean, with n, groups, the α used and warnings. */
export function resultsCsv(analyses: SynchronyAnalysis[]): string {
  // alpha: the config's fixed α; ab_alpha / ba_alpha: the α each direction used (chosen by cross-validation in cv mode).
  const head = [
    'pair',
    'condition',
    'label',
    'syncR2',
    'se',
    'n',
    'ab_syncR2',
    'ab_se',
    'ab_n',
    'ab_groups',
    'ab_alpha',
    'ba_syncR2',
    'ba_se',
    'ba_n',
    'ba_groups',
    'ba_alpha',
    'alpha',
    'split_seeds',
    'episodes',
    'warnings',
  ];
  const rows = analyses.flatMap((a) =>
    a.conditions.map((c): CsvCell[] => [
      a.pair ?? '',
      c.condition,
      c.label,
      c.syncR2,
      c.se,
      c.n,
      c.ab?.syncR2,
      c.ab?.se,
      c.ab?.n,
      c.ab?.groups,
      c.ab?.alpha,
      c.ba?.syncR2,
      c.ba?.se,
      c.ba?.n,
      c.ba?.groups,
      c.ba?.alpha,
      a.alpha,
      a.splitSeeds.join(' '),
      a.episodes,
      c.warnings.join('; '),
    ]),
  );
  return toCsv(head, rows);
}

export interface PerformancePoint {
  pair: string;
  modelA: string;
  modelB: string;
  overall: number;
  syncR2: number;
  episodes: number;
}

/** Model pairs with both a judged performance and a SyncR², de-duplicated by pair. */
export function performancePoints(analyses: SynchronyAnalysis[]): PerformancePoint[] {
  const byPair = new Map<string, PerformancePoint>();
  for (const a of analyses) {
    for (const p of a.performance ?? []) {
      if (p.syncR2 === null || !Number.isFinite(p.syncR2) || !Number.isFinite(p.overall)) continue;
      if (!byPair.has(p.pair))
        byPair.set(p.pair, { pair: p.pair, modelA: p.modelA, modelB: p.modelB, overall: p.overall, syncR2: p.syncR2, episodes: p.episodes });
    }
  }
  return [...byPair.values()];
}

/** The models that appear in the pairs, in first-seen order (for the ability inputs). */
export function modelsOf(points: PerformancePoint[]): string[] {
  return [...new Set(points.flatMap((p) => [p.modelA, p.modelB]))];
}

/**
 * The ability covariate per pair: the mean of its two models' scores. Null when a model has no finite score,
 * because a partial correlation with a made-up value would mislead.
 */
export function pairAbility(points: PerformancePoint[], ability: Record<string, number | null | undefined>): number[] | null {
  const out: number[] = [];
  for (const p of points) {
    const a = ability[p.modelA];
    const b = ability[p.modelB];
    if (typeof a !== 'number' || typeof b !== 'number' || !Number.isFinite(a) || !Number.isFinite(b)) return null;
    out.push((a + b) / 2);
  }
  return out;
}
