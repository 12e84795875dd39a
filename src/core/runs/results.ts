/**
 * A lab's results, declared once in its module (`results: { version, schemas }`, from src/labs/<lab>/results.ts): a
 * zod schema per named result its runner's summarize returns. The runner's return type is checked against them at
 * compile time (SummaryOf), the run controller recomputes a stored result that does not parse, the bundle reader
 * leaves out an imported one that does not, and views read a result only through `readResult` / `resultOf`, which
 * parse it: no view casts a stored value. Pure: no DOM; core code takes a lab's schemas without importing the labs.
 */
import { z } from 'zod';
import { checkRecord } from './records';
import { resultsAreCurrent, type RunResult } from './types';

/** The schema of each named result of a lab. */
export type ResultSchemas = { readonly [name: string]: z.ZodType };

export interface ResultsDefinition<S extends ResultSchemas = ResultSchemas> {
  /**
   * Raised when a result changes shape: stored results of another version are computed again from the records
   * before a view reads them (a stored result that no longer parses is treated the same way).
   */
  version: number;
  schemas: S;
}

/** The names of a lab's results. */
export type ResultName<S extends ResultSchemas> = keyof S & string;

/** The value of result `K` as a view reads it (parsed with its schema). */
export type ResultValue<S extends ResultSchemas, K extends ResultName<S>> = z.output<S[K]>;

/**
 * One result as a runner's summarize returns it: a name the lab declares, with a value of that name's shape (the
 * type a view reads it as). A summarize that returns another name, or a value of the wrong shape, does not compile.
 */
export type SummaryOf<S extends ResultSchemas> = { [K in ResultName<S>]: { name: K; value: z.output<S[K]> } }[ResultName<S>];

/**
 * Any number, NaN and ±Infinity included: for the statistics an analysis can leave undefined (a mean of nothing, the
 * SE of one sample, a map of constant or overflowed states), which zod's `z.number()` refuses. JSON has no such
 * numbers and writes null for them (a bundle's results.json): null is read back as NaN, so an exported result imports.
 */
export const real = z.union([z.number(), z.nan(), z.literal([Infinity, -Infinity]), z.null().transform(() => NaN)]);

/** A count: a whole number of 0 or more. */
export const count = z.number().int().min(0);

/**
 * True when A and B are the same type (each assignable to the other, optional and readonly fields alike): a result
 * schema that describes a type defined elsewhere (a core statistic) is checked against it with
 * `Assert<Same<z.output<typeof schema>, TheType>>`, so that a change to either does not compile until both agree.
 */
export type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export type Assert<T extends true> = T;

/** A result as the store, a bundle or a summarize holds it: its name, its untyped value and (stored) its version. */
export type NamedValue = Pick<RunResult, 'name' | 'value' | 'version'>;

export type ResultCheck<T> = { ok: true; value: T } | { ok: false; problem: string };

/** Result `name` of a lab that declares it: refused when of another version, or when its value does not parse. */
function checkNamed<S extends ResultSchemas, K extends ResultName<S>>(
  def: ResultsDefinition<S>,
  name: K,
  result: Pick<NamedValue, 'value' | 'version'>,
): ResultCheck<ResultValue<S, K>> {
  const which = `result "${name}"`;
  if (result.version !== undefined && result.version !== def.version)
    return { ok: false, problem: `${which} was computed with result version ${result.version}, and this version of the lab reads version ${def.version}` };
  const checked = checkRecord(def.schemas[name], result.value, 'the value');
  return checked.ok ? checked : { ok: false, problem: `${which}: ${checked.problem}` };
}

/**
 * Checks one stored or imported result against its lab's declaration: a result of another version, of a name the lab
 * does not declare, or whose value does not parse is refused, in words (`result "similarity": pairs[0].a: expected
 * string, got 42`). A result without a version (stored or written before versions were kept) is read by its shape.
 */
export function checkResult(def: ResultsDefinition, result: NamedValue): ResultCheck<unknown> {
  if (Object.hasOwn(def.schemas, result.name)) return checkNamed(def, result.name, result);
  const known = Object.keys(def.schemas)
    .map((n) => `"${n}"`)
    .join(', ');
  return { ok: false, problem: `result "${result.name.slice(0, 60)}" is not a result of this lab (its results: ${known})` };
}

/**
 * Result `name` of a run, parsed with its schema: `{ ok: true, value }`, `{ ok: false, problem }` when it is stale or
 * does not fit (a view says so, in these words), or null when the run has no result of that name.
 */
export function readResult<S extends ResultSchemas, K extends ResultName<S>>(
  def: ResultsDefinition<S>,
  results: readonly NamedValue[],
  name: K,
): ResultCheck<ResultValue<S, K>> | null {
  const found = results.find((r) => r.name === name);
  return found ? checkNamed(def, name, found) : null;
}

/** Result `name`'s parsed value, or null when the run has none of that name or it is stale or does not fit. */
export function resultOf<S extends ResultSchemas, K extends ResultName<S>>(
  def: ResultsDefinition<S>,
  results: readonly NamedValue[],
  name: K,
): ResultValue<S, K> | null {
  const r = readResult(def, results, name);
  return r?.ok ? r.value : null;
}

/**
 * Why a finished run's stored results must be computed again from its records before a view reads them, in words, or
 * null when they are current: there are none, one was computed with another result version (or with none recorded:
 * stored before versions were kept), or one does not parse with its schema (damaged in storage). The run controller
 * recomputes them then (RunController.currentResults).
 */
export function staleResults(def: ResultsDefinition, results: readonly NamedValue[]): string | null {
  if (!results.length) return 'no result is stored';
  const old = resultsAreCurrent(results, def.version) ? undefined : results.find((r) => r.version !== def.version);
  if (old)
    return `result "${old.name.slice(0, 60)}" was computed with ${old.version === undefined ? 'no recorded result version' : `result version ${old.version}`}, and this version of the lab reads version ${def.version}`;
  return firstUnfitResult(def, results);
}

/** The first of these results that is stale or does not fit, in words, or null when all of them are current. */
export function firstUnfitResult(def: ResultsDefinition, results: readonly NamedValue[]): string | null {
  for (const r of results) {
    const checked = checkResult(def, r);
    if (!checked.ok) return checked.problem;
  }
  return null;
}
