import type { LabName } from '../config/lab-definition';
import type { SafeTensor } from '../safetensors';
import type { ModelSamplingRecord } from './sampling-record';

export type RunStatus = 'queued' | 'running' | 'paused' | 'done' | 'failed' | 'cancelled';

/** What is known about a run before and while it goes; stored in the run list and in every export. */
export interface RunMeta {
  id: string;
  lab: LabName;
  schemaVersion: number;
  /** The settings as stored: untyped until its lab's schema parses them (storedConfig, OpenLab.parse). */
  config: unknown;
  seed: number;
  /** The backend and dtype of each model used (q4 states differ across backends at the 1e-2 level). */
  backend: string | null;
  dtype: string | null;
  status: RunStatus;
  /** Episodes stored so far; a resumed run starts at this index. */
  episodesDone: number;
  episodesTotal: number;
  createdAt: string;
  updatedAt: string;
  error?: string;
  /** Which run this one was imported from, if any. */
  importedFrom?: string;
  /**
   * The version of the lab's record shapes (its module's `records.version`) the episodes were written with; bundles
   * carry it so that a later lab can migrate or refuse them. Absent in runs stored before it was kept: read as current.
   */
  recordsVersion?: number;
  /**
   * The sampling each model asked for itself (its generation_config.json), used by every call that set none of its
   * own (src/core/runs/sampling-record.ts): a link replays at the model's current file, so this says what an older run
   * got. Absent in runs stored before it was kept, and for labs without models.
   */
  sampling?: ModelSamplingRecord[];
}

/** One stored row of an episode, as storage and bundles hold it; each lab's records.ts says which rows it writes. */
export type StoredRecord = Record<string, unknown>;

/**
 * One finished episode: JSON rows (transcript turns, votes, …) and its tensors, written together or not at all.
 * `R` is the lab's record type where the lab's code holds it (its runner's output, or rows parsed with its schema);
 * storage, workers and bundles hold untyped rows.
 */
export interface Episode<R extends StoredRecord = StoredRecord> {
  index: number;
  records: R[];
  tensors: Record<string, SafeTensor>;
}

export interface RunResult {
  name: string;
  /** Untyped as stored: a reader parses it with its lab's result schema (readResult in results.ts), never casts it. */
  value: unknown;
  updatedAt: string;
  /**
   * The version of the lab's result shapes (its module's `results.version`) it was computed with. A stored result of
   * another version (or of none: stored before versions were kept) is computed again from the run's records, never
   * shown as it is: results are derived, so they are migrated by recomputing them.
   */
  version?: number;
}

/** Whether a run's stored results were all computed with the lab's current result shapes (and there are some). */
export function resultsAreCurrent(results: readonly Pick<RunResult, 'version'>[], version: number): boolean {
  return results.length > 0 && results.every((r) => r.version === version);
}

export function newRunId(now = Date.now(), entropy = Math.random): string {
  // Ids only need to be unique on one machine; they never seed anything.
  return `run-${now.toString(36)}-${Math.floor(entropy() * 36 ** 6)
    .toString(36)
    .padStart(6, '0')}`;
}
