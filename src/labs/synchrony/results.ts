/**
 * The Synchrony lab's results, declared once: the one result its summarize returns, `synchrony` (analysis.ts,
 * analyzeSynchrony), with the emotion and action decoding (label-decoding.ts) inside it. The types of the analysis are
 * inferred from these schemas (types.ts and label-decoding.ts re-export them), so the analysis, the views and the
 * stored result cannot drift apart. Statistics that a degenerate map can leave undefined (a ridge map of constant or
 * overflowed states, a probe without samples) are `real`: any number, NaN and ±Infinity included. Pure.
 */
import { z } from 'zod';
import { count, real, type ResultsDefinition, type SummaryOf } from '../../core/runs/results';

/** The partner's label a probe predicts: the hidden feeling or the hidden action (LABEL_KINDS in label-decoding.ts). */
export const labelKind = z.enum(['emotion', 'action']);
/** Which of the partner's turns, counted from the speaker's turn t (LABEL_TIMES in label-decoding.ts). */
export const labelTime = z.enum(['previous', 'current', 'next']);

/** One probe's curve over layers, for one direction, label kind and time. */
export const decodingCurve = z.object({
  direction: z.enum(['A→B', 'B→A']),
  kind: labelKind,
  time: labelTime,
  n: count,
  groups: count,
  /** Per decoder layer (1..L): the split-mean test KL of the probe and its SE over split seeds (population SD). */
  probe: z.array(real),
  probeSe: z.array(real),
  /** The label-frequency baseline's split-mean test KL and its SE (the same for every layer). */
  baseline: real,
  baselineSe: real,
  /** The layer (1-based) whose probe has the lowest KL; its gain over the baseline and the gain's SE over splits. */
  bestLayer: count,
  gain: real,
  gainSe: real,
});

export const labelDecoding = z.object({
  /** The probes' ridge α (the config's) and the probability floor of their predictions (PROBE_FLOOR). */
  alpha: z.number(),
  floor: z.number(),
  /** Turns, and turns whose hidden line gave each label. */
  turns: count,
  labelled: z.object({ emotion: count, action: count }),
  curves: z.array(decodingCurve),
  warnings: z.array(z.string()),
});

/** One direction's ridge map summary. */
export const directionResult = z.object({
  /** LA·LB split-mean test R², row-major by source layer (decoder layers 1..L; embeddings excluded). */
  grid: z.array(real),
  LA: count,
  LB: count,
  /** Per source layer, the best target layer and its R². */
  best: z.array(count),
  bestR2: z.array(real),
  syncR2: real,
  se: real,
  /** The ridge α used (chosen by grouped cross-validation when the config says cv); absent in imported results. */
  alpha: z.number().optional(),
  /** Samples (pairs) and groups used. */
  n: count,
  groups: count,
});

export const conditionResult = z.object({
  /** 'real', 'passive', 'lag3', 'lag5', 'rel0'..'rel5' */
  condition: z.string(),
  label: z.string(),
  ab: directionResult.nullable(),
  ba: directionResult.nullable(),
  /** ½(A→B + B→A) when both exist, else the one that does; null when too few samples. */
  syncR2: real.nullable(),
  se: real.nullable(),
  n: count,
  /** Why a direction is missing or untrustworthy (too few samples or groups). */
  warnings: z.array(z.string()),
});

const decodingMode = z.enum(['free', 'constrained']);

export const synchronyAnalysis = z.object({
  /** The model pair the conditions describe ("a × b"); each pair has its own layer maps. */
  pair: z.string(),
  /** 'cv': each direction chose its own α (DirectionResult.alpha); 'fixed': every map used `alpha`. */
  alphaMode: z.enum(['cv', 'fixed']).optional(),
  /** The fixed α; with cv it is only the fallback for directions too small to cross-validate. */
  alpha: z.number(),
  splitSeeds: z.array(z.number()),
  episodes: count,
  conditions: z.array(conditionResult),
  /** Judge performance per model pair, when judged: the mean overall score, and the pair's real SyncR². */
  performance: z.array(z.object({ pair: z.string(), modelA: z.string(), modelB: z.string(), overall: z.number(), episodes: count, syncR2: real.nullable() })),
  parse: z.object({ turns: count, failed: count }),
  /** With the judge on: whether its JSON was free text read by the parser, or constrained by the judge-json grammar. */
  judgeDecoding: decodingMode.optional(),
  /** With emotion decoding: the probes of the partner's hidden feelings and actions (label-decoding.ts). */
  decoding: labelDecoding.optional(),
  /** Where the ridge grids' products ran (absent in results made before the GPU path), and why not on the GPU. */
  engine: z.enum(['cpu', 'gpu']).optional(),
  engineNote: z.string().optional(),
});

export type DecodingCurve = z.output<typeof decodingCurve>;
export type LabelDecoding = z.output<typeof labelDecoding>;
export type LabelKind = z.output<typeof labelKind>;
export type LabelTime = z.output<typeof labelTime>;
export type DirectionResult = z.output<typeof directionResult>;
export type ConditionResult = z.output<typeof conditionResult>;
export type SynchronyAnalysis = z.output<typeof synchronyAnalysis>;

/** Version 1: the synchrony analysis as analyzeSynchrony returns it. */
export const synchronyResults = {
  version: 1,
  schemas: { synchrony: synchronyAnalysis },
} satisfies ResultsDefinition;

/** One result as the runner's summarize returns it. */
export type SynchronySummary = SummaryOf<typeof synchronyResults.schemas>;
