import type { Component } from 'svelte';
import type { z } from 'zod';
import type { LabDefinition, LabName, ParsedConfig } from '../core/config/lab-definition';
import type { ComputeContext, EpisodeContext, LabRunner, RunPlan } from '../core/runs/runner';
import type { Episode, RunResult, StoredRecord } from '../core/runs/types';
import type { LivePlot } from '../core/runs/live-plot';
import { episodeReader, RecordError, type RecordsDefinition } from '../core/runs/records';
import type { ResultSchemas, ResultsDefinition, SummaryOf } from '../core/runs/results';

/** Props every lab view receives from the lab page: the lab's validated config and a way to change it (and the link). */
export interface LabViewProps<C> {
  config: C;
  setConfig: (next: C) => void;
}

/** A lab's own view, loaded on demand so that the home page (and the compute worker) stays light. */
export type LabViewLoader<C> = () => Promise<{ default: Component<LabViewProps<C>> }>;

/** What the lab does, in plain words; shown on the lab's page. (Its "coming" list went when the last entry landed.) */
export interface LabDescription {
  now: string;
}

/** Some of a config's settings, at any depth (a list is given whole); the schema's defaults fill the rest. */
export type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

/** A named starting point: a few settings over the defaults, and in plain words what to notice when it runs. */
export interface LabPreset<C> {
  /** Lower-case letters, digits and dashes: it travels in links (`preset=`). */
  id: string;
  title: string;
  /** Plain-language "what to notice", shown beside the run. */
  caption: string;
  /** A guided tour for a class: short steps, in order, each naming what to look at or try next. */
  tour: readonly string[];
  /** Parsed with the lab's schema, whose defaults fill every setting not given here. */
  config: DeepPartial<C>;
}

/**
 * Everything one lab declares, once: its config definition (id, title, texts, schema, migrations, version), its
 * record shapes (schema, version, migrations), its result shapes (a schema per named result, and their version), its
 * runner, its view, its description and its presets. `src/labs/registry.ts` lists these modules and nothing else.
 * `R` is the type of one record the runner writes; `Res` the schemas of its results.
 */
export interface LabModule<
  S extends z.ZodObject = z.ZodObject,
  N extends LabName = LabName,
  R extends StoredRecord = StoredRecord,
  Res extends ResultSchemas = ResultSchemas,
> {
  definition: LabDefinition<S, N>;
  /** The rows its episodes hold (src/labs/<lab>/records.ts): bundles are checked with it, stored episodes parsed. */
  records: RecordsDefinition<R>;
  /**
   * The shapes its runner's summarize returns (src/labs/<lab>/results.ts): a zod schema per result name, and their
   * version. Raise the version when a result changes shape: stored results of another version, or that do not parse,
   * are computed again from the records before a view reads them (through readResult / resultOf).
   */
  results: ResultsDefinition<Res>;
  /** Its summarize returns only the declared names, each with a value of its schema's shape (checked at compile time). */
  runner: LabRunner<z.output<S>, R, NoInfer<SummaryOf<Res>>>;
  view: LabViewLoader<z.output<S>>;
  description: LabDescription;
  presets: readonly LabPreset<z.output<S>>[];
}

/**
 * Declares a lab module; the type parameters come from the definition and the record schema, so runner and view must
 * agree with the config schema, and what the runner writes and reads with the record schema.
 */
export function defineLabModule<S extends z.ZodObject, N extends LabName, R extends StoredRecord, Res extends ResultSchemas>(
  module: LabModule<S, N, R, Res>,
): LabModule<S, N, R, Res> {
  if (module.runner.lab !== module.definition.name) {
    throw new Error(`lab ${module.definition.name}: its runner says it belongs to ${module.runner.lab}`);
  }
  if (!Number.isInteger(module.records.version) || module.records.version < 1) {
    throw new Error(`lab ${module.definition.name}: its records version must be a whole number of 1 or more`);
  }
  if (!Number.isInteger(module.results.version) || module.results.version < 1) {
    throw new Error(`lab ${module.definition.name}: its results version must be a whole number of 1 or more`);
  }
  if (!Object.keys(module.results.schemas).length) throw new Error(`lab ${module.definition.name}: it declares no result`);
  return module;
}

/**
 * Parses an untyped config with a lab's schema (defaults filled, throws the schema's error when it does not fit).
 * A function rather than `schema.parse` so that a generic caller keeps the lab's config type.
 */
