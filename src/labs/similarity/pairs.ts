/**
 * The records and per-pair CKA results of the Similarity lab: types that the analysis, the games and the novelty
 * summaries all read, kept in a module of their own so that those files do not import each other.
 */
export type { ProbeRecord } from './records';
/** A pair's CKA maps: inferred from the result schema (results.ts), which the stored result parses with. */
export type { PairGrid, SimilarityPair } from './results';
