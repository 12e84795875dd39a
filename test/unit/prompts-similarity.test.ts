import { describe, expect, it } from 'vitest';
import {
  beautyContestScore,
  buildBeautyContestPrompt,
  buildBrainstormPrompt,
  buildFinalTextPrompt,
  buildGuessPrompt,
  buildHintPrompt,
  buildPublicGoodsPrompt,
  buildSplitDollarPrompt,
  buildWordPrompt,
  parseBeautyNumber,
  parseBrainstorm,
  parseDemand,
  parseFinalText,
  parseGuess,
  parseHint,
  parsePublicGoods,
  parseWord,
  publicGoodsPayoff,
  splitDollarPayoff,
  withHistory,
} from '../../src/core/prompts';

describe('word game', () => {
  it('builds the prompts', () => {
    expect(buildWordPrompt('b')[0].content).toContain('starts with the letter B');
    expect(buildHintPrompt('bread')[0].content).toContain('"bread"');
    expect(buildGuessPrompt('b', 'bakery')[0].content).toContain('letter B. Their hint is "bakery"');
  });
  it('parses words, hints and guesses', () => {
    expect(parseWord('Bread', 'B')).toEqual({ ok: true, value: 'Bread' });
    expect(parseWord('"banana."', 'b')).toEqual({ ok: true, value: 'banana' });
    expect(parseWord('Word: **bottle**', 'B')).toEqual({ ok: true, value: 'bottle' });
    expect(parseWord('Apple', 'B').ok).toBe(false);
    expect(parseWord('big bread', 'B').ok).toBe(false);
    expect(parseWord('', 'B').ok).toBe(false);
    expect(parseHint('bakery', 'bread')).toEqual({ ok: true, value: 'bakery' });
    expect(parseHint('Bread', 'bread').ok).toBe(false);
    expect(parseHint('breads', 'bread').ok).toBe(false);
    expect(parseHint('hear', 'ear').ok).toBe(true);
    // A lone label word is the answer itself, not a heading with nothing under it.
    expect(parseHint('Answer', 'ask')).toEqual({ ok: true, value: 'Answer' });
    expect(parseHint('Answer:\nbakery', 'bread')).toEqual({ ok: true, value: 'bakery' });
    expect(parseGuess('Answer: Bread', 'B')).toEqual({ ok: true, value: 'Bread' });
    expect(parseGuess('I think bread', 'B').ok).toBe(false);
  });
});

describe('public goods', () => {
  it('builds a prompt with the wealth and past rounds', () => {
    const c = buildPublicGoodsPrompt({ round: 2, rounds: 5, wealth: 112.5, past: [{ mine: 50, theirs: 40 }] })[0].content;
    expect(c).toContain('round 2 of 5');
    expect(c).toContain('Round 1: you gave 50, partner gave 40.');
    expect(c).toContain('You have $112.50.');
    expect(c).toContain('Contribution: <amount from 0 to 112.50>');
  });
  it('parses reason and amount within wealth', () => {
    expect(parsePublicGoods('Reason: Be fair.\nContribution: 40', 100)).toEqual({ ok: true, value: { reason: 'Be fair.', amount: 40 } });
    expect(parsePublicGoods('Contribution: $12.50', 20)).toEqual({ ok: true, value: { reason: '', amount: 12.5 } });
    expect(parsePublicGoods('Reason: all in\nContribution: 150', 100).ok).toBe(false);
    expect(parsePublicGoods('Reason: x\nContribution: -5', 100).ok).toBe(false);
    expect(parsePublicGoods('I give 40', 100).ok).toBe(false);
    expect(parsePublicGoods(undefined, 100).ok).toBe(false);
    expect(publicGoodsPayoff(100, 50, 50)).toBeCloseTo(115);
  });
});