export function parseConfig<S extends z.ZodObject>(definition: LabDefinition<S, LabName>, raw: unknown): z.output<S> {
  return definition.schema.parse(raw);
}

type Summary = Omit<RunResult, 'updatedAt'>[];

/**
 * One lab with its config type opened: every entry takes a config that arrived untyped (a link, the store, a worker
 * message, the CLI), parses it with the lab's schema and only then calls the typed runner. A config that does not
 * parse throws the schema's error rather than reaching the runner in the wrong shape.
 */
export interface OpenLab extends LabRunner<unknown> {
  name: LabName;
  definition: LabDefinition;
  /** The version of the record shapes this lab writes; a run's metadata and its bundle keep it. */
  recordsVersion: number;
  /** The version of the result shapes its summaries have; stored results of another version are recomputed. */
  resultsVersion: number;
  /** Its result shapes (schemas and version): stored results that do not parse with them are recomputed. */
  results: ResultsDefinition;
  description: LabDescription;
  /** The lab's presets (their texts; presetConfig gives the config). */
  presets: readonly { id: string; title: string; caption: string; tour: readonly string[] }[];
  /** A preset's full config (its settings over the defaults), or null when the lab has no preset of that id. */
  presetConfig(id: string): ParsedConfig | null;
  /** The config as the runner sees it: `definition.schema.parse(raw)`. */
  parse(raw: unknown): ParsedConfig;
  plan(raw: unknown): RunPlan<ParsedConfig>;
  /** The previous episode, if any, is parsed with the lab's record schema first (a RecordError if it does not fit). */
  runEpisode(raw: unknown, ctx: EpisodeContext): Promise<Episode>;
  /** The episodes are parsed with the lab's record schema first: a stored row of the wrong shape throws a RecordError. */
  summarize(raw: unknown, episodes: readonly Episode[], compute?: ComputeContext): Promise<Summary>;
  /** What to draw while the run goes; null when the lab draws nothing live, the config does not parse or a record does not fit. */
  livePlot(raw: unknown, episodes: readonly Episode[]): LivePlot | null;
  /** The first stored episode with a record that does not fit the lab's schema (damaged in storage), or null. */
  firstDamaged(episodes: readonly Episode[]): { index: number; problem: string } | null;
}

export function openLab<S extends z.ZodObject, N extends LabName, R extends StoredRecord, Res extends ResultSchemas>(module: LabModule<S, N, R, Res>): OpenLab {
  const { definition, runner, description } = module;
  const parse = (raw: unknown) => parseConfig(definition, raw);
  // Stored episodes arrive untyped (the store, a worker message, a sweep's Redis, a resumed CLI run): the runner reads
  // them only after the lab's record schema has parsed them, so a wrong-shaped row fails here with its field named.
  const reader = episodeReader(module.records.schema);
  return {
    name: definition.name,
    lab: definition.name,
    definition,
    recordsVersion: module.records.version,
    resultsVersion: module.results.version,
    results: module.results,
    description,
    parse,
    presets: module.presets.map(({ id, title, caption, tour }) => ({ id, title, caption, tour })),
    presetConfig: (id) => {
      const preset = module.presets.find((p) => p.id === id);
      return preset ? parse(preset.config) : null;
    },
    plan: (raw) => runner.plan(parse(raw)),
    runEpisode: (raw, ctx) => runner.runEpisode(parse(raw), { ...ctx, previous: ctx.previous && reader.read(ctx.previous) }),
    summarize: async (raw, episodes, compute) => await runner.summarize(parse(raw), episodes.map(reader.readStored), compute),
    firstDamaged: (episodes) => {
      for (const e of episodes) {
        try {
          reader.readStored(e);
        } catch (err) {
          if (err instanceof RecordError) return { index: e.index, problem: err.message };
          throw err;
        }
      }
      return null;
    },
    livePlot: (raw, episodes) => {
      if (!runner.livePlot) return null;
      const parsed = definition.schema.safeParse(raw);
      if (!parsed.success) return null;
      // A live plot is a convenience: a stored row that does not fit draws nothing rather than breaking the page.
      try {
        return runner.livePlot(parsed.data, episodes.map(reader.readStored));
      } catch (e) {
        if (e instanceof RecordError) return null;
        throw e;
      }
    },
  };
}
