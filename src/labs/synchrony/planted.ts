/**
 * The planted truth of the dialogue organism (models/organism-dialogue/planted.json, written by its build from
 * organisms/dialogue/law.ts): what the Synchrony view shows beside what it measures. Null for any other model.
 */
import plantedJson from '../../../models/organism-dialogue/planted.json';
import { findModel } from '../../../models/registry';
import { JUDGE_DIMENSIONS } from '../../core/prompts/synchrony';
import { pearson } from '../../core/stats';
import type { Episode } from '../../core/runs/types';
import type { Role, SynchronyAnalysis } from './types';
import { synchronyRecordsOf } from './records';

export type DealOutcome = 'won' | 'conceded' | 'none';

export interface PlantedDialogue {
  model: string;
  acceptFromTurn: number;
  acceptProbability: number;
  /** The judge rule's overall score (mean of the 7) per outcome. */
  overall: Record<DealOutcome, number>;
  /** The hidden line's law in words (builds before the emotion law have none). */
  emotions: string | null;
}

/** The planted behaviour when every model of the run's pairs is the dialogue organism. */
export function plantedDialogue(models: readonly string[]): PlantedDialogue | null {
  if (!models.length || plantedJson.version !== 1 || !models.every((m) => findModel(m)?.organism === 'dialogue')) return null;
  const s = plantedJson.synchrony;
  const scores = plantedJson.judge.scores;
  const overall = (o: DealOutcome) => JUDGE_DIMENSIONS.reduce((sum, d) => sum + Number(scores[o][d][0]), 0) / JUDGE_DIMENSIONS.length;
  return {
    model: models[0],
    acceptFromTurn: s.accept.fromTurn,
    acceptProbability: s.accept.probabilityPerTurn,
    overall: { won: overall('won'), conceded: overall('conceded'), none: overall('none') },
    emotions: 'emotions' in plantedJson ? emotionLaw(plantedJson.emotions) : null,
  };
}

/** The emotion law in words, every label read from planted.json. */
function emotionLaw(e: { proposerFeeling: Record<string, string>; responder: { afterGoal: string; deal: string } }): string {
  const f = e.proposerFeeling;
  return `the first speaker feels ${f.goal} when it states its goal, ${f.fact} when it states a fact, ${f.publicInfo} when it tells about itself and ${f.decisionStyle} when it says how it decides. Its partner answers a stated goal ${e.responder.afterGoal}, and otherwise feels as the first speaker did; it is ${e.responder.deal} when it says “Deal”. So the first speaker's state, before it speaks, should predict its partner's next feeling (A→B or B→A, whoever spoke first): look at “the partner's reply”.`;
}

/** A deal is a turn that opens with "Deal"; whoever said it conceded, the other agent won. */
export const isDeal = (text: string): boolean => /^deal\b/i.test(text.trim());

export function dealOutcome<S>(turns: readonly { speaker: S; text: string }[], target: S): DealOutcome {
  const deal = turns.find((t) => isDeal(t.text));
  if (!deal) return 'none';
  return deal.speaker === target ? 'conceded' : 'won';
}

export interface SyncContrast {
  condition: string;
  label: string;
  syncR2: number;
  se: number;
  /** Real minus this condition, and that difference in standard errors (√(se_real² + se²), a conservative SE). */
  diff: number;
  z: number;
}

/** Real against the passive reader and every lag: the comparisons the planted behaviour predicts. */
export function syncContrasts(analysis: SynchronyAnalysis): { real: { syncR2: number; se: number } | null; contrasts: SyncContrast[] } {
  const real = analysis.conditions.find((c) => c.condition === 'real');
  if (!real || real.syncR2 === null || real.se === null) return { real: null, contrasts: [] };
  const contrasts: SyncContrast[] = [];
  for (const c of analysis.conditions) {
    if (!(c.condition === 'passive' || /^lag\d+$/.test(c.condition)) || c.syncR2 === null || c.se === null) continue;
    const diff = real.syncR2 - c.syncR2;
    const se = Math.hypot(real.se, c.se);
    contrasts.push({ condition: c.condition, label: c.label, syncR2: c.syncR2, se: c.se, diff, z: se > 0 ? diff / se : diff > 0 ? Infinity : 0 });
  }
  return { real: { syncR2: real.syncR2, se: real.se }, contrasts };
}

export interface JudgeAgreement {
  /** Judged agents (parsed judge replies) and the Pearson r of their overall score with the planted rule's. */
  n: number;
  r: number | null;
  /** Standard deviation of the judge's overall scores across the run's agents. */
  sd: number | null;
  /** Judged agents whose overall equals the rule's exactly. */
  exact: number;
}

/** The judge's overall scores against the planted rule, read from the stored episodes' records (those that fit). */
export function judgeAgreement(p: PlantedDialogue, episodes: readonly Episode[]): JudgeAgreement {
  const got: number[] = [];
  const truth: number[] = [];
  for (const e of episodes) {
    const recs = synchronyRecordsOf(e);
    const turns = recs.filter((r) => r.kind === 'turn').map((t) => ({ speaker: t.speaker, text: t.parsed ? t.text : '' }));
    for (const j of recs.filter((r) => r.kind === 'judge')) {
      if (!j.ok || typeof j.overall !== 'number') continue;
      got.push(j.overall);
      truth.push(p.overall[dealOutcome<Role>(turns, j.target)]);
    }
  }
  const n = got.length;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = (xs: number[]) => Math.sqrt(xs.reduce((a, b) => a + (b - mean(xs)) ** 2, 0) / Math.max(1, xs.length - 1));
  const r = n >= 3 && sd(got) > 0 && sd(truth) > 0 ? pearson(got, truth).r : null;
  return { n, r, sd: n >= 2 ? sd(got) : null, exact: got.filter((g, i) => Math.abs(g - truth[i]) < 1e-9).length };
}
