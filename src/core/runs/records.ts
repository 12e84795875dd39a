/**
 * A lab's stored records, declared once in its module (`records: { schema, version, migrations }`): the bundle reader
 * validates every imported row with the schema, the opened lab parses stored episodes with it before its runner
 * reads them, and views narrow untyped episodes through it. Pure: no DOM, and zod only as types (the schema brings
 * its own methods), so core code can take a lab's schema without importing the labs.
 */
import type { z } from 'zod';
import type { Episode, StoredRecord } from './types';

/** Turns one record written with records version `v` into one of version `v + 1`. */
export type RecordMigration = (old: StoredRecord) => StoredRecord;

export interface RecordsDefinition<R extends StoredRecord = StoredRecord> {
  /** One record of any kind the lab writes: a discriminated union on `kind` where it writes several. */
  schema: z.ZodType<R>;
  /** Raised when a record's shape changes; run.json of a bundle carries it (`recordsVersion`). */
  version: number;
  /**
   * migrations[v] upgrades a version-v record to version v + 1, where that is trivial (a renamed field, a default).
   * A version without one is refused on import, naming both versions.
   */
  migrations: Readonly<Record<number, RecordMigration>>;
}

type Issue = z.ZodError['issues'][number];
type Path = readonly PropertyKey[];

/** `turns[3].text`: the path of a field as a person reads it; `whole` names the value itself (an empty path). */
export function fieldPath(path: Path, whole = 'the record'): string {
  if (!path.length) return whole;
  return path.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join('');
}

function valueAt(root: unknown, path: Path): unknown {
  let v = root;
  for (const k of path) v = v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined;
  return v;
}

/** A value as a message names it: numbers, booleans, null and short strings as themselves, the rest by their type. */
function shown(v: unknown): string {
  if (v === null || typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return v.length <= 40 ? JSON.stringify(v) : `a string of ${v.length} characters`;
  return Array.isArray(v) ? 'a list' : typeof v;
}

const quoted = (values: readonly unknown[]) => values.map((v) => (v === undefined ? 'none' : JSON.stringify(v))).join(', ');

/** A union of plain types (`string | number | null`) failed: the types it takes, or null for a union of shapes. */
function unionOfTypes(issue: Extract<Issue, { code: 'invalid_union' }>): string | null {
  const expected = issue.errors.map((branch) =>
    branch.length === 1 && branch[0].code === 'invalid_type' && !branch[0].path.length ? branch[0].expected : null,
  );
  return expected.length && expected.every((e) => e !== null) ? expected.join(' or ') : null;
}

/** What is wrong with the field at `path`, in words: `expected string, got 42`, `missing (expected number)`. */
function problem(issue: Issue, root: unknown, path: Path): string {
  const got = valueAt(root, path);
  const gotText = got === undefined ? 'missing' : `got ${shown(got)}`;
  switch (issue.code) {
    case 'invalid_type':
      return got === undefined ? `missing (expected ${issue.expected})` : `expected ${issue.expected}, got ${shown(got)}`;
    case 'invalid_value':
      return `expected one of ${quoted(issue.values)}, ${gotText}`;
    case 'invalid_union':
      // No branch was tried: the discriminator (`kind`) named none of them. Zod lists the kinds it knows at runtime.
      if (!issue.errors.length)
        return `${gotText}, not a record kind of this lab (${'options' in issue && Array.isArray(issue.options) ? quoted(issue.options) : issue.message})`;
      return `expected ${unionOfTypes(issue) ?? 'one of its allowed shapes'}, ${gotText}`;
    default:
      return issue.message;
  }
}

/** One issue as `field: problem`, its path taken under `base` (a union's branches report paths relative to it). */
function describeIssue(issue: Issue, root: unknown, base: Path, whole: string): string {
  const path = [...base, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length && !unionOfTypes(issue)) {
    // A union of shapes: the branch that came closest (fewest issues) says what is wrong, at its own field.
    const closest = issue.errors.filter((b) => b.length).sort((a, b) => a.length - b.length)[0];
    if (closest) return describeIssue(closest[0], root, path, whole);
  }
  return `${fieldPath(path, whole)}: ${problem(issue, root, path)}`;
}

export type RecordCheck<R> = { ok: true; value: R } | { ok: false; problem: string };

/**
 * Parses one record: its typed value (fields the schema does not know dropped), or its first bad field in words.
 * `whole` is what a problem with the value itself is called (a result's checks say "the value").
 */
export function checkRecord<T extends z.ZodType>(schema: T, raw: unknown, whole = 'the record'): RecordCheck<z.output<T>> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, problem: describeIssue(parsed.error.issues[0], raw, [], whole) };
}

