import type { Episode } from '../../core/runs/types';
import type { SimilarityPair } from './pairs';
import { simOfPair, type GameRow } from './games-analysis';
import { similarityRegression, type RegressionOptions, type SimilarityRegression } from './regression';
import { uniqueness, uniquenessByCosine } from './novelty';
import type { NoveltyRecord, SimilarityRecord } from './records';
import { PARAPHRASE_SET } from './paraphrase-set';
import type { NoveltyPairSummary, NoveltySummary } from './results';

/** A pair's novelty measures and the novelty summary: inferred from the result schemas (results.ts). */
export type { NoveltyPairSummary, NoveltySummary };

const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);

export function summarizeNovelty(
  episodes: readonly Episode<SimilarityRecord>[],
  pairs: readonly SimilarityPair[],
  kind: 'linear' | 'debiased',
  options?: RegressionOptions,
): NoveltySummary | null {
  const records = episodes.flatMap((e) => e.records.filter((r) => r.kind === 'novelty'));
  if (!records.length) return null;
  const rows: GameRow[] = [];
  // Which rule decided each side's classes: a run stored before the embedding rule (or with unigram) has no cosines.
  const embedded: NonNullable<NoveltyRecord['embedding']>['sides'] = [];
  let unigram = 0;
  const byPair = new Map<string, { s: NoveltyPairSummary; uj: number[][]; us: number[][]; mi: number[][] }>();
  for (const rec of records) {
    const key = `${rec.task}|${rec.a}|${rec.b}`;
    const acc = byPair.get(key) ?? {
      s: { task: rec.task, a: rec.a, b: rec.b, episodes: 0, uniqueJoint: [NaN, NaN], uniqueSolo: [NaN, NaN], mi: [NaN, NaN], failed: 0, written: 0 },
      uj: [[], []],
      us: [[], []],
      mi: [[], []],
    };
    acc.s.episodes++;
    for (const r of rec.rounds)
      for (const w of [...r.brainstorm, ...r.joint, ...r.solo]) {
        acc.s.written++;
        if (w.text === null) acc.s.failed++;
      }
    const sim = simOfPair(pairs, rec.a, rec.b, kind);
    const measures = ([0, 1] as const).map((side) => {
      const texts = (which: 'joint' | 'solo') => rec.rounds.map((r) => r[which][side].text).filter((t): t is string => t !== null);
      const emb = rec.embedding?.sides[side];
      const classes = (which: 'joint' | 'solo') =>
        emb ? uniquenessByCosine(texts(which).length, emb[which], emb.threshold).classes : uniqueness(texts(which)).classes;
      if (emb) embedded.push(emb);
      else unigram++;
      return {
        uj: classes('joint'),
        us: classes('solo'),
        mi: mean(rec.mi.filter((m) => m.side === side).map((m) => m.mi)),
      };
    });
    for (const side of [0, 1] as const) {
      const { uj, us, mi } = measures[side];
      const other = measures[1 - side];
      acc.uj[side].push(uj);
      acc.us[side].push(us);
      if (Number.isFinite(mi)) acc.mi[side].push(mi);
      const [focal, partner] = side ? [rec.b, rec.a] : [rec.a, rec.b];
      rows.push({ game: `${rec.task}.uniqueness`, focal, partner, repeat: rec.repeat, score: uj, partnerScore: other.uj, ...sim });
      if (Number.isFinite(mi))
        rows.push({ game: `${rec.task}.mi`, focal, partner, repeat: rec.repeat, score: mi, partnerScore: Number.isFinite(other.mi) ? other.mi : null, ...sim });
    }
    byPair.set(key, acc);
  }
  const summaries = [...byPair.values()].map(({ s, uj, us, mi }) => ({
    ...s,
    uniqueJoint: [mean(uj[0]), mean(uj[1])] as [number, number],
    uniqueSolo: [mean(us[0]), mean(us[1])] as [number, number],
    mi: [mean(mi[0]), mean(mi[1])] as [number, number],
  }));
  return {
    equivalence: equivalenceNote(embedded, unigram),
    pairs: summaries,
    rows,
    regressions: noveltyRegressions(rows, options),
  };
}

const UNIGRAM = 'unigram overlap: two texts are equal when 2 × shared distinct words ≥ the larger distinct-word count';

/** In plain words, the rule that decided the classes, with each model's calibration when it was the embedding one. */
function equivalenceNote(embedded: NonNullable<NoveltyRecord['embedding']>['sides'], unigram: number): string {
  if (!embedded.length) return UNIGRAM;
  const byModel = new Map(embedded.map((e) => [e.model, e]));
  const cal = [...byModel.values()].map(
    (e) => `${e.model}, layer ${e.layer}: cosine ≥ ${e.threshold.toFixed(3)}, ${(100 * e.balancedAccuracy).toFixed(0)} % balanced accuracy on them`,
  );
  const rule = `embeddings: two texts are equal when the cosine of their states reaches the threshold calibrated on ${PARAPHRASE_SET.length} labelled pairs (${cal.join('; ')})`;
  return unigram ? `${rule}; ${unigram} sides of older episodes by ${UNIGRAM}` : rule;
}

/** One regression per novelty outcome (`<task>.uniqueness`, `<task>.mi`). */
export function noveltyRegressions(rows: readonly GameRow[], options?: RegressionOptions): SimilarityRegression[] {
  return [...new Set(rows.map((r) => r.game))].map((o) =>
    similarityRegression(
      rows.filter((r) => r.game === o),
      o,
      options,
    ),
  );
}
