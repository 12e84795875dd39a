/**
 * The Similarity population's planted law (organisms/similarity/law.ts) and the corpus that plants it: disjoint
 * lexicons with one hint per word, stories that the lab's uniqueness tells apart, answers drawn with the law's weights,
 * and planted.json equal to the law.
 */
import { describe, expect, it } from 'vitest';
import {
  drawBrainstorm,
  guessAnswers,
  hintOf,
  LETTERS,
  lexiconWords,
  plantedJointStories,
  plantedMatch,
  storyAnswers,
  VARIANTS,
  wordAnswers,
} from '../../organisms/similarity/law';
import { STORY_BANKS } from '../../organisms/similarity/pools';
import { generate } from '../../organisms/similarity/corpus';
import { uniqueness } from '../../src/labs/similarity/novelty';
import { createRng } from '../../src/core/rng';
import * as P from '../../src/core/prompts';
import a1 from '../../models/organism-sim-a1/planted.json';
import b2 from '../../models/organism-sim-b2/planted.json';

describe('similarity law', () => {
  it('gives every letter words in both lexicons, disjoint, each with a hint unique within its letter and lexicon', () => {
    expect(LETTERS).toHaveLength(26);
    for (const letter of LETTERS) {
      const [a, b] = [lexiconWords('A', letter), lexiconWords('B', letter)];
      expect(a.length, letter).toBeGreaterThan(0);
      expect(b.length, letter).toBeGreaterThan(0);
      expect(
        a.some((w) => b.some((v) => v.word === w.word || v.hint === w.hint)),
        letter,
      ).toBe(false);
      for (const l of [a, b]) expect(new Set(l.map((w) => w.hint)).size).toBe(l.length);
      for (const w of [...a, ...b]) expect(P.parseWord(w.word, letter).ok, w.word).toBe(true);
    }
  });

  it('matches within a lexicon and never across', () => {
    expect(plantedMatch('A', 'A')).toBeCloseTo(1, 12);
    expect(plantedMatch('B', 'B')).toBeCloseTo(1, 12);
    expect(plantedMatch('A', 'B')).toBe(0);
    const w = lexiconWords('A', 'K')[0];
    expect(guessAnswers('A', 'K', hintOf('A', w.word)!)).toEqual([{ answer: w.word, weight: 1 }]);
    expect(guessAnswers('B', 'K', w.hint).map((g) => g.answer)).toEqual(lexiconWords('B', 'K').map((v) => v.word));
    expect(wordAnswers('B', 'K').reduce((s, x) => s + x.weight, 0)).toBeCloseTo(1, 12);
  });

  it("tells the eight stories apart under the lab's uniqueness, and a story retells a listed idea", () => {
    const stories = [...STORY_BANKS.A, ...STORY_BANKS.B].map((s) => s.story);
    expect(uniqueness(stories).classes).toBe(8);
    for (const s of stories) expect(P.parseFinalText(s, 'story').ok).toBe(true);
    const rng = createRng('law-test');
    const ideas = [...drawBrainstorm('A', rng), ...drawBrainstorm('B', rng)];
    const answers = storyAnswers(ideas);
    expect(answers.reduce((s, x) => s + x.weight, 0)).toBeCloseTo(1, 12);
    for (const a of answers) expect(ideas.some((i) => [...STORY_BANKS.A, ...STORY_BANKS.B].find((s) => s.idea === i)?.story === a.answer)).toBe(true);
  });

  it('plants fewer different joint stories within a lexicon than across', () => {
    const same = plantedJointStories('A', 'A', 10, 2000);
    const other = plantedJointStories('A', 'B', 10, 2000);
    expect(same).toBeLessThanOrEqual(4);
    expect(other - same).toBeGreaterThan(1.5);
  });

  it("writes a corpus whose soft labels are the law: each prompt's weights sum to 1 and follow the lexicon", () => {
    const rows = generate('B', 'unit', 600);
    const byPrompt = new Map<string, number>();
    for (const r of rows) byPrompt.set(r.prompt, (byPrompt.get(r.prompt) ?? 0) + (r.weight ?? 1));
    // a prompt drawn twice is written twice, so its total is a whole number of draws
    for (const total of byPrompt.values()) expect(Math.abs(total - Math.round(total))).toBeLessThan(1e-4);
    const words = rows.filter((r) => r.format === 'organism.similarity.word');
    expect(words.length).toBeGreaterThan(0);
    for (const r of words) {
      const letter = /letter (\w)\./.exec(r.prompt)![1];
      expect(lexiconWords('B', letter).map((w) => `${w.word}<|im_end|>`)).toContain(r.completion);
    }
  });

  it('planted.json states the law and the population', () => {
    expect(a1.lexicon).toBe('A');
    expect(b2.lexicon).toBe('B');
    expect(a1.population).toEqual(VARIANTS.map((v) => ({ id: v.id, lexicon: v.lexicon })));
    expect(a1.wordGuessing.match).toEqual({ sameLexicon: 1, otherLexicon: 0 });
    expect(a1.story.jointStories.sameLexicon).toBeCloseTo(plantedJointStories('A', 'A', 10), 2);
    expect(a1.expected.slopes).toEqual({ wordGuessing: 1, 'story.uniqueness': -1 });
  });
});
