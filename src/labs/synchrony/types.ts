/**
 * The Synchrony lab's stored shapes and analysis result. An episode's records (records.ts, where their schema is)
 * are its meta row, one row per utterance and, when judged, one judge row per agent; its tensors hold every layer's
 * prefill state per utterance. The analysis result's schema is in results.ts.
 */
export type { EpisodeMetaRecord, JudgeRecord, Role, SynchronyRecord, TurnRecord } from './records';

/**
 * Tensor names: `statesA` / `statesB` F32 [utterances of that role, L+1, H] (row 0 = embeddings), in speaking
 * order; `passiveA` / `passiveB` the passive-reader re-encodings of the same prompts (same shape), when the control
 * is on.
 */
export const STATE_TENSORS = { A: 'statesA', B: 'statesB' } as const;
export const PASSIVE_TENSORS = { A: 'passiveA', B: 'passiveB' } as const;

/** The analysis result and its parts: inferred from the result schemas (results.ts), which the stored result parses with. */
export type { ConditionResult, DirectionResult, SynchronyAnalysis } from './results';
