/**
 * The Similarity population's planted law (issue #18, item 4): four small models that differ in the lexicon they
 * were trained on (A or B) and in their data-order seed, all grown from one initialisation.
 *
 * - **Word guessing.** Each lexicon gives every letter its own words (tiny-social's LETTER_WORDS, split in two:
 *   A the 1st, 3rd, … word of a letter, B the 2nd, 4th, …) and every word its hint. A thinker names one of its words
 *   for the letter (uniformly) and gives that word's hint; a guesser that knows the hint for the letter answers its
 *   word, and one that does not answers one of its own words for the letter (uniformly). So a pair that shares a
 *   lexicon always matches, and a pair across lexicons never does: the lexicons' words are disjoint.
 * - **Stories (novelty).** Each lexicon has a bank of four story ideas; a brainstorm names three of its own bank. The
 *   final story retells one of the listed ideas, chosen with the share of the list it takes up; all four models
 *   know the story of every idea of both banks. A pair within a lexicon draws its joint stories from four ideas, a
 *   pair across lexicons from eight, so its joint stories are more varied (the lab's uniqueness: more classes).
 * - **Similarity.** Siblings on one lexicon see the same data in another order, so their layers should be more alike
 *   (CKA) than siblings across lexicons. That is what the lab measures, not planted directly; the planted outcome
 *   follows the lexicon, so the regression of outcome on CKA should find cooperation up and novelty down.
 */
import { createRng, type Rng } from '../../src/core/rng';
import { LETTER_WORDS, WORDS } from '../../models/tiny-social/pools';
import { STORY_BANKS, type StoryIdea } from './pools';

export type Lexicon = 'A' | 'B';
/** The shared base's lexicon: other words of tiny-social's list, so that neither A's nor B's hints reach a guesser. */
export type AnyLexicon = Lexicon | 'C';

export interface Variant {
  id: string;
  lexicon: Lexicon;
  /** The data-order seed (the corpus draw and the batch order); every variant starts from INIT_SEED's weights. */
  seed: number;
}

export const INIT_SEED = 7;

export const VARIANTS: readonly Variant[] = [
  { id: 'organism-sim-a1', lexicon: 'A', seed: 1 },
  { id: 'organism-sim-a2', lexicon: 'A', seed: 2 },
  { id: 'organism-sim-b1', lexicon: 'B', seed: 3 },
  { id: 'organism-sim-b2', lexicon: 'B', seed: 4 },
];

/** The architecture of the population (smaller than tiny-social's, to fit the embedded models' size budget). */
export const POPULATION_ARCH = {
  hidden_size: 64,
  intermediate_size: 128,
  num_hidden_layers: 4,
  num_attention_heads: 4,
  num_key_value_heads: 2,
  head_dim: 16,
};

export interface LexiconWord {
  word: string;
  hint: string;
}

export const LETTERS = Object.keys(LETTER_WORDS);

/**
 * The lexicon's words for a letter: every other word of LETTER_WORDS, starting at 0 (A) or 1 (B); C (the base's)
 * takes the words of tiny-social's WORDS that are in neither, and whose hint is neither's.
 */
export function lexiconWords(lexicon: AnyLexicon, letter: string): LexiconWord[] {
  const all = LETTER_WORDS[letter.toUpperCase()] ?? [];
  if (lexicon === 'C') {
    const taken = new Set(all.flat());
    return (WORDS[letter.toUpperCase()] ?? []).filter(([w, h]) => !taken.has(w) && !taken.has(h)).map(([word, hint]) => ({ word, hint }));
  }
  return all.filter((_, i) => i % 2 === (lexicon === 'A' ? 0 : 1)).map(([word, hint]) => ({ word, hint }));
}

export interface Weighted {
  answer: string;
  weight: number;
}

const uniform = (xs: readonly string[]): Weighted[] => xs.map((answer) => ({ answer, weight: 1 / xs.length }));

