/**
 * The records and per-pair CKA results of the Similarity lab: types that the analysis, the games and the novelty
 * summaries all read, kept in a module of their own so that those files do not import each other.
 */
import type { Pooled } from '../../core/cka';

export type { ProbeRecord } from './records';

export interface PairGrid extends Pooled {
  /** L_a × L_b, row = decoder layer of model a (layer 1 first). */
  grid: number[];
  p?: { grid: number[] } & Pooled;
}

export interface SimilarityPair {
  a: string;
  b: string;
  La: number;
  Lb: number;
  linear: PairGrid;
  debiased: PairGrid;
}
