/**
 * Synchrony, similarity and statistics entries of the compute worker (spread into computeApi).
 *
 * Long grids (syncR2, cka, alpha CV) are async: they yield to the worker's event loop after every layer, so that
 * a `cancel(jobId)` message sent through comlink is received and honoured at the next layer boundary. Progress
 * goes to an optional callback, which may be a `Comlink.proxy` (its returned promise is ignored). Every result is
 * made of plain objects, numbers and typed arrays, so it is structured-cloneable.
 *
 * Here syncR2 runs its split grids one after another in the worker's own thread; workers/compute.worker.ts replaces
 * it with the same computation on its grid pool (src/core/grid-tasks.ts), which gives bitwise the same numbers.
 */
import { ckaSteps, type CkaOptions, type CkaResult } from './cka';
import { mixedLM, parseFormula, type MixedLmInput, type MixedLmResult } from './mixedlm';
import type { LayerStack } from './layer-stack';
import { runStepsAsync } from './steps';
import { JobAborts } from './cancel';
import { readSafetensors, writeSafetensors, type SafeData, type SafeDtype, type SafetensorsFile } from './safetensors';
import { ols, partialCorrelation, pearson, type Correlation, type OlsResult } from './stats';
import {
  buildLagSamples,
  chooseAlphaGroupedCV,
  groupedSplit,
  summariseSync,
  syncR2Both,
  syncR2Steps,
  type EpisodeRecord,
  type LagSamples,
  type SyncBothResult,
  type SyncOptions,
  type SyncResult,
  type SyncSummary,
} from './synchrony';

export type ProgressFn = (done: number, total: number) => unknown;

const aborts = new JobAborts();

/**
 * Runs a long job under `jobId`, so that `analysisCompute.cancel(jobId)` aborts its signal and it stops at its next
 * step. Without an id the job gets a signal that is never aborted.
 */
export async function job<T>(jobId: string | undefined, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  if (jobId === undefined) return run(new AbortController().signal);
  try {
    return await run(aborts.start(jobId));
  } finally {
    aborts.end(jobId);
  }
}

export const analysisCompute = {
  /** Asks the running job with this id to stop at its next layer boundary; it then rejects with "cancelled". */
  cancel(jobId: string): void {
    aborts.abort(jobId);
  },

  syncR2(
    source: LayerStack,
    target: LayerStack,
    group: ArrayLike<number>,
    options: Omit<SyncOptions, 'onProgress' | 'signal'> = {},
    onProgress?: ProgressFn,
    jobId?: string,
  ): Promise<SyncResult> {
    return job(jobId, (signal) => runStepsAsync(syncR2Steps(source, target, group, options), { onProgress, signal }));
  },

  /** Both directions, A→B and B→A, and their mean (synchronous: use syncR2 per direction for progress/cancel). */
  syncR2Both(ab: LagSamples, ba: LagSamples, options: Omit<SyncOptions, 'onProgress' | 'signal' | 'split' | 'splits'> = {}): SyncBothResult {
    return syncR2Both(ab, ba, options);
  },

  cka(x: LayerStack, y: LayerStack, options: Omit<CkaOptions, 'onProgress' | 'signal'> = {}, onProgress?: ProgressFn, jobId?: string): Promise<CkaResult> {
    return job(jobId, (signal) => runStepsAsync(ckaSteps(x, y, options), { onProgress, signal }));
  },

  chooseAlphaGroupedCV(
    source: LayerStack,
    target: LayerStack,
    group: ArrayLike<number>,
    alphas: number[],
    options: { folds?: number; testFraction?: number } = {},
  ): { alpha: number; scores: number[] } {
    return chooseAlphaGroupedCV(source, target, group, alphas, options);
  },

  summariseSync(r2PerSplit: Float64Array[], LA: number, LB: number, topK = 1): SyncSummary {
    return summariseSync(r2PerSplit, LA, LB, topK);
  },

  groupedSplit(groups: ArrayLike<number>, testFraction: number, seed: number | string): Uint8Array {
    return groupedSplit(groups, testFraction, seed);
  },

  buildLagSamples(episodes: EpisodeRecord[], dims: { LA: number; HA: number; LB: number; HB: number }, k = 1, from: 'A' | 'B' = 'A'): LagSamples {
    return buildLagSamples(episodes, dims, k, from);
  },

  pearson(x: ArrayLike<number>, y: ArrayLike<number>): Correlation {
    return pearson(x, y);
  },

  partialCorrelation(x: ArrayLike<number>, y: ArrayLike<number>, covariates: ArrayLike<number>[]): Correlation {
    return partialCorrelation(x, y, covariates);
  },

  ols(y: ArrayLike<number>, columns: ArrayLike<number>[], opts: { intercept?: boolean; names?: string[]; level?: number } = {}): OlsResult {
    return ols(y, columns, opts);
  },

  mixedLM(input: MixedLmInput): MixedLmResult {
    return mixedLM(input);
  },

  /** mixedLM from a formula ("y ~ sim + x2") over named columns, with crossed random intercepts for `crossed`. */
  mixedLMFormula(columns: Record<string, ArrayLike<number | string>>, formula: string, crossed: string[], level?: number): MixedLmResult {
    return mixedLMFromColumns(columns, formula, crossed, level);
  },

  readSafetensors(bytes: Uint8Array): SafetensorsFile {
    return readSafetensors(bytes);
  },

  writeSafetensors(tensors: Record<string, { dtype?: SafeDtype; shape: number[]; data: SafeData }>, metadata?: Record<string, string>): Uint8Array {
    return writeSafetensors(tensors, metadata);
  },
};

/** Builds the mixedLM input from named columns: numeric columns for the formula, any labels for the factors. */
export function mixedLMFromColumns(columns: Record<string, ArrayLike<number | string>>, formula: string, crossed: string[], level?: number): MixedLmResult {
  const f = parseFormula(formula);
  const numeric = (name: string): number[] => {
    const col = columns[name];
    if (!col) throw new Error(`column "${name}" not found (have: ${Object.keys(columns).join(', ')})`);
    return Array.from(col, (v, i) => {
      const x = typeof v === 'number' ? v : Number(String(v).trim() === '' ? NaN : v);
      if (!Number.isFinite(x)) throw new Error(`column "${name}" row ${i + 1}: "${v}" is not a number`);
      return x;
    });
  };
  if (!crossed.length) throw new Error('at least one crossed factor is needed');
  const input: MixedLmInput = {
    y: numeric(f.response),
    fixed: f.terms.map((t) => ({ name: t, values: numeric(t) })),
    intercept: f.intercept,
    factors: crossed.map((c) => {
      const col = columns[c];
      if (!col) throw new Error(`factor column "${c}" not found`);
      return { name: c, labels: Array.from(col, String) };
    }),
    level,
  };
  return mixedLM(input);
}
