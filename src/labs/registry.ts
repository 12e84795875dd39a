import type { z } from 'zod';
import { LAB_NAMES, type LabDefinition, type LabName } from '../core/config/lab-definition';
import type { RecordsDefinition } from '../core/runs/records';
import type { ResultSchemas, ResultsDefinition } from '../core/runs/results';
import { openLab, type LabModule, type OpenLab } from './lab-module';
import { synchronyModule } from './synchrony/module';
import { similarityModule } from './similarity/module';
import { opinionsModule } from './opinions/module';
import { polarizationModule } from './polarization/module';

/**
 * The one registry: every lab's module, by name. Pure TypeScript (views are loaded lazily), so the app, the compute
 * worker and the CLI all import it. Adding a lab is its folder, its name in LAB_NAMES and one line here; a name
 * without a module, a module without a name, or a module filed under another lab's name does not compile.
 */
const modules = {
  synchrony: synchronyModule,
  similarity: similarityModule,
  opinions: opinionsModule,
  polarization: polarizationModule,
} satisfies { [K in LabName]: { definition: { name: K } } };

type SchemaOf<M> = M extends { definition: LabDefinition<infer S extends z.ZodObject, LabName> } ? S : never;
type RecordOf<M> = M extends { records: RecordsDefinition<infer R> } ? R : never;
type ResultsOf<M> = M extends { results: ResultsDefinition<infer S extends ResultSchemas> } ? S : never;

/**
 * Each lab's module with its own config, record and result types (a correlated map: `LabModules[K]` is lab K's
 * module for any K).
 */
export type LabModules = {
  [K in LabName]: LabModule<SchemaOf<(typeof modules)[K]>, K, RecordOf<(typeof modules)[K]>, ResultsOf<(typeof modules)[K]>>;
};

/** The config type of lab K, as its runner and its view see it. */
export type LabConfig<K extends LabName> = z.output<SchemaOf<(typeof modules)[K]>>;

/** One record of lab K, as its runner writes it and its record schema parses it. */
export type LabRecord<K extends LabName> = RecordOf<(typeof modules)[K]>;

/** The result schemas of lab K, by result name (src/labs/<lab>/results.ts). */
export type LabResults<K extends LabName> = ResultsOf<(typeof modules)[K]>;

export const LAB_MODULE_BY_NAME: LabModules = modules;

/** The modules in LAB_NAMES order (the order of the home page and the navigation); the bundle reader takes these. */
export const LAB_MODULES: readonly LabModules[LabName][] = LAB_NAMES.map((name) => LAB_MODULE_BY_NAME[name]);

/** Every lab's config definition (the link codec takes these). */
export const LABS: readonly LabDefinition[] = LAB_MODULES.map((m) => m.definition);

const opened = new Map<LabName, OpenLab>();

/** Lab K's module with its config type opened: each entry parses an untyped config with K's schema first. */
function open<K extends LabName>(name: K): OpenLab {
  return openLab(LAB_MODULE_BY_NAME[name]);
}

/** The opened lab for a known name (a stored run's, a worker message's). */
export function openLabByName(name: LabName): OpenLab {
  let lab = opened.get(name);
  if (!lab) opened.set(name, (lab = open(name)));
  return lab;
}

/** The opened lab for a name from outside (a route, a file); undefined when no lab has that name. */
export function labByName(name: string): OpenLab | undefined {
  const known = LAB_NAMES.find((n) => n === name);
  return known && openLabByName(known);
}

/** Every lab, opened, in LAB_NAMES order. */
export const OPEN_LABS: readonly OpenLab[] = LAB_NAMES.map(openLabByName);
