/**
 * The planted truth of the Similarity population (models/organism-sim-<variant>/planted.json, written by its build from
 * organisms/similarity/law.ts), and what a run measured against it: the same numbers, within and across lexicons,
 * and the regression slopes of outcome on CKA against the planted signs. Null when the run's models are not (at
 * least three of) the population.
 */
import a1 from '../../../models/organism-sim-a1/planted.json';
import a2 from '../../../models/organism-sim-a2/planted.json';
import b1 from '../../../models/organism-sim-b1/planted.json';
import b2 from '../../../models/organism-sim-b2/planted.json';
import { findModel } from '../../../models/registry';
import type { SimilarityAnalysis } from './analysis';
import type { OutcomeRow, SimilarityRegression } from './regression';

const PLANTED = [a1, a2, b1, b2];

export type PlantedOutcome = keyof typeof a1.expected.slopes;

export interface PlantedSimilarity {
  models: string[];
  lexicon: Record<string, string>;
  match: { sameLexicon: number; otherLexicon: number };
  jointStories: { sameLexicon: number; otherLexicon: number; rounds: number };
  slopes: Record<PlantedOutcome, number>;
  temperature: number;
}

export function plantedSimilarity(models: readonly string[]): PlantedSimilarity | null {
  const distinct = [...new Set(models)];
  const entries = distinct.map((m) => PLANTED.find((p) => p.model === m && p.version === 1));
  if (distinct.length < 3 || entries.some((e) => !e) || !distinct.every((m) => findModel(m)?.organism === 'similarity')) return null;
  const p = entries[0]!;
  return {
    models: distinct,
    lexicon: Object.fromEntries(entries.map((e) => [e!.model, e!.lexicon])),
    match: p.wordGuessing.match,
    jointStories: { ...p.story.jointStories, rounds: p.story.rounds },
    slopes: p.expected.slopes,
    temperature: p.temperature,
  };
}

export interface WithinAcross {
  same: number;
  other: number;
}

export interface SlopeFinding {
  outcome: PlantedOutcome;
  planted: number;
  slope: number | null;
  se: number | null;
  p: number | null;
  /** The sign is the planted one and p < 0.05. */
  recovered: boolean;
}

export interface PlantedComparison {
  /** Mean CKA (global) of pairs of different models, within and across lexicons. */
  cka: WithinAcross;
  /** Mean words matched per game (of the letters played), and mean joint-story uniqueness (classes of the rounds). */
  wordMatches: WithinAcross | null;
  storyUniqueness: WithinAcross | null;
  slopes: SlopeFinding[];
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);

function finding(regressions: readonly SimilarityRegression[], outcome: PlantedOutcome, planted: number): SlopeFinding {
  const fit = regressions.find((r) => r.game === outcome)?.result;
  const k = fit ? fit.names.indexOf('sim') : -1;
  if (!fit || k < 0) return { outcome, planted, slope: null, se: null, p: null, recovered: false };
  const [slope, p] = [fit.coef[k], fit.p[k]];
  return { outcome, planted, slope, se: fit.se[k], p, recovered: Math.sign(slope) === Math.sign(planted) && p < 0.05 };
}

export function comparePlanted(planted: PlantedSimilarity, analysis: SimilarityAnalysis, kind: 'linear' | 'debiased' = 'linear'): PlantedComparison {
  const same = (a: string, b: string) => planted.lexicon[a] !== undefined && planted.lexicon[a] === planted.lexicon[b];
  const split = (rows: readonly Pick<OutcomeRow, 'focal' | 'partner' | 'score'>[]): WithinAcross | null =>
    rows.length
      ? {
          same: mean(rows.filter((r) => same(r.focal, r.partner)).map((r) => r.score)),
          other: mean(rows.filter((r) => !same(r.focal, r.partner)).map((r) => r.score)),
        }
      : null;
  const pairs = analysis.pairs.filter((p) => p.a !== p.b);
  return {
    cka: {
      same: mean(pairs.filter((p) => same(p.a, p.b)).map((p) => p[kind].global)),
      other: mean(pairs.filter((p) => !same(p.a, p.b)).map((p) => p[kind].global)),
    },
    wordMatches: split(analysis.games?.rows.filter((r) => r.game === 'wordGuessing') ?? []),
    storyUniqueness: split(analysis.novelty?.rows.filter((r) => r.game === 'story.uniqueness') ?? []),
    slopes: [
      // With word guessing the only game, the lab fits it once, as "all" games.
      finding(
        (analysis.games?.regressions ?? []).map((r) =>
          r.game === 'all' && analysis.games!.rows.every((x) => x.game === 'wordGuessing') ? { ...r, game: 'wordGuessing' } : r,
        ),
        'wordGuessing',
        planted.slopes.wordGuessing,
      ),
      finding(analysis.novelty?.regressions ?? [], 'story.uniqueness', planted.slopes['story.uniqueness']),
    ],
  };
}
