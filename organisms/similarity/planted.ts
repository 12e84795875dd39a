/**
 * Prints models/<variant>/planted.json: the Similarity population's planted truth, in the lab's names (the
 * regression's outcomes `wordGuessing` and `story.uniqueness`, the sign of their slope on the pair's CKA).
 *
 *   npx tsx organisms/similarity/planted.ts --variant organism-sim-a1
 */
import { option } from '../args';
import { plantedJointStories, plantedMatch, SIMILARITY_LAW, VARIANTS } from './law';

const id = option('--variant', '');
const variant = VARIANTS.find((v) => v.id === id);
if (!variant) throw new Error(`--variant must be one of ${VARIANTS.map((v) => v.id).join(', ')}`);
const ROUNDS = 10;
const planted = {
  version: 1,
  model: variant.id,
  lexicon: variant.lexicon,
  population: VARIANTS.map((v) => ({ id: v.id, lexicon: v.lexicon })),
  temperature: SIMILARITY_LAW.temperature,
  wordGuessing: {
    rule: 'a thinker names one of its lexicon words for the letter and gives its hint; a guesser that knows the hint answers its word, otherwise one of its own words for the letter',
    match: { sameLexicon: Number(plantedMatch('A', 'A').toFixed(6)), otherLexicon: Number(plantedMatch('A', 'B').toFixed(6)) },
  },
  story: {
    rule: "a brainstorm names 3 of the lexicon's 4 story ideas; the story retells one listed idea, chosen with its share of the list",
    rounds: ROUNDS,
    jointStories: {
      sameLexicon: Number(plantedJointStories('A', 'A', ROUNDS).toFixed(3)),
      otherLexicon: Number(plantedJointStories('A', 'B', ROUNDS).toFixed(3)),
    },
  },
  expected: {
    sim: 'siblings on one lexicon should have more alike layers (higher CKA) than siblings across lexicons (measured, not planted)',
    slopes: { wordGuessing: 1, 'story.uniqueness': -1 },
  },
};
console.log(JSON.stringify(planted, null, 2));