describe('split the dollar and beauty contest', () => {
  it('prompts', () => {
    expect(buildSplitDollarPrompt({ round: 1, rounds: 5 })[0].content).toContain('a number from 0 to 1');
    expect(buildBeautyContestPrompt({ round: 2, rounds: 5, past: [{ mine: 30, theirs: 60, target: 30 }] })[0].content).toContain(
      'Round 1: you picked 30, partner picked 60, target 30.',
    );
  });
  it('parses demands in 0..1', () => {
    expect(parseDemand('0.5')).toEqual({ ok: true, value: 0.5 });
    expect(parseDemand('$0.40')).toEqual({ ok: true, value: 0.4 });
    expect(parseDemand('Share: .45')).toEqual({ ok: true, value: 0.45 });
    expect(parseDemand('40%')).toEqual({ ok: true, value: 0.4 });
    expect(parseDemand('1.5').ok).toBe(false);
    expect(parseDemand('0.4 or 0.6').ok).toBe(false);
    // The prompt asks for a share of $1, so "half" is well defined (issue #19): 0.5; a hedged half is not.
    expect(parseDemand('half')).toEqual({ ok: true, value: 0.5 });
    expect(parseDemand('more than half').ok).toBe(false);
    expect(splitDollarPayoff(0.6, 0.5)).toBe(0);
    expect(splitDollarPayoff(0.5, 0.5)).toBe(0.5);
  });
  it('parses beauty-contest numbers in 0..100', () => {
    expect(parseBeautyNumber('33')).toEqual({ ok: true, value: 33 });
    expect(parseBeautyNumber('My number is 22.5.')).toEqual({ ok: true, value: 22.5 });
    expect(parseBeautyNumber('150').ok).toBe(false);
    expect(parseBeautyNumber('-3').ok).toBe(false);
    expect(parseBeautyNumber('between 20 and 30').ok).toBe(false);
    expect(parseBeautyNumber('').ok).toBe(false);
    const s = beautyContestScore(30, 60);
    expect(s.target).toBe(30);
    expect(s.score).toBe(100);
  });
  it('appends to a chat history', () => {
    const h = withHistory(
      [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
      ],
      buildWordPrompt('c'),
    );
    expect(h.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
  });
});

describe('novelty tasks', () => {
  it('builds brainstorm and final prompts', () => {
    expect(buildBrainstormPrompt('haiku')[0].content).toContain('a haiku about a whale and a walnut tree');
    const f = buildFinalTextPrompt('story', ['- a lost kitten\n- a storm', '1. a picnic'])[0].content;
    expect(f).toContain('Ideas:\n- a lost kitten\n- a storm\n- a picnic');
    expect(f).toContain('about a girl and her dog');
  });
  it('parses brainstorms', () => {
    expect(parseBrainstorm('- one idea\n- two ideas\n* three')).toEqual({ ok: true, value: ['one idea', 'two ideas', 'three'] });
    expect(parseBrainstorm('1. a\n2) b')).toEqual({ ok: true, value: ['a', 'b'] });
    expect(parseBrainstorm('').ok).toBe(false);
    expect(parseBrainstorm('- -\n- *').ok).toBe(false);
  });
  it('parses final texts by task', () => {
    expect(parseFinalText('A whale sings below\nthe walnut tree holds the wind\nboth wait for the spring', 'haiku').ok).toBe(true);
    expect(parseFinalText('A whale sings below the walnut tree.', 'haiku').ok).toBe(false);
    expect(parseFinalText('Elias Quill (1602-1671) was a mapmaker. He drew the coast.', 'biography').ok).toBe(true);
    expect(parseFinalText('Elias Quill was a mapmaker. He drew the coast.', 'biography').ok).toBe(false);
    expect(parseFinalText('The best thing about vacation is rest.', 'vacation').ok).toBe(true);
    expect(parseFinalText('Rest. Food. Sun. Sea.', 'vacation').ok).toBe(false);
    expect(parseFinalText('Lucy and her dog Max went to the park. They found a kitten.', 'story').ok).toBe(true);
    expect(parseFinalText('word '.repeat(200), 'story').ok).toBe(false);
    expect(parseFinalText(null, 'story').ok).toBe(false);
  });
});