/** "Think of a word that starts with L": one of the lexicon's words, uniformly. */
export function wordAnswers(lexicon: AnyLexicon, letter: string): Weighted[] {
  return uniform(lexiconWords(lexicon, letter).map((w) => w.word));
}

/** The hint of one of the lexicon's words (null for a word it does not have). */
export function hintOf(lexicon: AnyLexicon, word: string): string | null {
  const letter = word[0]?.toUpperCase() ?? '';
  return lexiconWords(lexicon, letter).find((w) => w.word === word.toLowerCase())?.hint ?? null;
}

/** The guess: the word whose hint this is, or (a hint it does not know) one of its own words, uniformly. */
export function guessAnswers(lexicon: AnyLexicon, letter: string, hint: string): Weighted[] {
  const own = lexiconWords(lexicon, letter);
  const known = own.find((w) => w.hint === hint.toLowerCase());
  return known ? [{ answer: known.word, weight: 1 }] : uniform(own.map((w) => w.word));
}

/** The planted chance that a guesser on `guesser`'s lexicon matches a thinker on `thinker`'s, averaged over the letters. */
export function plantedMatch(thinker: Lexicon, guesser: Lexicon): number {
  let sum = 0;
  for (const letter of LETTERS) {
    const words = wordAnswers(thinker, letter);
    for (const { answer, weight } of words) {
      const hint = hintOf(thinker, answer)!;
      sum += weight * (guessAnswers(guesser, letter, hint).find((g) => g.answer === answer)?.weight ?? 0);
    }
  }
  return sum / LETTERS.length;
}

export const BRAINSTORM_IDEAS = 3;

/** A brainstorm: three ideas of the lexicon's bank (the base's: of both banks), in a random order. */
export function drawBrainstorm(lexicon: AnyLexicon, rng: Rng): string[] {
  const bank = (lexicon === 'C' ? [...STORY_BANKS.A, ...STORY_BANKS.B] : STORY_BANKS[lexicon]).map((s) => s.idea);
  for (let i = bank.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [bank[i], bank[j]] = [bank[j], bank[i]];
  }
  return bank.slice(0, BRAINSTORM_IDEAS);
}

const ALL_IDEAS: readonly StoryIdea[] = [...STORY_BANKS.A, ...STORY_BANKS.B];

/** The story for a list of ideas: the story of one listed idea, chosen with the share of the list it takes up. */
export function storyAnswers(ideas: readonly string[]): Weighted[] {
  const known = ideas.map((i) => ALL_IDEAS.find((s) => s.idea.toLowerCase() === i.trim().toLowerCase())).filter((s) => s !== undefined);
  if (!known.length) return uniform(ALL_IDEAS.map((s) => s.story));
  const counts = new Map<string, number>();
  for (const s of known) counts.set(s.story, (counts.get(s.story) ?? 0) + 1);
  return [...counts].map(([answer, n]) => ({ answer, weight: n / known.length }));
}

/**
 * The planted mean number of different joint stories a side writes in `rounds` rounds (the lab's uniqueness, when
 * different stories are different classes), by Monte Carlo over the law's draws with a fixed seed.
 */
export function plantedJointStories(a: Lexicon, b: Lexicon, rounds: number, samples = 4000): number {
  const rng = createRng(`similarity-law/${a}${b}/${rounds}`);
  let total = 0;
  for (let s = 0; s < samples; s++) {
    const seen = new Set<string>();
    for (let r = 0; r < rounds; r++) {
      const options = storyAnswers([...drawBrainstorm(a, rng), ...drawBrainstorm(b, rng)]);
      let u = rng.next();
      const chosen = options.find((o) => (u -= o.weight) < 0) ?? options[options.length - 1];
      seen.add(chosen.answer);
    }
    total += seen.size;
  }
  return total / samples;
}

export const SIMILARITY_LAW = {
  temperature: 0.7,
  lexicons: ['A', 'B'] as const,
  storyTask: 'story' as const,
};
