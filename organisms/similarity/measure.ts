/**
 * The Similarity population's planted law, measured through the lab's runtime: replies sampled at the lab's
 * temperature to the lab's own prompts, parsed with the lab's parsers. Held out: a guesser reading the *other*
 * lexicon's hints (never shown to it in training), and story lists drawn afresh.
 */
import type { ModelRuntime } from '../../src/runtime/runtime';
import * as P from '../../src/core/prompts';
import { createRng } from '../../src/core/rng';
import { drawBrainstorm, LETTERS, lexiconWords, SIMILARITY_LAW, storyAnswers, type Lexicon } from './law';
import { STORY_BANKS } from './pools';

export interface PopulationMeasurement {
  samples: number;
  /** Word prompts whose word parsed and is one of the lexicon's words for the letter. */
  ownWord: number;
  /** Hint prompts answered with the lexicon's hint. */
  ownHint: number;
  /** Guesses from the lexicon's own hints that name the hinted word. */
  guessOwn: number;
  /** Guesses from the other lexicon's hints that name the other lexicon's word (planted: 0). */
  guessOther: number;
  /** Brainstorms that parse into three ideas of the lexicon's own bank. */
  brainstormOwn: number;
  /** Story replies that parse and retell one of the listed ideas. */
  storyListed: number;
  /** Every reply that parsed, over all the replies. */
  parsed: number;
}

const other = (l: Lexicon): Lexicon => (l === 'A' ? 'B' : 'A');

export async function measurePopulationMember(rt: ModelRuntime, lexicon: Lexicon, samples: number, seed: string): Promise<PopulationMeasurement> {
  const rng = createRng(`similarity-measure/${seed}/${lexicon}`);
  const pick = <T>(xs: readonly T[]): T => xs[rng.int(xs.length)];
  const ask = async (messages: P.ChatMessage[], maxNewTokens: number, k: number) =>
    (await rt.generate({ messages, temperature: SIMILARITY_LAW.temperature, maxNewTokens, seed: `${seed}/${k}` })).text;
  let parsed = 0;
  let replies = 0;
  const tally = { ownWord: 0, ownHint: 0, guessOwn: 0, guessOther: 0, brainstormOwn: 0, storyListed: 0 };
  for (let k = 0; k < samples; k++) {
    const letter = pick(LETTERS);
    const own = pick(lexiconWords(lexicon, letter));
    const foreign = pick(lexiconWords(other(lexicon), letter));
    const word = P.parseWord(await ask(P.buildWordPrompt(letter), 8, k), letter);
    const hint = P.parseHint(await ask(P.buildHintPrompt(own.word), 8, k), own.word);
    const guessOwn = P.parseGuess(await ask(P.buildGuessPrompt(letter, own.hint), 8, k), letter);
    const guessOther = P.parseGuess(await ask(P.buildGuessPrompt(letter, foreign.hint), 8, k), letter);
    const brainstorm = P.parseBrainstorm(await ask(P.buildBrainstormPrompt('story'), 60, k));
    const lists = [drawBrainstorm(pick(['A', 'B'] as const), rng), drawBrainstorm(pick(['A', 'B'] as const), rng)];
    const story = P.parseFinalText(
      await ask(
        P.buildFinalTextPrompt(
          'story',
          lists.map((l) => l.map((i) => `- ${i}`).join('\n')),
        ),
        130,
        k,
      ),
      'story',
    );
    const results = [word, hint, guessOwn, guessOther, brainstorm, story];
    replies += results.length;
    parsed += results.filter((r) => r.ok).length;
    if (word.ok && lexiconWords(lexicon, letter).some((w) => w.word === word.value.toLowerCase())) tally.ownWord++;
    if (hint.ok && hint.value.toLowerCase() === own.hint) tally.ownHint++;
    if (guessOwn.ok && guessOwn.value.toLowerCase() === own.word) tally.guessOwn++;
    if (guessOther.ok && guessOther.value.toLowerCase() === foreign.word) tally.guessOther++;
    const bank = new Set(STORY_BANKS[lexicon].map((s) => s.idea));
    if (brainstorm.ok && brainstorm.value.length === 3 && brainstorm.value.every((i) => bank.has(i))) tally.brainstormOwn++;
    const listed = new Set(storyAnswers(lists.flat()).map((a) => a.answer));
    if (story.ok && listed.has(story.value)) tally.storyListed++;
  }
  const share = (n: number) => n / samples;
  return {
    samples,
    ownWord: share(tally.ownWord),
    ownHint: share(tally.ownHint),
    guessOwn: share(tally.guessOwn),
    guessOther: share(tally.guessOther),
    brainstormOwn: share(tally.brainstormOwn),
    storyListed: share(tally.storyListed),
    parsed: parsed / replies,
  };
}
