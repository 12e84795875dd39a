/**
 * The Synchrony lab's stored shapes and analysis result. An episode's records (records.ts, where their schema is)
 * are its meta row, one row per utterance and, when judged, one judge row per agent; its tensors hold every layer's
 * prefill state per utterance.
 */
import type { LabelDecoding } from './label-decoding';

export type { EpisodeMetaRecord, JudgeRecord, Role, SynchronyRecord, TurnRecord } from './records';

/**
 * Tensor names: `statesA` / `statesB` F32 [utterances of that role, L+1, H] (row 0 = embeddings), in speaking
 * order; `passiveA` / `passiveB` the passive-reader re-encodings of the same prompts (same shape), when the control
 * is on.
 */
export const STATE_TENSORS = { A: 'statesA', B: 'statesB' } as const;
export const PASSIVE_TENSORS = { A: 'passiveA', B: 'passiveB' } as const;

/** One direction's ridge map summary. */
export interface DirectionResult {
  /** LA·LB split-mean test R², row-major by source layer (decoder layers 1..L; embeddings excluded). */
  grid: number[];
  LA: number;
  LB: number;
  /** Per source layer, the best target layer and its R². */
  best: number[];
  bestR2: number[];
  syncR2: number;
  se: number;
  /** The ridge α used (chosen by grouped cross-validation when the config says cv); absent in imported results. */
  alpha?: number;
  /** Samples (pairs) and groups used. */
  n: number;
  groups: number;
}

export interface ConditionResult {
  /** 'real', 'passive', 'lag3', 'lag5', 'rel0'..'rel5' */
  condition: string;
  label: string;
  ab: DirectionResult | null;
  ba: DirectionResult | null;
  /** ½(A→B + B→A) when both exist, else the one that does; null when too few samples. */
  syncR2: number | null;
  se: number | null;
  n: number;
  /** Why a direction is missing or untrustworthy (too few samples or groups). */
  warnings: string[];
}

export interface SynchronyAnalysis {
  /** The model pair the conditions describe ("a × b"); each pair has its own layer maps. */
  pair: string;
  /** 'cv': each direction chose its own α (DirectionResult.alpha); 'fixed': every map used `alpha`. */
  alphaMode?: 'cv' | 'fixed';
  /** The fixed α; with cv it is only the fallback for directions too small to cross-validate. */
  alpha: number;
  splitSeeds: number[];
  episodes: number;
  conditions: ConditionResult[];
  /** Judge performance per model pair, when judged. */
  performance: Array<{ pair: string; modelA: string; modelB: string; overall: number; episodes: number; syncR2: number | null }>;
  parse: { turns: number; failed: number };
  /** With the judge on: whether its JSON was free text read by the parser, or constrained by the judge-json grammar. */
  judgeDecoding?: 'free' | 'constrained';
  /** With emotion decoding: the probes of the partner's hidden feelings and actions (label-decoding.ts). */
  decoding?: LabelDecoding;
}
