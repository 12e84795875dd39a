import { describe, expect, it } from 'vitest';
import {
  agreed,
  cleanReply,
  digitNumbers,
  jsonField,
  jsonObjectSpans,
  leadLine,
  numberAt,
  parseJsonObject,
  parseReply,
  refusalIn,
  replyText,
  REPLY_FORMAT_NAMES,
  REPLY_FORMATS,
  selfCorrects,
  stripMarkdown,
  stripPreamble,
  stripThinking,
} from '../../src/core/prompts';
import type { ReplyFormatName } from '../../src/core/prompts';

describe('reading replies: thinking, control tokens, markdown, preambles', () => {
  it('strips thinking blocks, and refuses thinking that never ends', () => {
    expect(stripThinking('<think>\nA or B?\n</think>\n\nB')?.trim()).toBe('B');
    expect(stripThinking('<think>\n\n</think>\n\nAgree')?.trim()).toBe('Agree');
    expect(stripThinking('the template opened it\n</think>\nYes')?.trim()).toBe('Yes');
    expect(stripThinking('<think>\nstill thinking')).toBeNull();
    expect(stripThinking('No. <think>an afterthought')).toBe('No.');
    expect(replyText('<think>\nhmm')).toEqual({ ok: false, reason: 'unfinished <think> block: no answer after it' });
    expect(replyText('   ')).toEqual({ ok: false, reason: 'empty reply' });
    expect(replyText(42).ok).toBe(false);
  });
  it('cuts the reply at the end of its turn and drops control tokens', () => {
    expect(cleanReply('yes<|im_end|>\n<|im_start|>user\nmore')).toBe('yes');
    expect(cleanReply('Agree.<end_of_turn>\n<start_of_turn>user')).toBe('Agree.');
    expect(cleanReply('<|im_start|>assistant\nNo<|eot_id|>')).toBe('No');
    expect(cleanReply('<think>x</think>A\r\n')).toBe('A');
  });
  it('removes markdown around an answer, not list bullets', () => {
    expect(stripMarkdown('## Answer\n**B**')).toBe('Answer\nB');
    expect(stripMarkdown('```json\n{"a": 1}\n```')).toBe('{"a": 1}');
    expect(stripMarkdown('*Ocean giant sleeps*')).toBe('Ocean giant sleeps');
    expect(stripMarkdown('- one\n* two\n> `three`')).toBe('- one\n* two\nthree');
    expect(stripMarkdown('social_rules: 2*3*4')).toBe('social_rules: 2*3*4');
  });
  it('strips courtesy, "here is" introductions and answer labels', () => {
    expect(stripPreamble('Sure! My answer: Agree')).toBe('Agree');
    expect(stripPreamble('Okay, the answer is B.')).toBe('B.');
    expect(stripPreamble("Here's a word: Book")).toBe('Book');
    expect(stripPreamble('No problem! Yes.')).toBe('Yes.');
    expect(leadLine('Sure! Here are my thoughts:\n\n**Final answer:** 33')).toBe('33');
  });
  it('finds refusals and self-corrections', () => {
    expect(refusalIn('As an AI language model, I cannot choose.')).toMatch(/AI disclaimer/);
    expect(refusalIn("I don't have personal opinions.")).toBe('declined to answer');
    expect(refusalIn("I can't give more than 50.")).toBeNull();
    expect(refusalIn("I can't sell it for less than 80.", 'text')).toBeNull();
    expect(refusalIn("I'm sorry, but I can't write that.", 'text')).toBe('declined to answer');
    expect(selfCorrects('B. Wait, the answer is A.')).toBe(true);
    expect(selfCorrects('Actually, I agree.')).toBe(false);
    expect(selfCorrects('I agree.')).toBe(false);
  });
  it('agrees or reports the conflict', () => {
    expect(agreed([1, 1], 'none')).toEqual({ ok: true, value: 1 });
    expect(agreed([], 'none')).toEqual({ ok: false, reason: 'none' });
    expect(agreed(['A', 'B'], 'none')).toEqual({ ok: false, reason: 'conflicting answers: A and B' });
  });
});

describe('reading numbers', () => {
  it('reads digits, proper fractions and spelled-out numbers at the start of a text', () => {
    const v = (s: string) => numberAt(s)?.value ?? null;
    expect(v('33.')).toBe(33);
    expect(v('$0.40 please')).toBe(0.4);
    expect(v('.5')).toBe(0.5);
    expect(v('-3')).toBe(-3);
    expect(v('3/4')).toBe(0.75);
    expect(v('50/50')).toBeNull();
    expect(v('Twenty')).toBe(20);
    expect(v('twenty-five')).toBe(25);
    expect(v('thirty three')).toBe(33);
    expect(v('One hundred')).toBe(100);
    expect(v('a hundred')).toBe(100);
    expect(v('zero point five')).toBe(0.5);
    expect(v('Half of the dollar')).toBe(0.5);
    expect(v('one half')).toBe(0.5);
    expect(v('two thirds')).toBeCloseTo(2 / 3);
    expect(v('three quarters')).toBe(0.75);
    expect(v('nineteen')).toBe(19);
    expect(v('many')).toBeNull();
    expect(v('a few')).toBeNull();
    expect(numberAt('twenty-five cents')?.length).toBe('twenty-five'.length);
  });
  it('lists numbers written in digits, not words inside other words', () => {
    expect(digitNumbers('I ask for 0.6, leaving 0.4 (or 2/5).').map((n) => n.value)).toEqual([0.6, 0.4, 0.4]);
    expect(digitNumbers('B2B round3 and 7').map((n) => n.value)).toEqual([7]);
  });
});

