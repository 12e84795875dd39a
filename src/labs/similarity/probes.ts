/**
 * Probe sets for the Similarity lab (docs/methods/similarity.md, "Similarity"): m prompts, each later given to a model
 * as one user message with the chat template and no generation prompt. The built-in sets are the project's own:
 * - `builtin-paragraphs`: encyclopedia-style paragraphs, hand-written (probes-paragraphs.ts) plus generated entries on
 *   invented towns, people and species (probes-generated.ts);
 * - `builtin-questions`: arithmetic word problems, short maths questions and common-misconception questions
 *   (probes-questions.ts; only the question text is a probe, the answers are kept alongside).
 * Pure TypeScript; every random draw goes through src/core/rng.ts.
 */
import { createRng } from '../../core/rng';
import { generateParagraphs } from './probes-generated';
import { HAND_PARAGRAPHS } from './probes-paragraphs';
import { BUILTIN_QUESTIONS } from './probes-questions';

export const PROBE_SET_NAMES = ['builtin-paragraphs', 'builtin-questions'] as const;
export type BuiltinProbeSet = (typeof PROBE_SET_NAMES)[number];
export type ProbeSetChoice = BuiltinProbeSet | 'custom';

/** Longest accepted custom probe, in characters. */
export const MAX_PROBE_CHARS = 2000;
/** Generated paragraphs appended to the hand-written ones. */
export const GENERATED_PARAGRAPHS = 100;

let paragraphs: readonly string[] | null = null;
let questions: readonly string[] | null = null;

/** The full built-in list in its fixed order. */
export function builtinProbes(set: BuiltinProbeSet): readonly string[] {
  if (set === 'builtin-paragraphs') {
    paragraphs ??= Object.freeze([...HAND_PARAGRAPHS, ...generateParagraphs(HAND_PARAGRAPHS, GENERATED_PARAGRAPHS)]);
    return paragraphs;
  }
  if (set === 'builtin-questions') {
    questions ??= Object.freeze(BUILTIN_QUESTIONS.map((q) => q.question));
    return questions;
  }
  throw new Error(`Unknown probe set: ${String(set)}`);
}

/** Splits pasted or imported text into custom probes: one per line, trimmed, blank lines dropped. */
export function splitProbeLines(text: string): string[] {
  return text
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
}

export interface ProbeSelection {
  probes: string[];
  /** A user-facing reason when the selection cannot be made; `probes` is then empty. */
  error?: string;
}

/**
 * The probes for one run.
 *
 * Built-in sets: a seeded subset without replacement. The whole set is shuffled once with an RNG seeded from
 * (set, seed), and the first `count` entries are taken in shuffled order. So the same seed and count always give the
 * same probes in the same order, and a larger count from the same seed extends the smaller selection (its first
 * entries are exactly the smaller one) instead of reshuffling.
 *
 * `custom`: the user's list, each entry trimmed, blank entries dropped, order kept, the first `count` taken; the seed
 * is not used. An entry longer than MAX_PROBE_CHARS is an error (entries are not split at newlines here; use
 * splitProbeLines for one-probe-per-line text).
 *
 * Errors (with `probes: []`): `count` not a positive integer; fewer probes than `count`; an over-long custom probe;
 * no custom probes at all.
 */
export function selectProbes(set: ProbeSetChoice, count: number, seed: number, custom?: readonly string[]): ProbeSelection {
  if (!Number.isInteger(count) || count < 1) return { probes: [], error: `The number of probes must be a whole number of at least 1 (got ${count}).` };

  if (set === 'custom') {
    const list: string[] = [];
    for (const [i, raw] of (custom ?? []).entries()) {
      const text = typeof raw === 'string' ? raw.trim() : '';
      if (text.length === 0) continue;
      if (text.length > MAX_PROBE_CHARS) {
        return { probes: [], error: `Custom probe ${i + 1} is ${text.length} characters long; the limit is ${MAX_PROBE_CHARS} characters per probe.` };
      }
      list.push(text);
    }
    if (list.length === 0) return { probes: [], error: 'The custom probe list is empty: add at least one non-empty probe, one per line.' };
    if (list.length < count) {
      return {
        probes: [],
        error: `The custom probe list has ${list.length} non-empty ${plural(list.length, 'probe')}, but ${count} were asked for. Add more probes or lower the count to ${list.length}.`,
      };
    }
    return { probes: list.slice(0, count) };
  }

  if (!(PROBE_SET_NAMES as readonly string[]).includes(set)) return { probes: [], error: `Unknown probe set "${String(set)}".` };
  const all = builtinProbes(set);
  if (all.length < count) {
    return { probes: [], error: `The ${set} set has ${all.length} probes, but ${count} were asked for. Lower the count to ${all.length} or use a custom set.` };
  }
  const rng = createRng(`similarity-probes:${set}:${seed >>> 0}`);
  const order = rng.shuffle(Array.from(all, (_, i) => i));
  return { probes: order.slice(0, count).map((i) => all[i]) };
}

/** Size and a one-line description of a probe set, for the UI. `custom` has size 0 (unknown until the user adds probes). */
export function probeSetSummary(set: ProbeSetChoice): { size: number; description: string } {
  if (set === 'builtin-paragraphs') {
    const size = builtinProbes(set).length;
    return {
      size,
      description: `${size} encyclopedia-style paragraphs of 35–90 words written for this lab, on history, geography, science, the arts, sport, food, technology, economics, law, language and everyday life, plus invented towns, people and species.`,
    };
  }
  if (set === 'builtin-questions') {
    const size = builtinProbes(set).length;
    const n = (k: string) => BUILTIN_QUESTIONS.filter((q) => q.kind === k).length;
    return {
      size,
      description: `${size} questions written or generated for this lab: ${n('arithmetic')} arithmetic word problems, ${n('math')} short maths questions (algebra, geometry, probability, number theory) and ${n('misconception')} questions about common misconceptions.`,
    };
  }
  return { size: 0, description: `Your own probes, one per line (at most ${MAX_PROBE_CHARS} characters each), used in the order given.` };
}

const plural = (n: number, word: string): string => (n === 1 ? word : `${word}s`);
