/**
 * Question screening (mode 'screening'; docs/opinions-lab.md, "Question screening"): the method kept the questions on
 * which agents disagree most, the highest-entropy items after sampling every agent 8 times. One episode per candidate
 * question: `screening.agents` personas (the same ones for every question) each vote `screening.samples` times, with
 * the community's model, temperature and vote prompt (round 0: persona and question only). The summary ranks the
 * candidates by pooled vote entropy and keeps the top `screening.keep`; the view turns that choice into a community
 * run whose config (and link) carries the ranked table.
 */
import { requireModels, sampleReplies } from '../../core/runs/models';
import { throwIfAborted } from '../../core/cancel';
import type { EpisodeContext, RunPlan } from '../../core/runs/runner';
import type { Episode } from '../../core/runs/types';
import type { LivePlot } from '../../core/runs/live-plot';
import { buildInitialVotePrompt, parseVote, voteSpin } from '../../core/prompts/opinions';
import { rankByEntropy, voteSpread } from '../../core/vote-spread';
import { drawPersonas, personaPool, promptPersona, promptQuestion, questionPool } from './community-data';
import { storable, voteRequest } from './community-runner';
import type { OpinionsConfig } from './graph';
import type { OpinionsRecord, ScreenRow } from './records';
import type { OpinionsSummary, ScreeningResult } from './results';
import type { QuestionItem } from './community/sets';

/** The candidates: the community's question list, or else every question of its kind in the pool. */
export function screeningCandidates(config: OpinionsConfig): QuestionItem[] {
  const pool = questionPool(config);
  const ids = config.community.questions;
  if (ids.length) return ids.map((id) => pool.find((q) => q.id === id)).filter((q): q is QuestionItem => !!q);
  return pool.filter((q) => q.kind === config.community.questionKind);
}

/** The sampled agents' persona ids: a seeded shuffle of the pool, the same for every question (repeating past it). */
export function screeningPersonas(config: OpinionsConfig): string[] {
  return drawPersonas(config, config.screening.agents, `${config.seed}/screening/personas`);
}

export function planScreening(config: OpinionsConfig): RunPlan<OpinionsConfig> {
  const models = [config.community.model];
  const missing = config.community.questions.filter((id) => !questionPool(config).some((q) => q.id === id));
  if (missing.length) return { episodes: 0, bytesPerEpisode: 0, models, unavailable: `There is no question "${missing[0]}" to screen.` };
  const n = screeningCandidates(config).length;
  if (!n) return { episodes: 0, bytesPerEpisode: 0, models, unavailable: 'There is no question of this kind to screen.' };
  const s = config.screening;
  return { episodes: n, bytesPerEpisode: 600 + s.agents * (60 + 30 * s.samples), models };
}

export async function runScreeningEpisode(config: OpinionsConfig, ctx: EpisodeContext<OpinionsRecord>): Promise<Episode<OpinionsRecord>> {
  const started = performance.now();
  const item = screeningCandidates(config)[ctx.index];
  if (!item) throw new Error(`Episode ${ctx.index} is outside this screening's ${screeningCandidates(config).length} questions.`);
  const c = config.community;
  const s = config.screening;
  const { question } = promptQuestion(item, config.seed);
  const model = requireModels('opinions', ctx.models).get(c.model);
  const personas = new Map(personaPool(config).map((p) => [p.id, p]));
  const request = voteRequest(c, question.kind);
  const agents: ScreenRow['agents'] = [];
  const ids = screeningPersonas(config);
  for (const [i, id] of ids.entries()) {
    throwIfAborted(ctx.signal);
    const persona = personas.get(id);
    if (!persona) throw new Error(`The persona "${id}" does not exist.`);
    const seeds = Array.from({ length: s.samples }, (_, k) => `${config.seed}/screening/${item.id}/a${i}/v${k}`);
    const messages = buildInitialVotePrompt(promptPersona(item, persona, c.objectivePersona), question);
    const replies = await sampleReplies(model, { ...request, messages }, seeds);
    throwIfAborted(ctx.signal);
    const votes = replies.map((r) => {
      const p = parseVote(r.text, question.kind);
      return p.ok ? p.value : null;
    });
    agents.push({ persona: id, votes, rawVotes: replies.map((r) => storable(r.text).text) });
    ctx.progress((i + 1) / ids.length, `${item.id}: agent ${i + 1} of ${ids.length}`);
  }
  const spread = voteSpread(
    agents.map((a) => ({
      plus: a.votes.filter((v) => v && voteSpin(v) > 0).length,
      minus: a.votes.filter((v) => v && voteSpin(v) < 0).length,
    })),
  );
  const row: ScreenRow = {
    kind: 'screen',
    question: item.id,
    questionKind: item.kind,
    questionText: item.text,
    agents,
    share: spread.parsed ? spread.share : null,
    entropy: spread.entropy,
    within: spread.within,
    between: spread.between,
    parsed: spread.parsed,
    failed: ids.length * s.samples - spread.parsed,
    calls: ids.length * s.samples,
    seconds: (performance.now() - started) / 1000,
  };
  return { index: ctx.index, records: [row], tensors: {} };
}

export const screenRows = (episodes: readonly Episode<OpinionsRecord>[]): ScreenRow[] =>
  episodes.flatMap((e) => e.records.filter((r): r is ScreenRow => r.kind === 'screen'));

/** The ranked table: every screened question, highest vote entropy first, and the ids kept (its schema: results.ts). */
export type { ScreeningResult };

export function screeningResult(config: OpinionsConfig, episodes: readonly Episode<OpinionsRecord>[]): ScreeningResult {
  const ranked = rankByEntropy(screenRows(episodes).map((r) => ({ ...r, id: r.question }))).map(
    ({ question, questionKind, questionText, share, entropy, within, between, parsed, failed }) => ({
      question,
      questionKind,
      questionText,
      share,
      entropy,
      within,
      between,
      parsed,
      failed,
    }),
  );
  return { ranked, keep: config.screening.keep, kept: ranked.slice(0, config.screening.keep).map((r) => r.question) };
}

export function summarizeScreening(config: OpinionsConfig, episodes: readonly Episode<OpinionsRecord>[]): OpinionsSummary[] {
  return [{ name: 'screening', value: screeningResult(config, episodes) }];
}

/** The community config that runs the kept questions, carrying the ranked table that chose them. */
export function communityFromScreening(config: OpinionsConfig, result: ScreeningResult): OpinionsConfig {
  return {
    ...config,
    mode: 'community',
    community: {
      ...config.community,
      questions: result.kept,
      screened: result.ranked.slice(0, 64).map((r) => ({ id: r.question, entropy: r.entropy })),
    },
  };
}

export function screeningLivePlot(episodes: readonly Episode<OpinionsRecord>[]): LivePlot | null {
  const rows = screenRows(episodes);
  if (!rows.length) return null;
  return {
    title: 'Vote entropy of each screened question (bits)',
    xLabel: 'question, in the order screened',
    yLabel: 'entropy',
    yDomain: [0, 1],
    series: [{ name: 'entropy', values: rows.map((r) => r.entropy) }],
  };
}
