/**
 * The Similarity lab's stored records, declared once: a probe episode holds one `probes` row (its states are a
 * tensor), a game episode its `game` row and one `round` row per round, a novelty episode one `novelty` row
 * (runner.ts, games.ts and novelty.ts write them; analysis.ts, games-analysis.ts and novelty-analysis.ts read them).
 * Pure.
 */
import { z } from 'zod';
import type { NoveltyTask } from '../../core/prompts/similarity';

const count = z.number().int().min(0);
const pairOf = <T extends z.ZodType>(t: T) => z.tuple([t, t]);

export const GAME_NAMES = ['wordGuessing', 'publicGoods', 'splitDollar', 'beautyContest'] as const;
const gameName = z.enum(GAME_NAMES);
export type GameName = z.infer<typeof gameName>;
/** Each one a NoveltyTask of the prompts (checked at compile time). */
export const NOVELTY_TASK_NAMES = ['story', 'biography', 'haiku', 'vacation'] as const satisfies readonly NoveltyTask[];
const noveltyTask = z.enum(NOVELTY_TASK_NAMES);

export const probeRecord = z.object({
  kind: z.literal('probes'),
  model: z.string(),
  backend: z.string(),
  dtype: z.string(),
  /** Probes encoded (rows of the probe_states tensor). */
  m: count,
  numLayers: count,
  hiddenSize: count,
  probeSet: z.string(),
  seconds: z.number(),
  /** The model's tokenizer identity (src/runtime/tokenizer-id.ts), for the "same tokenizer" covariate; absent in
   *  records written before it was kept (that covariate is then unknown for the model's pairs). */
  tokenizer: z.string().max(80).optional(),
});

/** One model's move in a round: what it wrote on each try, what was parsed, and whether it forfeited. */
const move = z.object({
  model: z.string(),
  raw: z.array(z.string()),
  value: z.union([z.string(), z.number(), z.null()]),
  /** No try parsed (nor the judge's reading): the move counts as 0 (contribution, demand, number) or loses the word round. */
  forfeit: z.boolean(),
  reason: z.string().optional(),
  /** Who read the value: the lab's parser, or the judge model from the last try (the method's fallback). */
  extractedBy: z.enum(['parser', 'judge']).optional(),
  judgeRaw: z.string().optional(),
});

export const roundRecord = z.object({
  kind: z.literal('round'),
  game: gameName,
  round: count,
  /** Word guessing: [thinker's word, thinker's hint, guesser's guess]; the other games: [a's move, b's move]. */
  moves: z.array(move),
  /** Round scores of a and b (word guessing: 1 for a match, for both). */
  scores: pairOf(z.number()),
  /** Per game: the letter and the match, the wealths, the target. */
  detail: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])).optional(),
});

export const gameRecord = z.object({
  kind: z.literal('game'),
  game: gameName,
  a: z.string(),
  b: z.string(),
  repeat: count,
  rounds: count,
  /** Final scores: public goods the final wealth, the others the sum over rounds (word guessing: matches). */
  scores: pairOf(z.number()),
  forfeits: count,
  moves: count,
  /** Moves whose value the judge model read, after the parser failed on every try (0 in runs from before the judge). */
  judged: count.default(0),
});

/** One written piece: every try's raw text and the parsed text, or null when no try parsed. */
const written = z.object({ raw: z.array(z.string()), text: z.string().nullable() });

const noveltyRound = z.object({
  /** Brainstorms of a and b, their joint final texts, and each one's solo final (from its own brainstorm only). */
  brainstorm: pairOf(written),
  joint: pairOf(written),
  solo: pairOf(written),
});

/** Mutual information of a joint text with a solo text of the same model: H(y) − H(y | s), bits per token. */
const mutualInformation = z.object({
  side: z.union([z.literal(0), z.literal(1)]),
  round: count,
  /** The solo round whose text was the context. */
  soloRound: count,
  tokens: count,
  hY: z.number(),
  hYgivenS: z.number(),
  mi: z.number(),
});

export const noveltyRecord = z.object({
  kind: z.literal('novelty'),
  task: noveltyTask,
  a: z.string(),
  b: z.string(),
  repeat: count,
  rounds: z.array(noveltyRound),
  mi: z.array(mutualInformation),
  /**
   * The embedding equivalence (config uniqueness.rule 'embedding'): per side, the cosines of its joint texts and of
   * its solo texts (the rounds whose text parsed, in order; upper triangle, row-major) at a layer of its own model,
   * and the threshold calibrated for that model on the labelled pairs (paraphrase-set.ts). Absent: unigram overlap.
   */
  embedding: z
    .object({
      /** The layer as a share of the depth (config uniqueness.layer); each side's index is in its row. */
      share: z.number(),
      sides: z.array(
        z.object({
          model: z.string(),
          layer: count,
          threshold: z.number(),
          balancedAccuracy: z.number(),
          joint: z.array(z.number()),
          solo: z.array(z.number()),
        }),
      ),
    })
    .optional(),
});

export const similarityRecord = z.discriminatedUnion('kind', [probeRecord, gameRecord, roundRecord, noveltyRecord]);

export type ProbeRecord = z.infer<typeof probeRecord>;
export type Move = z.infer<typeof move>;
export type RoundRecord = z.infer<typeof roundRecord>;
export type GameRecord = z.infer<typeof gameRecord>;
export type Written = z.infer<typeof written>;
export type NoveltyRound = z.infer<typeof noveltyRound>;
export type MutualInformation = z.infer<typeof mutualInformation>;
export type NoveltyRecord = z.infer<typeof noveltyRecord>;
export type SimilarityRecord = z.infer<typeof similarityRecord>;
