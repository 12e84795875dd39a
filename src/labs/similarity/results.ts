/**
 * The Similarity lab's results, declared once: the one result its summarize returns, `similarity` (analysis.ts,
 * analyzeSimilarity), with the games' and the novelty tasks' summaries and regressions inside it (games-analysis.ts,
 * novelty-analysis.ts, regression.ts). Those files and the views take their types from these schemas; the two shapes
 * that core defines (CKA's pooled values, the mixed model's fit) are checked to be the same types. CKA of constant
 * states, a mean over no parsed text (NaN on purpose) and a fit's statistics can be undefined: they are `real`, any
 * number, NaN and ±Infinity included. Pure.
 */
import { z } from 'zod';
import type { Pooled } from '../../core/cka';
import type { MixedLmResult } from '../../core/mixedlm';
import { count, real, type Assert, type ResultsDefinition, type Same, type SummaryOf } from '../../core/runs/results';
import { GAME_NAMES, NOVELTY_TASK_NAMES, probeRecord } from './records';

/** Global, max-aligned and early/middle/late pooled CKA (core/cka.ts, Pooled). */
const pooled = z.object({
  global: real,
  maxAligned: real,
  regions: z.object({ early: real, mid: real, late: real }),
});

/** One estimator's map for a pair, with its permutation p-values when the config asked for permutations. */
export const pairGrid = pooled.extend({
  /** L_a × L_b, row = decoder layer of model a (layer 1 first). */
  grid: z.array(real),
  p: pooled.extend({ grid: z.array(real) }).optional(),
});

export const similarityPair = z.object({
  a: z.string(),
  b: z.string(),
  La: count,
  Lb: count,
  linear: pairGrid,
  debiased: pairGrid,
});

/** One outcome row of the method's regression: the focal model's outcome against a partner. */
export const outcomeRow = z.object({
  /** A game, or a novelty outcome: `<task>.uniqueness` or `<task>.mi`. */
  game: z.string(),
  focal: z.string(),
  partner: z.string(),
  repeat: count,
  score: z.number(),
  /** The partner's outcome in the same game or episode (word guessing: the shared score). */
  partnerScore: z.number().nullable(),
  /** The pair's CKA (chosen estimator): global, max-aligned, early third; null when the pair was not compared. */
  sim: real.nullable(),
  simMaxAligned: real.nullable(),
  simEarly: real.nullable(),
});

/** The mixed model's fit (core/mixedlm.ts, MixedLmResult). */
const mixedLmResult = z.object({
  names: z.array(z.string()),
  coef: z.array(real),
  se: z.array(real),
  z: z.array(real),
  p: z.array(real),
  ciLow: z.array(real),
  ciHigh: z.array(real),
  /** Variance of each random intercept (σ²γ_f), and the residual variance σ². */
  vcomp: z.array(z.object({ name: z.string(), variance: real, levels: count })),
  scale: real,
  /** REML log-likelihood, as statsmodels reports it. */
  llf: real,
  n: count,
  converged: z.boolean(),
  /** Random-intercept factors whose variance sits at ~0 (a singular fit). */
  singular: z.array(z.string()).optional(),
});

export const similarityRegression = z.object({
  game: z.string(),
  /** y = outcome z-scored within each game, sim (and scalar covariates) min-max scaled over the rows, crossed intercepts. */
  formula: z.string(),
  rows: count,
  result: mixedLmResult.nullable(),
  note: z.string().optional(),
});

export const gamePairSummary = z.object({
  game: z.enum(GAME_NAMES),
  a: z.string(),
  b: z.string(),
  games: count,
  meanA: z.number(),
  meanB: z.number(),
  forfeits: count,
  moves: count,
  /** Moves the judge model read after every parse failed. */
  judged: count,
});

export const gamesSummary = z.object({
  rows: z.array(outcomeRow),
  pairs: z.array(gamePairSummary),
  regressions: z.array(similarityRegression),
  forfeitRate: z.number(),
});

const sides = z.tuple([real, real]);

export const noveltyPairSummary = z.object({
  task: z.enum(NOVELTY_TASK_NAMES),
  a: z.string(),
  b: z.string(),
  episodes: count,
  /** Mean number of classes among each side's joint texts, and among its solo texts (of the rounds that parsed; NaN when none did). */
  uniqueJoint: sides,
  uniqueSolo: sides,
  /** Mean MI (bits per token) of each side's joint texts with its solo texts (NaN when none was measured). */
  mi: sides,
  /** Texts (brainstorms, joint and solo finals) with no parseable try. */
  failed: count,
  written: count,
});

export const noveltySummary = z.object({
  equivalence: z.string(),
  pairs: z.array(noveltyPairSummary),
  /** `<task>.uniqueness` and `<task>.mi` rows: the focal side's measure against its partner, with the pair's CKA. */
  rows: z.array(outcomeRow),
  regressions: z.array(similarityRegression),
});

export const similarityAnalysis = z.object({
  m: count,
  probeSet: z.string(),
  permutations: count,
  /** Each encoded model as its probes record names it. */
  models: z.array(probeRecord.omit({ kind: true, probeSet: true, m: true })),
  /** Every unordered pair, each model with itself first (its self-similarity map, max-aligned = 1). */
  pairs: z.array(similarityPair),
  /** The games' scores joined with each pair's CKA (the config's estimator), and the regression; null without games. */
  games: gamesSummary.nullable(),
  /** Uniqueness and mutual information of the joint texts, per pair, with the regressions; null without novelty tasks. */
  novelty: noveltySummary.nullable(),
  warnings: z.array(z.string()),
  /** Where the Gram products ran: float64 on the CPU, or float32 on the GPU (absent in results made before). */
  ckaEngine: z.enum(['cpu', 'gpu']).optional(),
  /** How the game moves were generated: free text read by the parsers, or constrained by their grammars. */
  decoding: z.enum(['free', 'constrained']).optional(),
});

export type PairGrid = z.output<typeof pairGrid>;
export type SimilarityPair = z.output<typeof similarityPair>;
export type OutcomeRow = z.output<typeof outcomeRow>;
export type SimilarityRegression = z.output<typeof similarityRegression>;
export type GamePairSummary = z.output<typeof gamePairSummary>;
export type GamesSummary = z.output<typeof gamesSummary>;
export type NoveltyPairSummary = z.output<typeof noveltyPairSummary>;
export type NoveltySummary = z.output<typeof noveltySummary>;
export type SimilarityAnalysis = z.output<typeof similarityAnalysis>;

/** The shapes core defines, checked to be the types these schemas infer (a change to either side does not compile). */
export type CoreShapesAgree = [Assert<Same<z.output<typeof pooled>, Pooled>>, Assert<Same<z.output<typeof mixedLmResult>, MixedLmResult>>];

/** Version 1: the similarity analysis as analyzeSimilarity returns it. */
export const similarityResults = {
  version: 1,
  schemas: { similarity: similarityAnalysis },
} satisfies ResultsDefinition;

/** One result as the runner's summarize returns it. */
export type SimilaritySummary = SummaryOf<typeof similarityResults.schemas>;