describe('reading JSON', () => {
  it('finds balanced objects, skipping braces in strings and comments and unclosed prose braces', () => {
    expect(jsonObjectSpans('x {"a": "}"} y {\'b\': \'{\'} z')).toEqual(['{"a": "}"}', "{'b': '{'}"]);
    expect(jsonObjectSpans('format {stance ... then {"stance": 1}')).toEqual(['{"stance": 1}']);
    expect(jsonObjectSpans('{"a": 1, // a } comment\n"b": 2}')).toEqual(['{"a": 1, // a } comment\n"b": 2}']);
    expect(jsonObjectSpans('{"a": 1')).toEqual([]);
  });
  it('reads what small models write for JSON, through json5', () => {
    const want = { ok: true, value: { stance: 1, reasons: 'x' } };
    expect(parseJsonObject('{"stance": 1, "reasons": "x"}')).toEqual(want);
    expect(parseJsonObject("{'stance': 1, 'reasons': 'x'}")).toEqual(want);
    expect(parseJsonObject('{stance: 1, reasons: "x",}')).toEqual(want);
    expect(parseJsonObject('{"stance": +1, "reasons": "x"} // done')).toEqual(want);
    expect(parseJsonObject('```json\n{\n  "stance": 1,\n  "reasons": "x",\n}\n```')).toEqual(want);
    expect(parseJsonObject('<think>maybe {"stance": 2}</think>{"stance": 1, "reasons": "x"}')).toEqual(want);
    expect(parseJsonObject('{"stance": <-2 to 2>} {"stance": 1, "reasons": "x"}')).toEqual(want);
  });
  it('refuses what is not one JSON object', () => {
    expect(parseJsonObject('{"stance": 1} {"stance": 2}')).toEqual({ ok: false, reason: 'more than one JSON object, and they differ' });
    expect(parseJsonObject('{"stance": 1, "reasons": "cut')).toEqual({ ok: false, reason: 'no complete JSON object (cut off?)' });
    expect(parseJsonObject('As an AI, I cannot rate people.').ok).toBe(false);
    expect(parseJsonObject('{"a": True}').ok).toBe(false);
    expect(parseJsonObject('[1, 2]').ok).toBe(false);
  });
  it('matches keys in any case, with spaces or hyphens for underscores', () => {
    expect(jsonField({ 'Social Rules': 3 }, 'social_rules')).toBe(3);
    expect(jsonField({ reason: 'x' }, 'reasons', 'reason')).toBe('x');
    expect(jsonField({}, 'a')).toBeUndefined();
  });
});

describe('reply format table', () => {
  it('names every format once and maps it to its parser', () => {
    expect(new Set(REPLY_FORMAT_NAMES).size).toBe(REPLY_FORMAT_NAMES.length);
    for (const n of REPLY_FORMAT_NAMES) {
      expect(REPLY_FORMATS[n].name).toBe(n);
      expect(REPLY_FORMATS[n].summary.length).toBeGreaterThan(10);
      for (const x of [null, undefined, 7, {}, '', '<think>']) expect(REPLY_FORMATS[n].parse(x).ok, `${n} ${String(x)}`).toBe(false);
    }
    for (const n of [
      'vote-subjective',
      'vote-objective',
      'stance-json',
      'yes-no',
      'demand',
      'number',
      'judge-json',
      'utterance',
      'word',
      'guess',
      'contribution',
    ]) {
      expect(REPLY_FORMAT_NAMES).toContain(n);
    }
  });

  // Cases found while probing for misreads: each was read wrong or accepted when it should not be.
  const p = (f: ReplyFormatName, r: string) => parseReply(f, r, { letter: 'B', wealth: 100, names: ['Mia Chen', 'Mia'] });
  it('refuses replies that offer two answers, and reads the one-answer forms', () => {
    for (const [f, r] of [
      ['yes-no', 'No, yes.'],
      ['yes-no', 'No one would say no.'],
      ['yes-no', 'Yes\nNo'],
      ['demand', '50/50'],
      ['demand', '0.5 or 50%'],
      ['demand', '0.5, maybe less.'],
      ['number', 'Twenty or thirty'],
      ['vote-subjective', 'Do you agree or disagree? I agree.'],
      ['vote-subjective', "I don't disagree."],
      ['vote-subjective', "I don't fully agree."],
      ['vote-subjective', 'Disagree. Actually, I agree.'],
      ['vote-objective', 'The answer is not A.'],
      ['vote-objective', 'Answer: A\nAnswer: B'],
      ['vote-objective', 'a good one'],
      ['stance-json', '{"stance": "+1 or +2", "reasons": "x y"}'],
      ['contribution', 'Contribution: 40%'],
      ['word', 'Bread. Or maybe butter.'],
    ] as [ReplyFormatName, string][]) {
      expect(p(f, r).ok, `${f}: ${r}`).toBe(false);
    }
    for (const [f, r, v] of [
      ['yes-no', 'Nah, not really.', false],
      ['yes-no', 'Yes, no problem.', true],
      ['vote-subjective', 'Actually, I agree.', 'Agree'],
      ['vote-subjective', 'I would not agree.', 'Disagree'],
      ['vote-objective', 'B. A is wrong.', 'B'],
      ['vote-objective', 'Option A: 14\nOption B: 20\nAnswer: A', 'A'],
      ['number', 'I will pick twenty-two.', 22],
      ['number', 'My number is 33, and my partner will pick 50.', 33],
      ['demand', 'two thirds', 2 / 3],
    ] as [ReplyFormatName, string, unknown][]) {
      expect(p(f, r), `${f}: ${r}`).toEqual({ ok: true, value: v });
    }
    expect(p('contribution', 'Reason: x\nContribution: 40 out of 100')).toEqual({ ok: true, value: { reason: 'x', amount: 40 } });
  });
});
