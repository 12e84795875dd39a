import { describe, expect, it } from 'vitest';
import { MAX_PROBE_CHARS, PROBE_SET_NAMES, builtinProbes, probeSetSummary, selectProbes, splitProbeLines } from '../../src/labs/similarity/probes';
import { fourGramOverlap, fourGrams, wordCount } from '../../src/labs/similarity/probes-generated';
import { HAND_PARAGRAPHS } from '../../src/labs/similarity/probes-paragraphs';
import { ARITHMETIC_PER_TEMPLATE, ARITHMETIC_TEMPLATES, BUILTIN_QUESTIONS, type ArithmeticQuestion } from '../../src/labs/similarity/probes-questions';

/** Largest shared-4-gram fraction (of the smaller text's 4-grams) over all pairs. */
function maxOverlap(texts: readonly string[]): { value: number; a: string; b: string } {
  const grams = texts.map(fourGrams);
  let best = { value: 0, a: '', b: '' };
  for (let i = 0; i < grams.length; i++) {
    for (let j = i + 1; j < grams.length; j++) {
      const v = fourGramOverlap(grams[i], grams[j]);
      if (v > best.value) best = { value: v, a: texts[i], b: texts[j] };
    }
  }
  return best;
}

const NEAR_DUPLICATE = 0.6;
const TEMPLATE_TOKENS = ['<|im_start|>', '<|im_end|>', '<|endoftext|>', '<|', '|>'];

