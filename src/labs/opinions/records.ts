/**
 * The Opinions lab's stored records, declared once (docs/opinions-lab.md, "Records"). A simulation replica holds one
 * step row per step, without a `kind` (runner.ts); a community round holds one `round` row and one `agent` row per
 * agent (community-runner.ts); a screening holds one `screen` row per candidate question (screening-runner.ts). community-data.ts, the summaries, the fits and the views read them. Pure.
 */
import { z } from 'zod';
import { episodeReader } from '../../core/runs/records';
import type { Episode } from '../../core/runs/types';

const count = z.number().int().min(0);
const spin = z.union([z.literal(1), z.literal(-1)]);
const questionKind = z.enum(['subjective', 'objective']);

/** One step t of a simulated replica: the net opinion n(t) and |n(t)|. Written before rows had kinds, so it has none. */
export const stepRow = z.object({
  kind: z.undefined().optional(),
  t: count,
  n: z.number(),
  absN: z.number(),
});

/** One agent in one round of a community run. */
export const agentRow = z.object({
  kind: z.literal('agent'),
  question: z.string(),
  questionKind,
  graph: count,
  graphId: z.string(),
  trajectory: count,
  t: count,
  agent: count,
  persona: z.string(),
  /** False for an async agent that sat this round out (it keeps ō and s). */
  updated: z.boolean(),
  /** The K answers as parsed, or null when unparseable. */
  votes: z.array(z.enum(['A', 'B', 'Agree', 'Disagree']).nullable()),
  /** The K replies as the model wrote them. */
  rawVotes: z.array(z.string()),
  voteFailures: count,
  /** Mean of the parsed votes' spins; the previous value when none parsed (0 in round 0). */
  obar: z.number(),
  /** sign(ō); a tie keeps the previous spin (+1 in round 0). */
  spin,
  /** The delivered message (t ≥ 1, when it parsed), its stance, and every attempt as written. */
  message: z.string().nullable(),
  messageStance: z.string().nullable(),
  rawMessages: z.array(z.string()),
  messageFailures: count,
  /** Senders whose messages this agent read this round, by edge sign. */
  friendlyFrom: z.array(count),
  unfriendlyFrom: z.array(count),
  /** Stored texts of this row whose markup-like characters were replaced (see `storable` in community-runner.ts). */
  escaped: count,
});

/** One row per community round with the group numbers. */
export const roundRow = z.object({
  kind: z.literal('round'),
  question: z.string(),
  questionKind,
  questionText: z.string(),
  /** Objective questions: +1 if A is correct, −1 if B. */
  correct: spin.nullable(),
  graph: count,
  graphId: z.string(),
  trajectory: count,
  t: count,
  n: z.number(),
  c: z.number(),
  /** Objective: share of agents whose spin is the correct answer. */
  fractionCorrect: z.number().nullable(),
  agents: count,
  updated: count,
  votes: count,
  voteFailures: count,
  /** Agents that sent a message this round (t ≥ 1), failed attempts, and senders with no parseable attempt. */
  messages: count,
  messageFailures: count,
  undelivered: count,
  /** Generate calls this round and their wall time. */
  calls: count,
  seconds: z.number(),
  /** The round's signed graph in the compact "i+j,i-j" code of the link's custom graphs. */
  edges: z.string(),
});

/** One candidate question of a screening (mode 'screening'): every sampled agent's votes, and their spread. */
export const screenRow = z.object({
  kind: z.literal('screen'),
  question: z.string(),
  questionKind,
  questionText: z.string(),
  /** Each sampled agent: its persona and its votes as parsed (null when unparseable) and as written. */
  agents: z.array(
    z.object({
      persona: z.string(),
      votes: z.array(z.enum(['A', 'B', 'Agree', 'Disagree']).nullable()),
      rawVotes: z.array(z.string()),
    }),
  ),
  /** Share of +1 (Agree, A) among the parsed votes; null when none parsed. */
  share: z.number().nullable(),
  /** Pooled vote entropy in bits, and its parts within and between agents (src/core/vote-spread.ts). */
  entropy: z.number(),
  within: z.number(),
  between: z.number(),
  parsed: count,
  failed: count,
  calls: count,
  seconds: z.number(),
});

export const opinionsRecord = z.discriminatedUnion('kind', [stepRow, agentRow, roundRow, screenRow]);

export type StepRow = z.infer<typeof stepRow>;
export type AgentRow = z.infer<typeof agentRow>;
export type RoundRow = z.infer<typeof roundRow>;
export type ScreenRow = z.infer<typeof screenRow>;
export type OpinionsRecord = z.infer<typeof opinionsRecord>;

const reader = episodeReader(opinionsRecord);

/** A stored episode with every record parsed (a bundle's, for the fits); a row that does not fit throws a RecordError. */
export const readOpinionsEpisode = (episode: Episode): Episode<OpinionsRecord> => reader.read(episode);

/** A stored episode with the records that fit, for the live view (a row of an older, different shape is left out). */
export const opinionsEpisodeForView = (episode: Episode): Episode<OpinionsRecord> => ({ ...episode, records: reader.fitting(episode) });
/** The stored rows a view of this lab leaves out (they do not fit its record schema), for UnfitRowsNote. */
export const opinionsUnfit = (episodes: readonly Episode[]) => reader.unfit(episodes);
