/**
 * The Synchrony lab's stored records, declared once: an episode holds its meta row, one row per utterance and, when
 * judged, one judge row per agent (runner.ts writes them; analysis.ts, planted.ts and the views read them). Pure.
 */
import { z } from 'zod';
import { episodeReader } from '../../core/runs/records';
import { ACTIONS, EMOTIONS, JUDGE_DIMENSIONS } from '../../core/prompts/synchrony';
import type { Episode } from '../../core/runs/types';

/** 'A' and 'B' are the two model slots of a config pair (pairs[i].a, pairs[i].b), not the speaking order. */
const role = z.enum(['A', 'B']);
const count = z.number().int().min(0);

export const episodeMetaRecord = z.object({
  kind: z.literal('meta'),
  scenarioId: z.string(),
  scenarioTitle: z.string(),
  /** Index into the scenario's persona pairings. */
  pairing: count,
  /** Sampling seed of this episode (one of config.episodeSeeds). */
  seed: z.number(),
  /** Who spoke first. */
  first: role,
  relationship: z.number(),
  modelA: z.string(),
  modelB: z.string(),
  /** Index into config.pairs. */
  pairIndex: count,
  /** Episode group for grouped splits: every seed of one scenario × pairing × model pair shares it. */
  group: z.number().int(),
  names: z.object({ A: z.string(), B: z.string() }),
  /**
   * The turn whose prompt no longer fitted a model's context: the dialogue ended before it (a small model's long
   * conversation), and the episode keeps the turns before it. Absent when the dialogue ended as usual.
   */
  contextFullAt: count.optional(),
});

export const turnRecord = z.object({
  kind: z.literal('turn'),
  /** 0-based position in the dialogue. */
  turn: count,
  speaker: role,
  text: z.string(),
  /** The model's raw reply, when the kept line differs. */
  raw: z.string().optional(),
  /** False when the reply could not be parsed; the turn is then kept with text "" and counted. */
  parsed: z.boolean(),
  parseError: z.string().optional(),
  leaves: z.boolean(),
  /**
   * With emotion decoding on: the feeling and action the speaker wrote on its hidden line (never shown to the
   * partner); absent when the line was missing or named a label outside the lists.
   */
  emotion: z.enum(EMOTIONS).optional(),
  action: z.enum(ACTIONS).optional(),
  promptTokens: count,
  newTokens: count,
  ms: z.number(),
});

const judgeScore = z.object({ score: z.number(), reason: z.string() });

export const judgeRecord = z.object({
  kind: z.literal('judge'),
  target: role,
  ok: z.boolean(),
  attempts: count,
  /** Why the judge's replies did not parse (ok: false). */
  error: z.string().optional(),
  /** Every SOTOPIA dimension's score and reason (ok: true). */
  scores: z.record(z.enum(JUDGE_DIMENSIONS), judgeScore).optional(),
  overall: z.number().optional(),
  /**
   * Turns of the conversation the judge did not see: the whole did not fit its model's context, so it read the first
   * turns and as many of the last as fitted. Absent when it read the whole.
   */
  turnsLeftOut: count.optional(),
});

export const synchronyRecord = z.discriminatedUnion('kind', [episodeMetaRecord, turnRecord, judgeRecord]);

export type Role = z.infer<typeof role>;
export type EpisodeMetaRecord = z.infer<typeof episodeMetaRecord>;
export type TurnRecord = z.infer<typeof turnRecord>;
export type JudgeRecord = z.infer<typeof judgeRecord>;
export type SynchronyRecord = z.infer<typeof synchronyRecord>;

const reader = episodeReader(synchronyRecord);

/** A stored episode with every record parsed (the worker's analysis); a row that does not fit throws a RecordError. */
export const readSynchronyEpisode = (episode: Episode): Episode<SynchronyRecord> => reader.read(episode);

/** A stored episode's records that fit, for the views (a row of an older, different shape is left out). */
export const synchronyRecordsOf = (episode: Episode): SynchronyRecord[] => reader.fitting(episode);
/** The stored rows a view of this lab leaves out (they do not fit its record schema), for UnfitRowsNote. */
export const synchronyUnfit = (episodes: readonly Episode[]) => reader.unfit(episodes);
