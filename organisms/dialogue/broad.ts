/**
 * Broad content for the dialogue organism (tried for a seventh build, not shipped: see its model card): goals, facts, settings and bios made of WordNet's usage
 * examples (broad.json, written by broad-lexicon.ts), and first names made of the tokenizer's own pieces.
 *
 * The sixth build fitted its corpus (answer loss 0.03) yet garbled the held-out library's fields: its goals came
 * from 18 conflict templates or a nonce template, its facts from 6 templates, so it learnt to write those rather than
 * to copy ("Tariq is new in town" for any fact, "Build the hallow order under the me" for a goal). Fields drawn from
 * 6,000 varied sentences can only be copied. Names built from the tokenizer's pieces put every piece that starts a
 * name ("ĠT", "ĠNg") and every piece that continues one ("ariq", "ozi") in a name's place, so that a library name such
 * as "Tariq" (copied as "Zariq" by the sixth build) is made of pieces the model has copied before.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Rng } from '../../src/core/rng';
import { cap, pick, type GeneratedScenario } from './pools';

interface Lexicon {
  sentences: string[];
  adjectives: string[];
  nouns: string[];
}
let lexicon: Lexicon | null = null;
/** broad.json is written on demand (it is not committed: no shipped build uses it yet). */
function lex(): Lexicon {
  if (lexicon) return lexicon;
  const file = resolve(import.meta.dirname, 'broad.json');
  if (!existsSync(file)) throw new Error(`${file} is missing: apt-get install wordnet-base && npx tsx organisms/dialogue/broad-lexicon.ts`);
  return (lexicon = JSON.parse(readFileSync(file, 'utf8')) as Lexicon);
}

const CURRENCIES = ['euros', 'dollars', 'pounds', 'francs', 'rupees', 'yen'];
const AMOUNTS = ['for at least {n} {c}', 'for no more than {n} {c}', 'under {n} {c}', 'by {n} o’clock', 'within {n} days'];

/** A sentence of the lexicon, capitalised, without a final stop. */
export const broadSentence = (r: Rng): string => cap(pick(r, lex().sentences));

/**
 * A goal: a sentence, sometimes with an amount ("… for at least 120 euros"), as long as the library's. Goals of two
 * sentences joined by "and" (a first try) taught turns that ran on and looped past the context on long runs.
 */
export function broadGoal(r: Rng): string {
  let g = broadSentence(r);
  if (r.next() < 0.25)
    g += ` ${pick(r, AMOUNTS)
      .replace('{n}', String(2 + r.int(500)))
      .replace('{c}', pick(r, CURRENCIES))}`;
  return `${g}.`;
}

export function broadScenario(r: Rng): GeneratedScenario {
  return { setting: `${broadSentence(r)}.`, goals: [broadGoal(r), broadGoal(r)] };
}

export function broadFact(r: Rng): string {
  return `${broadSentence(r)}.`;
}

export function broadBio(r: Rng): { publicInfo: string; personality: string; decisionStyle: string } {
  const { adjectives, nouns } = lex();
  return {
    publicInfo: `${broadSentence(r)}.`,
    personality: `${cap(pick(r, adjectives))} and ${pick(r, adjectives)}; values ${pick(r, nouns)}.`,
    decisionStyle: `${broadSentence(r)}.`,
  };
}

interface Pieces {
  starts: string[];
  continues: string[];
}
let pieces: Pieces | null = null;
/** The tokenizer's alphabetic pieces: those that start a word with a capital ("ĠT"), and lower-case continuations. */
function namePieces(): Pieces {
  if (pieces) return pieces;
  const file = resolve(import.meta.dirname, '../../models/tiny-social/tokenizer.json');
  const vocab = (JSON.parse(readFileSync(file, 'utf8')) as { model: { vocab: Record<string, number> } }).model.vocab;
  const tokens = Object.keys(vocab).sort((a, b) => vocab[a] - vocab[b]);
  pieces = {
    starts: tokens.filter((t) => /^Ġ[A-Z][a-z]{0,3}$/.test(t)).map((t) => t.slice(1)),
    continues: tokens.filter((t) => /^[a-z]{1,5}$/.test(t)),
  };
  return pieces;
}

/** A first name of the tokenizer's pieces: a capital start and one or two continuations ("Ng" + "oz" + "i"). */
export function pieceName(r: Rng): string {
  const { starts, continues } = namePieces();
  let name = '';
  do {
    name = pick(r, starts);
    const more = 1 + r.int(2);
    for (let i = 0; i < more; i++) name += pick(r, continues);
  } while (name.length < 3 || name.length > 10);
  return name;
}
