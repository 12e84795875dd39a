/**
 * Import and export of persona and question sets: JSON `{"format": "social-minds-lab/opinion-sets@1", "personas":
 * [{id, text}], "questions": [{kind, id, text, …}]}`. Imports are untrusted: size-capped before parsing, scanned for
 * markup and prototype keys like a link, then validated by the same schema as the config's `sets`, so anything
 * imported can travel in a link. Items identical to a bundled one are dropped (they need no room in the link).
 */
import { scanUntrusted, parseJson } from '../../../core/config/untrusted';
import { BUNDLED_PERSONAS, BUNDLED_QUESTIONS, type Persona, type QuestionItem } from './sets';
import { setsGroup, type PersonaInput, type QuestionInput } from './schema';

export const SETS_FORMAT = 'social-minds-lab/opinion-sets@1';
export const MAX_SETS_FILE_BYTES = 1024 * 1024;

export interface SetsValue {
  personas: PersonaInput[];
  questions: QuestionInput[];
}

export type SetsImport = { ok: true; sets: SetsValue; dropped: number } | { ok: false; errors: string[] };

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The config form of an item list: only what differs from the bundled sets. */
export function withoutBundled(sets: SetsValue): { sets: SetsValue; dropped: number } {
  const bp = new Map(BUNDLED_PERSONAS.map((p) => [p.id, { id: p.id, text: p.text }]));
  const bq = new Map(BUNDLED_QUESTIONS.map((q) => [q.id, q]));
  // Untrusted input may hold anything in these lists: only plain objects equal to a bundled item are dropped.
  const isItem = (x: unknown): x is { id: string } => !!x && typeof x === 'object' && !Array.isArray(x);
  const personas = sets.personas.filter((p) => !(isItem(p) && Object.keys(p).length === 2 && same(bp.get(p.id), { id: p.id, text: p.text })));
  const questions = sets.questions.filter((q) => !(isItem(q) && same(bq.get(q.id), q)));
  return { sets: { personas, questions }, dropped: sets.personas.length - personas.length + sets.questions.length - questions.length };
}

export function parseSetsFile(text: string, bytes = new TextEncoder().encode(text).length): SetsImport {
  if (bytes > MAX_SETS_FILE_BYTES) return { ok: false, errors: [`the file is larger than ${MAX_SETS_FILE_BYTES / 1024 / 1024} MB`] };
  const json = parseJson(text);
  if (!json.ok) return { ok: false, errors: [`the file is ${json.message}`] };
  const v = json.value as Record<string, unknown> | null;
  if (!v || typeof v !== 'object' || Array.isArray(v)) return { ok: false, errors: ['the file must hold a JSON object {"format", "personas", "questions"}'] };
  const hostile = scanUntrusted(v);
  if (hostile.length) return { ok: false, errors: hostile.map((e) => `${e.path}: ${e.message}`) };
  if (v.format !== undefined && v.format !== SETS_FORMAT) return { ok: false, errors: [`format: expected "${SETS_FORMAT}"`] };
  const raw = { personas: v.personas ?? [], questions: v.questions ?? [] };
  // Bundled duplicates are dropped before the size check, so re-importing an export of the full pool works.
  const lists = Array.isArray(raw.personas) && Array.isArray(raw.questions);
  const pre = lists ? withoutBundled(raw as SetsValue) : { sets: raw, dropped: 0 };
  const parsed = setsGroup().safeParse(pre.sets);
  if (!parsed.success) return { ok: false, errors: parsed.error.issues.slice(0, 12).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`) };
  return { ok: true, sets: parsed.data as SetsValue, dropped: pre.dropped };
}

/** The full pool (bundled and edited), ready to edit elsewhere and import again. */
export function exportSets(personas: readonly Persona[], questions: readonly QuestionItem[]): string {
  return JSON.stringify(
    {
      format: SETS_FORMAT,
      personas: personas.map((p) => ({ id: p.id, text: p.text })),
      questions,
    },
    null,
    2,
  );
}

/** Inserts or replaces one item by id (an edit of a bundled item becomes a config item with its id). */
export function upsert<T extends { id: string }>(items: readonly T[], item: T): T[] {
  const i = items.findIndex((x) => x.id === item.id);
  if (i < 0) return [...items, item];
  const out = [...items];
  out[i] = item;
  return out;
}

/** A fresh id with a prefix that no item uses yet ("my1", "my2", …). */
export function freshId(taken: Iterable<string>, prefix: string): string {
  const used = new Set(taken);
  for (let k = 1; ; k++) if (!used.has(`${prefix}${k}`)) return `${prefix}${k}`;
}
