import type { z } from 'zod';

/** Turns a config written for schema version `from` into one for version `from + 1`. */
export type Migration = (old: Record<string, unknown>) => Record<string, unknown>;

/**
 * A lab declares its config once. The link codec, forms, storage, validation and the CLI all derive from this.
 * `schema` must be a zod object whose every field has a default, so `{}` parses to the default config.
 */
export interface LabDefinition<S extends z.ZodObject = z.ZodObject, N extends LabName = LabName> {
  name: N;
  title: string;
  /** Two sentences in plain words, for a student who has never read the paper: shown first. */
  intro: string;
  /** One line on what the lab shows, in the paper's terms: shown after the intro. */
  summary: string;
  version: number;
  schema: S;
  /** migrations[v] upgrades a version-v config to version v+1. */
  migrations: Record<number, Migration>;
}

/**
 * The labs' names, in the order the app lists them. Core code names labs by these; each lab's module lives in
 * src/labs/<name>/module.ts, and src/labs/registry.ts fails to compile unless its modules match this list exactly.
 */
export const LAB_NAMES = ['synchrony', 'similarity', 'opinions', 'polarization'] as const;
export type LabName = (typeof LAB_NAMES)[number];

export type ConfigOf<D extends LabDefinition> = z.output<D['schema']>;

/**
 * A config that some lab's schema has parsed, where which lab is known only at run time (the lab page, its form, the
 * run controller, a sweep): code that reads its fields gets them typed from the lab's own schema first (LabView's
 * parseConfig, storedConfig), never by a cast.
 */
export type ParsedConfig = ConfigOf<LabDefinition>;

/** A config as the lab page's form edits it: settings not yet checked; validateConfig turns it into a ParsedConfig. */
export type ConfigDraft = { [setting: string]: unknown };

export function defineLab<S extends z.ZodObject, N extends LabName>(def: LabDefinition<S, N>): LabDefinition<S, N> {
  for (let v = 1; v < def.version; v++) {
    if (!def.migrations[v]) throw new Error(`lab ${def.name}: missing migration from version ${v} to ${v + 1}`);
  }
  return def;
}
