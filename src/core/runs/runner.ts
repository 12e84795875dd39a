import type { GridExecutor } from '../grid-tasks';
import type { LabName, ParsedConfig } from '../config/lab-definition';
import { createRng, hashSeed, type Rng } from '../rng';
import type { Episode, RunResult, StoredRecord } from './types';
import type { LivePlot } from './live-plot';
import type { RunnerModels } from './models';

/** What a runner gets for one episode; `R` is its lab's record type (the previous episode arrives parsed). */
export interface EpisodeContext<R extends StoredRecord = StoredRecord> {
  index: number;
  /** The episode's own seed, derived from the run seed and the index, so a resumed episode repeats exactly. */
  rng: Rng;
  /** Aborted by the host (UI, worker or CLI) to cancel; runners check it between steps (throwIfAborted). */
  signal: AbortSignal;
  progress(fraction: number, note?: string): void;
  /** The previous finished episode, for runners whose state carries over (epochs of one network). */
  previous?: Episode<R>;
  /** The loaded models, for runners whose plan names any (LLM labs); absent for pure simulations. */
  models?: RunnerModels;
}

export interface RunPlan<C = unknown> {
  episodes: number;
  /** Rough storage need per episode, for the quota check before a run. */
  bytesPerEpisode: number;
  /** Model ids the run needs loaded. */
  models: string[];
  /**
   * Set when episodes carry state: they form chains of this many consecutive episodes, and each episode but a
   * chain's first reads the one before it (`EpisodeContext.previous`). Absent: every episode stands alone, so a
   * sweep may run them in any order on any machine.
   */
  chainLength?: number;
  /** Set when this config cannot run in this build; the text says why and what to do. */
  unavailable?: string;
  /** With `unavailable`, where one change makes the run possible: the button's label and the changed config. */
  fix?: { label: string; config: C };
}

/** Where a summary's heavy maths may run: the host's worker pool for layer grids (in process when absent). */
export interface ComputeContext {
  grids?: GridExecutor;
  /** Bytes an analysis may keep to reuse work (every model's Gram statistics); each lab has its default. */
  memoryBudgetBytes?: number;
}

/** One result as a summarize returns it, before it is stored: a name and its value. */
export type NamedResult = Omit<RunResult, 'updatedAt'>;

/**
 * One lab's runner. Pure: it runs in the compute worker and in the Node CLI alike. `R` is the lab's record type: what
 * runEpisode writes is checked against it at compile time, and what summarize reads has been parsed with its schema.
 * `O` is one result it returns: in a lab module, a name its results declare with a value of that name's schema
 * (SummaryOf in results.ts), so a summary of the wrong shape does not compile.
 */
export interface LabRunner<C = ParsedConfig, R extends StoredRecord = StoredRecord, O extends NamedResult = NamedResult> {
  lab: LabName;
  plan(config: C): RunPlan<C>;
  runEpisode(config: C, ctx: EpisodeContext<R>): Promise<Episode<R>>;
  /**
   * Derived results; recomputable from the episodes at any time, never the only copy. A long summary returns a
   * promise and yields to the event loop as it goes, so that the worker running it keeps answering its heartbeat.
   */
  summarize(config: C, episodes: readonly Episode<R>[], compute?: ComputeContext): O[] | Promise<O[]>;
  /** What to draw while the run goes, from the episodes stored so far. */
  livePlot?(config: C, episodes: readonly Episode<R>[]): LivePlot | null;
}

/** A run's seed, as every host reads it from the config (absent: 0). */
export const runSeed = (config: { seed?: unknown }): number => Number(config.seed ?? 0);

export function episodeRng(seed: number, index: number): Rng {
  return createRng(hashSeed(`${seed}/episode/${index}`));
}

/** Lets a long synchronous loop give the event loop a turn, so cancel messages and progress get through. */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