describe('built-in paragraphs', () => {
  const paragraphs = builtinProbes('builtin-paragraphs');

  it('has at least 240 distinct paragraphs, hand-written ones first', () => {
    expect(paragraphs.length).toBeGreaterThanOrEqual(240);
    expect(new Set(paragraphs).size).toBe(paragraphs.length);
    expect(HAND_PARAGRAPHS.length).toBeGreaterThanOrEqual(150);
    expect(paragraphs.slice(0, HAND_PARAGRAPHS.length)).toEqual(HAND_PARAGRAPHS);
  });

  it('every paragraph has 35–90 words and reads as sentences', () => {
    for (const p of paragraphs) {
      const n = wordCount(p);
      expect(n, p).toBeGreaterThanOrEqual(35);
      expect(n, p).toBeLessThanOrEqual(90);
      expect(p, p).toMatch(/^[A-Z]/);
      expect(p, p).toMatch(/[.!?]$/);
      expect(p, p).not.toMatch(/\s{2}|undefined|NaN|\$\{/);
    }
  });

  it(`no two paragraphs share more than ${NEAR_DUPLICATE * 100} % of their word 4-grams`, () => {
    const worst = maxOverlap(paragraphs);
    expect(worst.value, `${worst.a}\n---\n${worst.b}`).toBeLessThanOrEqual(NEAR_DUPLICATE);
  });

  it('is the same list on every call (fixed order)', () => {
    expect(builtinProbes('builtin-paragraphs')).toEqual(paragraphs);
  });
});

describe('built-in questions', () => {
  const questions = builtinProbes('builtin-questions');
  const byKind = (k: string) => BUILTIN_QUESTIONS.filter((q) => q.kind === k);

  it('has at least 240 distinct questions, roughly a third of each kind', () => {
    expect(questions.length).toBeGreaterThanOrEqual(240);
    expect(questions).toEqual(BUILTIN_QUESTIONS.map((q) => q.question));
    expect(new Set(questions.map((q) => q.toLowerCase())).size).toBe(questions.length);
    for (const kind of ['arithmetic', 'math', 'misconception']) {
      const share = byKind(kind).length / questions.length;
      expect(share, kind).toBeGreaterThan(0.28);
      expect(share, kind).toBeLessThan(0.39);
    }
  });

  it('every question ends with a question mark or full stop and has an answer', () => {
    for (const q of BUILTIN_QUESTIONS) {
      expect(q.question, q.question).toMatch(/^[A-Z].*[?.]$/);
      expect(q.question, q.question).not.toMatch(/undefined|NaN|\$\{/);
      if (q.kind === 'arithmetic') expect(Number.isInteger(q.answer), q.question).toBe(true);
      else expect(q.answer.trim().length, q.question).toBeGreaterThan(0);
    }
  });

  it('arithmetic answers recompute from the numbers in the question', () => {
    const arithmetic = byKind('arithmetic') as ArithmeticQuestion[];
    expect(arithmetic.length).toBe(ARITHMETIC_TEMPLATES.length * ARITHMETIC_PER_TEMPLATE);
    // Independent re-derivation of each template's answer from its operands.
    const recompute: Record<string, (o: Record<string, number>) => number> = {
      notebooks: (o) => o.count * o.price + o.extra,
      trays: (o) => o.trays * o.perTray - o.sold,
      train: (o) => o.speed1 * o.hours1 + o.speed2 * o.hours2,
      savings: (o) => o.weekly * o.weeks - o.spent,
      sharing: (o) => o.total / o.friends,
      fence: (o) => 2 * o.length + 2 * o.width,
      discount: (o) => o.price - (o.price * o.percent) / 100,
      ages: (o) => o.age * o.times + o.years,
      pages: (o) => o.total - o.days * o.perDay,
      legs: (o) => o.birds * 2 + o.fourLegged * 4,
      practice: (o) => o.weekday * 5 + o.saturday,
      boxes: (o) => (o.perBox * o.boxes) / o.classes,
      fuel: (o) => (o.km / 100) * o.per100,
      tickets: (o) => o.adultPrice * o.adults + o.childPrice * o.children,
    };
    expect(Object.keys(recompute).sort()).toEqual(ARITHMETIC_TEMPLATES.map((t) => t.id).sort());
    for (const q of arithmetic) {
      const expected = recompute[q.template](q.operands as Record<string, number>);
      expect(q.answer, q.question).toBe(expected);
      expect(Number.isInteger(q.answer) && q.answer > 0, q.question).toBe(true);
      // Every operand that the question states is really in the text.
      const numbersInText = new Set((q.question.match(/\d+/g) ?? []).map(Number));
      for (const [name, v] of Object.entries(q.operands)) {
        if (numbersInText.has(v)) continue;
        throw new Error(`operand ${name}=${v} missing from: ${q.question}`);
      }
    }
  });

  it(`no two questions share more than ${NEAR_DUPLICATE * 100} % of their word 4-grams`, () => {
    const worst = maxOverlap(questions);
    expect(worst.value, `${worst.a}\n---\n${worst.b}`).toBeLessThanOrEqual(NEAR_DUPLICATE);
  });
});

describe('every built-in probe', () => {
  it('has no chat-template tokens, newlines or tabs', () => {
    for (const set of PROBE_SET_NAMES) {
      for (const p of builtinProbes(set)) {
        for (const t of TEMPLATE_TOKENS) expect(p.includes(t), `${set}: ${p}`).toBe(false);
        expect(p, `${set}: ${p}`).not.toMatch(/[\r\n\t]/);
        expect(p).toBe(p.trim());
        expect(p.length).toBeLessThanOrEqual(MAX_PROBE_CHARS);
      }
    }
  });
});

describe('selectProbes', () => {
  it('built-in sets: a seeded subset without replacement, same seed → same probes', () => {
    for (const set of PROBE_SET_NAMES) {
      const a = selectProbes(set, 64, 7);
      const b = selectProbes(set, 64, 7);
      expect(a.error).toBeUndefined();
      expect(a.probes).toHaveLength(64);
      expect(b.probes).toEqual(a.probes);
      expect(new Set(a.probes).size).toBe(64);
      const all = new Set(builtinProbes(set));
      for (const p of a.probes) expect(all.has(p)).toBe(true);
    }
  });

  it('different seeds give different subsets', () => {
    const a = new Set(selectProbes('builtin-paragraphs', 64, 1).probes);
    const b = selectProbes('builtin-paragraphs', 64, 2).probes;
    const shared = b.filter((p) => a.has(p)).length;
    expect(shared).toBeLessThan(48);
    expect(selectProbes('builtin-questions', 32, 1).probes).not.toEqual(selectProbes('builtin-questions', 32, 2).probes);
  });

  it('a larger count from the same seed extends the smaller selection', () => {
    const small = selectProbes('builtin-questions', 20, 42).probes;
    const large = selectProbes('builtin-questions', 100, 42).probes;
    expect(large.slice(0, 20)).toEqual(small);
  });

  it('the whole set can be taken, and is a permutation of it', () => {
    const all = builtinProbes('builtin-questions');
    const r = selectProbes('builtin-questions', all.length, 3);
    expect(r.error).toBeUndefined();
    expect([...r.probes].sort()).toEqual([...all].sort());
  });

  it('mixed questions: a 64-probe draw contains all three kinds', () => {
    const kindOf = new Map(BUILTIN_QUESTIONS.map((q) => [q.question, q.kind]));
    const kinds = new Set(selectProbes('builtin-questions', 64, 11).probes.map((p) => kindOf.get(p)));
    expect(kinds).toEqual(new Set(['arithmetic', 'math', 'misconception']));
  });

  it('errors when a built-in set is smaller than count, saying how many there are', () => {
    const n = builtinProbes('builtin-paragraphs').length;
    const r = selectProbes('builtin-paragraphs', 2000, 0);
    expect(r.probes).toEqual([]);
    expect(r.error).toContain(String(n));
    expect(r.error).toContain('2000');
  });

  it('errors on a count that is not a positive integer', () => {
    expect(selectProbes('builtin-questions', 0, 0).error).toMatch(/at least 1/);
    expect(selectProbes('builtin-questions', 2.5, 0).error).toMatch(/whole number/);
  });

  it('custom: trimmed, blank entries dropped, order kept, first count taken', () => {
    const custom = ['  first probe ', '', '   ', 'second probe', '\tthird probe\n', 'fourth probe', 'fifth probe'];
    const r = selectProbes('custom', 4, 99, custom);
    expect(r.error).toBeUndefined();
    expect(r.probes).toEqual(['first probe', 'second probe', 'third probe', 'fourth probe']);
    // The seed does not matter for custom lists.
    expect(selectProbes('custom', 4, 1, custom).probes).toEqual(r.probes);
  });

  it('custom: errors on too few, none, or over-long probes', () => {
    const few = selectProbes('custom', 5, 0, ['a', ' ', 'b', 'c']);
    expect(few.probes).toEqual([]);
    expect(few.error).toMatch(/has 3 non-empty probes/);
    expect(few.error).toContain('5');

    expect(selectProbes('custom', 4, 0, ['', '  ']).error).toMatch(/empty/);
    expect(selectProbes('custom', 4, 0).error).toMatch(/empty/);

    const long = 'x'.repeat(MAX_PROBE_CHARS + 1);
    const tooLong = selectProbes('custom', 2, 0, ['fine', long, 'also fine']);
    expect(tooLong.probes).toEqual([]);
    expect(tooLong.error).toMatch(/probe 2 .*2001 characters.*2000/);
    // Exactly at the limit is accepted.
    expect(selectProbes('custom', 1, 0, ['y'.repeat(MAX_PROBE_CHARS)]).error).toBeUndefined();
  });

  it('splitProbeLines turns pasted text into one probe per non-blank line', () => {
    expect(splitProbeLines('one\r\n\n  two  \rthree\n')).toEqual(['one', 'two', 'three']);
  });
});

describe('probeSetSummary', () => {
  it('gives the size and a description for each set', () => {
    for (const set of PROBE_SET_NAMES) {
      const s = probeSetSummary(set);
      expect(s.size).toBe(builtinProbes(set).length);
      expect(s.description).toContain(String(s.size));
    }
    expect(probeSetSummary('builtin-questions').description).toMatch(/\d+ arithmetic .*\d+ short maths .*\d+ questions about common misconceptions/);
    const c = probeSetSummary('custom');
    expect(c.size).toBe(0);
    expect(c.description).toMatch(/one per line/);
  });
});