/** A stored record that does not fit its lab's schema; the message names the episode, the record and the field. */
export class RecordError extends Error {}

/**
 * The steps from records version `from` to the lab's current one, as one function, or the first version that has
 * no migration (its records cannot be converted).
 */
export function recordMigration(def: RecordsDefinition, from: number): { ok: true; migrate: RecordMigration } | { ok: false; missing: number } {
  const steps: RecordMigration[] = [];
  for (let v = from; v < def.version; v++) {
    const step = def.migrations[v];
    if (!step) return { ok: false, missing: v };
    steps.push(step);
  }
  return { ok: true, migrate: (r) => steps.reduce((x, step) => step(x), r) };
}

export interface EpisodeReader<R extends StoredRecord> {
  /** The episode with every record parsed with the schema; throws RecordError at the first record that does not fit. */
  read(episode: Episode): Episode<R>;
  /**
   * The same, remembered per episode object: for stored episodes, which never change once written, read again each
   * time one more lands (a live plot, a live view).
   */
  readStored(episode: Episode): Episode<R>;
  /** The records that fit, remembered likewise: for a view that shows what it can of a run of an older version. */
  fitting(episode: Episode): R[];
  /** How many of these episodes' records `fitting` leaves out, and the first of them in words: a view says so. */
  unfit(episodes: readonly Episode[]): UnfitRows;
}

export interface UnfitRows {
  rows: number;
  /** `episode 3, record 2: turns[0].text: expected string, got 42`, or null when every row fits. */
  first: string | null;
}

export function episodeReader<R extends StoredRecord>(schema: z.ZodType<R>): EpisodeReader<R> {
  const stored = new WeakMap<Episode, Episode<R>>();
  const fitting = new WeakMap<Episode, R[]>();
  const read = (episode: Episode): Episode<R> => {
    const records = episode.records.map((raw, i) => {
      const r = checkRecord(schema, raw);
      if (!r.ok) throw new RecordError(`episode ${episode.index}, record ${i + 1}: ${r.problem}`);
      return r.value;
    });
    return { index: episode.index, records, tensors: episode.tensors };
  };
  return {
    read,
    readStored(episode) {
      let typed = stored.get(episode);
      if (!typed) stored.set(episode, (typed = read(episode)));
      return typed;
    },
    fitting(episode) {
      let kept = fitting.get(episode);
      if (!kept) {
        kept = [];
        for (const raw of episode.records) {
          const r = schema.safeParse(raw);
          if (r.success) kept.push(r.data);
        }
        fitting.set(episode, kept);
      }
      return kept;
    },
    unfit(episodes) {
      let rows = 0;
      let first: string | null = null;
      for (const episode of episodes) {
        const left = episode.records.length - this.fitting(episode).length;
        if (!left) continue;
        rows += left;
        if (first === null) {
          const i = episode.records.findIndex((raw) => !schema.safeParse(raw).success);
          const r = checkRecord(schema, episode.records[i]);
          first = `episode ${episode.index}, record ${i + 1}: ${r.ok ? 'unreadable' : r.problem}`;
        }
      }
      return { rows, first };
    },
  };
}
