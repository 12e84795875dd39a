import { describe, expect, it } from 'vitest';
import { buildInboxVotePrompt, buildInitialVotePrompt, buildStanceMessagePrompt, parseStanceMessage, parseVote, voteSpin } from '../../src/core/prompts';
import type { ObjectiveQuestion, SubjectiveQuestion } from '../../src/core/prompts';

const subj: SubjectiveQuestion = { kind: 'subjective', statement: 'Taxes should be lowered.' };
const obj: ObjectiveQuestion = { kind: 'objective', problem: 'What is 2 plus 3 times 4?', options: { A: '14', B: '20' } };
const expert = { otherProblem: 'What is 5 times 6?', solution: '5 x 6 = 30.' };

describe('opinion prompts', () => {
  it('t=0 vote: persona and question only', () => {
    const s = buildInitialVotePrompt('You are a calm farmer.', subj)[0].content;
    expect(s).toBe('You are a calm farmer.\nStatement: Taxes should be lowered.\nDo you agree or disagree? Reply with one word: Agree or Disagree.');
    const o = buildInitialVotePrompt(expert, obj)[0].content;
    expect(o).toContain('You are an expert who has solved this other problem: What is 5 times 6?');
    expect(o).toContain('Your solution: 5 x 6 = 30.');
    expect(o).toContain('Question: What is 2 plus 3 times 4?\nA: 14\nB: 20');
    expect(o.endsWith('Reply with one letter: A or B.')).toBe(true);
  });
  it('inbox vote lists friendly and unfriendly messages, or (none)', () => {
    const c = buildInboxVotePrompt('P.', subj, ['I agree because x y.', 'I agree since z.'], [])[0].content;
    expect(c).toContain('Messages from people you tend to agree with:\n- I agree because x y.\n- I agree since z.');
    expect(c).toContain('Messages from people you tend to disagree with:\n(none)');
    const long = Array.from({ length: 40 }, (_, i) => `message number ${i} with some words`);
    const capped = buildInboxVotePrompt('P.', subj, long, long)[0].content;
    expect(capped.length).toBeLessThan(1500);
    expect(capped).toContain('message number 39');
  });
  it('stance message prompt states the current answer', () => {
    expect(buildStanceMessagePrompt('P.', obj, 'B')[0].content).toContain('Your current answer: B.');
    expect(buildStanceMessagePrompt('P.', subj)[0].content).toContain('I agree because');
  });
});

describe('parseVote', () => {
  it('accepts the valid forms', () => {
    for (const [x, v] of [
      ['A', 'A'],
      ['B.', 'B'],
      ['(A)', 'A'],
      ['**B**', 'B'],
      ['Answer: A', 'A'],
      ['Option B', 'B'],
      ['A) 14', 'A'],
      ['a', 'A'],
      ['I choose B', 'B'],
    ] as const) {
      expect(parseVote(x, 'objective'), x).toEqual({ ok: true, value: v });
    }
    for (const [x, v] of [
      ['Agree', 'Agree'],
      ['disagree.', 'Disagree'],
      ['Disagree, because it costs too much.', 'Disagree'],
      ['"Agree"', 'Agree'],
      ['My answer: Agree', 'Agree'],
    ] as const) {
      expect(parseVote(x, 'subjective'), x).toEqual({ ok: true, value: v });
    }
    expect(voteSpin('A')).toBe(1);
    expect(voteSpin('Disagree')).toBe(-1);
  });
  it('rejects junk and ambiguity without throwing', () => {
    for (const x of ['', 'C', 'A or B', 'A/B', 'Both', 'Apple', 'Answer', null, undefined, 3]) expect(parseVote(x, 'objective').ok, String(x)).toBe(false);
    for (const x of ['', 'Yes', 'Agree or disagree', 'Maybe', 'A']) expect(parseVote(x, 'subjective').ok, String(x)).toBe(false);
  });
});

describe('parseStanceMessage', () => {
  it('finds stance and reason', () => {
    const r = parseStanceMessage('I disagree because schools need that money.', 'subjective');
    expect(r).toEqual({ ok: true, value: { text: 'I disagree because schools need that money.', stance: 'Disagree', reason: 'schools need that money' } });
    const o = parseStanceMessage('I choose A because I checked it twice.\nextra', 'objective');
    expect(o.ok && o.value.stance).toBe('A');
    expect(parseStanceMessage('My answer is B because the other skips a step.', 'objective').ok).toBe(true);
    expect(parseStanceMessage('I agree, because prices keep going up.', 'subjective').ok).toBe(true);
  });
  it('rejects messages without a stance or reason', () => {
    for (const x of ['', 'Hello there.', 'I agree.', 'I agree and disagree because both.', 'The sky is blue because of light.', null]) {
      expect(parseStanceMessage(x, 'subjective').ok, String(x)).toBe(false);
    }
    expect(parseStanceMessage('Numbers are hard because they are.', 'objective').ok).toBe(false);
  });
});
