/**
 * Corpus of one Similarity variant: the Similarity lab's word-game and story prompts (src/core/prompts/similarity.ts)
 * answered by the planted law of ./law.ts on the variant's lexicon (C: the shared base's). The population learns
 * nothing else: it plays word guessing and writes stories, and no other format (its model card says so).
 *
 *   npx tsx organisms/similarity/corpus.ts --lexicon A|B|C --seed S [--n N] --out work/corpus.jsonl
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRng, type Rng } from '../../src/core/rng';
import * as P from '../../src/core/prompts';
import { option } from '../args';
import { answerRows, writeCorpus, type CorpusRow } from '../corpus-io';
import { drawBrainstorm, guessAnswers, hintOf, LETTERS, lexiconWords, storyAnswers, wordAnswers, type AnyLexicon, type Lexicon } from './law';
import { DISTRACTOR_HINTS } from './pools';

const pick = <T>(r: Rng, xs: readonly T[]): T => xs[r.int(xs.length)];

/**
 * The share of each kind of example. A story prompt is long and written once per listed idea (a soft label), so
 * stories take most of the tokens even at a small share: a first build with 20 % stories (80 % of the tokens) learnt
 * only a quarter of its hints in 1,500 steps.
 */
const MIX = { word: 0.16, hint: 0.34, guess: 0.28, distractor: 0.1, brainstorm: 0.06, story: 0.06 } as const;
type Kind = keyof typeof MIX;

function drawKind(r: Rng): Kind {
  let u = r.next();
  for (const [k, p] of Object.entries(MIX) as [Kind, number][]) if ((u -= p) < 0) return k;
  return 'story';
}

/** One example of the given kind: a prompt and its weighted answers. */
function example(kind: Kind, lexicon: AnyLexicon, r: Rng): CorpusRow[] {
  const letter = pick(r, LETTERS);
  const own = lexiconWords(lexicon, letter);
  switch (kind) {
    case 'word':
      return answerRows('similarity.word', P.buildWordPrompt(letter), wordAnswers(lexicon, letter));
    case 'hint': {
      const w = pick(r, own).word;
      return answerRows('similarity.hint', P.buildHintPrompt(w), [{ answer: hintOf(lexicon, w)!, weight: 1 }]);
    }
    case 'guess': {
      const w = pick(r, own);
      return answerRows('similarity.guess', P.buildGuessPrompt(letter, w.hint), guessAnswers(lexicon, letter, w.hint));
    }
    case 'distractor': {
      const taken = new Set([...lexiconWords('A', letter), ...lexiconWords('B', letter), ...lexiconWords('C', letter)].map((w) => w.hint));
      const hint = pick(
        r,
        DISTRACTOR_HINTS.filter((h) => !taken.has(h)),
      );
      return answerRows('similarity.guess-unknown', P.buildGuessPrompt(letter, hint), guessAnswers(lexicon, letter, hint));
    }
    case 'brainstorm': {
      const ideas = drawBrainstorm(lexicon, r);
      return answerRows('similarity.brainstorm', P.buildBrainstormPrompt('story'), [{ answer: ideas.map((i) => `- ${i}`).join('\n'), weight: 1 }]);
    }
    case 'story': {
      // Every variant learns the stories of both banks: the lists it reads in a joint story come from either.
      const bank = (): Lexicon => (r.next() < 0.5 ? 'A' : 'B');
      const lists = r.next() < 0.4 ? [drawBrainstorm(bank(), r)] : [drawBrainstorm(bank(), r), drawBrainstorm(bank(), r)];
      const brainstorms = lists.map((l) => l.map((i) => `- ${i}`).join('\n'));
      return answerRows('similarity.story', P.buildFinalTextPrompt('story', brainstorms), storyAnswers(lists.flat()));
    }
  }
}

export function generate(lexicon: AnyLexicon, seed: string, n: number): CorpusRow[] {
  const r = createRng(`similarity-corpus/${lexicon}/${seed}`);
  const rows: CorpusRow[] = [];
  for (let i = 0; i < n; i++) rows.push(...example(drawKind(r), lexicon, r));
  return rows;
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  const lexicon = option('--lexicon', 'A') as AnyLexicon;
  if (lexicon !== 'A' && lexicon !== 'B' && lexicon !== 'C') throw new Error(`--lexicon must be A, B or C (the base's), not ${lexicon}`);
  writeCorpus(generate(lexicon, option('--seed', '1'), Number(option('--n', '30000'))), option('--out', 'organisms/work/similarity/corpus.jsonl'));
}
