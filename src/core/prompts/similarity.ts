/**
 * Similarity lab formats (docs/methods/similarity.md): the cooperation games (word guessing, public goods, split the
 * dollar, Keynesian beauty contest) and the novelty tasks (brainstorm, then a final short text).
 */
import {
  agreed,
  contentLines,
  cuedNumbers,
  digitNumbers,
  fail,
  HEDGE_WORDS,
  HEDGED_NUMBER,
  ALTERNATIVE_NUMBER,
  isIntroLine,
  leadLine,
  money,
  numberAt,
  ok,
  plainQuotes,
  refusalIn,
  replyText,
  selfCorrects,
  stripMarkdown,
  unquote,
  userPrompt,
  wholeNumber,
  wordCount,
  words,
} from './shared';
import type { ChatMessage, ParseResult } from './shared';

// ---------------------------------------------------------------------------------------------------------------
// Word guessing

export function buildWordPrompt(letter: string): ChatMessage[] {
  const L = letter.toUpperCase();
  return userPrompt(`Think of a common English word that starts with the letter ${L}. Reply with the word only.`);
}

export function buildHintPrompt(word: string): ChatMessage[] {
  return userPrompt(
    `Your secret word is "${word}". Give a one-word hint that helps someone guess it. The hint must be a different word. Reply with the hint only.`,
  );
}

export function buildGuessPrompt(letter: string, hint: string): ChatMessage[] {
  const L = letter.toUpperCase();
  return userPrompt(`Someone is thinking of a word that starts with the letter ${L}. Their hint is "${hint}". Guess the word. Reply with one word only.`);
}

const WORD_LABEL =
  /^(?:(?:my|the|your)\s+)?(?:final\s+|one-word\s+|secret\s+)?(?:word|hint|guess|answer)(?:\s+(?:is|would\s+be|will\s+be)\s*:?|\s*[:=\u2013\u2014-])\s*/i;
const WORD_OFFER =
  /^(?:how\s+about|what\s+about|let's\s+go\s+with|i'll\s+go\s+with|is\s+it|could\s+it\s+be|the\s+word\s+i(?:'m|\s+am)\s+thinking\s+of\s+is:?)\s+/i;

/**
 * A single word (letters, apostrophes, hyphens) from the first answer line, after thinking, "Sure! Here's a word:",
 * "Word:"/"My guess is" labels, markdown, quotes, punctuation, and a trailing "(explanation)" or " - explanation".
 * Two words, "X or Y", "X, Y", AI disclaimers and self-corrections are refused.
 */
export function parseSingleWord(raw: unknown): ParseResult<string> {
  const r = replyText(raw);
  if (!r.ok) return r;
  const refused = refusalIn(r.value);
  if (refused) return fail(refused);
  if (selfCorrects(r.value)) return fail('the reply corrects itself: ambiguous');
  let line = leadLine(r.value).replace(WORD_LABEL, '').replace(WORD_OFFER, '');
  line = line.replace(/\s+\([^()]*\)\s*[.!]?$/, '').replace(/\s+[-\u2013\u2014]\s+.*$/, '');
  line = unquote(line)
    .replace(/[.!?,;:]+$/, '')
    .trim();
  line = unquote(line);
  if (!line) return fail('no word');
  if (!/^[A-Za-z\u00C0-\u024F]+(?:['-][A-Za-z\u00C0-\u024F]+)*$/.test(line)) {
    return fail(`not a single word: "${line.slice(0, 40)}"`);
  }
  return ok(line);
}

/** A word that starts with `letter` (case-insensitive). */
export function parseWord(raw: unknown, letter: string): ParseResult<string> {
  const w = parseSingleWord(raw);
  if (!w.ok) return w;
  if (w.value[0].toLowerCase() !== letter.toLowerCase()) return fail(`"${w.value}" does not start with ${letter.toUpperCase()}`);
  return w;
}

/** A one-word hint that is not the secret word (nor its plural). */
export function parseHint(raw: unknown, word: string): ParseResult<string> {
  const w = parseSingleWord(raw);
  if (!w.ok) return w;
  const h = w.value.toLowerCase();
  const s = word.toLowerCase();
  if (h === s) return fail('hint equals the word');
  if (h === `${s}s` || h === `${s}es` || s === `${h}s` || s === `${h}es`) return fail('hint is a plural of the word');
  return w;
}

/** A guess that starts with `letter`. */
export function parseGuess(raw: unknown, letter: string): ParseResult<string> {
  return parseWord(raw, letter);
}

/** Exact case-insensitive match. */
export function wordsMatch(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

// ---------------------------------------------------------------------------------------------------------------
// Public goods

export interface PublicGoodsRound {
  mine: number;
  theirs: number;
}

export interface PublicGoodsState {
  round: number;
  rounds: number;
  wealth: number;
  /** Contributions in earlier rounds (both are revealed after each round). */
  past?: readonly PublicGoodsRound[];
}

export const PUBLIC_GOODS_MULTIPLIER = 1.3;

export function buildPublicGoodsPrompt(s: PublicGoodsState): ChatMessage[] {
  const past = (s.past ?? []).map((r, i) => `Round ${i + 1}: you gave ${money(r.mine)}, partner gave ${money(r.theirs)}.`);
  return userPrompt(
    [
      `Public goods game with a partner, round ${s.round} of ${s.rounds}. Each of you puts some money into a pot. The pot is multiplied by ${PUBLIC_GOODS_MULTIPLIER} and split equally between you.`,
      ...past,
      `You have $${money(s.wealth)}.`,
      `Reply in two lines:\nReason: <one sentence>\nContribution: <amount from 0 to ${money(s.wealth)}>`,
    ].join('\n'),
  );
}

export interface PublicGoodsMove {
  reason: string;
  amount: number;
}

/** An amount of the player's money: a number ("$40", "fifty"), "half" (of it), "all of it", "nothing". */
function amountIn(text: string, wealth: number): { value: number } | 'vague' | null {
  const t = plainQuotes(text)
    .trim()
    .replace(/^[\s"'(]+/, '');
  if (/^(?:all(?:\s+of\s+it)?|everything|all\s+in|the\s+whole\s+amount|(?:all\s+)?my\s+(?:entire\s+)?(?:money|wealth))(?![\w-])/i.test(t))
    return { value: wealth };
  if (/^(?:nothing|none)\b/i.test(t)) return { value: 0 };
  if (HEDGED_NUMBER.test(t)) return 'vague';
  const n = numberAt(t);
  if (!n) return null;
  const after = t.slice(n.length);
  if (ALTERNATIVE_NUMBER.test(after) || /^\s*(?:%|percent\b)/i.test(after)) return 'vague';
  return { value: n.words && n.value > 0 && n.value < 1 ? n.value * wealth : n.value };
}

/**
 * Needs a "Contribution: <amount>" line (or "I will contribute <amount>") with 0 <= amount <= wealth; markdown and
 * thinking are skipped, "half" is half the player's money and "all of it" all of it; two different amounts, a range
 * or "about" are refused. The reason line is optional (empty if absent).
 */
export function parsePublicGoods(raw: unknown, wealth: number): ParseResult<PublicGoodsMove> {
  const r = replyText(raw);
  if (!r.ok) return r;
  const text = r.value;
  const refused = refusalIn(text);
  if (refused) return fail(refused);
  if (selfCorrects(text)) return fail('the reply corrects itself: ambiguous');
  const lines = contentLines(text);
  const amounts: number[] = [];
  let vague = false;
  const take = (s: string) => {
    const a = amountIn(s, wealth);
    if (a === 'vague') vague = true;
    else if (a) amounts.push(a.value);
  };
  const labelled = lines.map((l) => l.match(/(?:^|\.\s+)(?:my\s+)?contribution\s*[:=\u2013-]\s*(.*)$/i)).filter((m) => m !== null);
  for (const m of labelled) take(m[1]);
  if (labelled.length === 0) {
    const flat = plainQuotes(stripMarkdown(text));
    for (const m of flat.matchAll(/\b(?:i(?:'ll|'d|\s+will|\s+would|\s+shall)?\s+contribute|contribution(?:\s+is)?)\s+/gi))
      take(flat.slice(m.index + m[0].length));
  }
  if (vague) return fail('the amount is a range, a percentage or an estimate');
  if (amounts.length === 0) return fail('no "Contribution: <amount>" line');
  const a = agreed(amounts, 'no amount');
  if (!a.ok) return fail(a.reason);
  const amount = a.value;
  if (!Number.isFinite(amount) || amount < 0) return fail(`contribution ${amount} is negative or not a number`);
  if (amount > wealth + 1e-9) return fail(`contribution ${amount} exceeds wealth ${wealth}`);
  const reasonLine = lines.map((l) => l.match(/^(?:my\s+)?reason\s*[:=\u2013-]\s*(.+)$/i)).find((m) => m !== null);
  return ok({ reason: reasonLine ? reasonLine[1].trim() : '', amount });
}

/** Wealth update: w <- w + pot/2 - c, with pot = 1.3 (c1 + c2). */
export function publicGoodsPayoff(wealth: number, mine: number, theirs: number): number {
  return wealth + (PUBLIC_GOODS_MULTIPLIER * (mine + theirs)) / 2 - mine;
}

// ---------------------------------------------------------------------------------------------------------------
// Split the dollar

export interface SplitDollarState {
  round: number;
  rounds: number;
  past?: readonly { mine: number; theirs: number }[];
}

export function buildSplitDollarPrompt(s: SplitDollarState): ChatMessage[] {
  const past = (s.past ?? []).map((r, i) => `Round ${i + 1}: you asked ${r.mine.toFixed(2)}, partner asked ${r.theirs.toFixed(2)}.`);
  return userPrompt(
    [
      `Split the dollar with a partner, round ${s.round} of ${s.rounds}. Each of you asks for a share of $1. If the two shares add up to 1 or less, each gets its share; otherwise both get nothing.`,
      ...past,
      'Reply with your share only, a number from 0 to 1 (like 0.5).',
    ].join('\n'),
  );
}

const DEMAND_CUES =
  /\b(?:my\s+)?(?:final\s+)?(?:answer|share|demand|request|bid)(?:\s+(?:is|would\s+be|will\s+be)|\s*[:=])|\bi(?:'ll|'d|\s+will|\s+would|\s+shall)?\s+(?:ask\s+for|request|demand|take|claim|want|choose|pick|go\s+with|say)\b|\bi(?:'m|\s+am)\s+(?:asking\s+for|requesting|taking|claiming)\b|\\boxed\{/gi;
const DEMAND_UNIT = /^\s*(?:%|percent\b|per\s+cent\b|cents?\b|\u00a2)/i;
const DEMAND_TAIL = /^(?:%|percent|per\s+cent|cents?|\u00a2|dollars?|of\s+(?:the|a|my)\s+(?:dollar|pot|money)|of\s+\$?1|of\s+it)?$/i;

/** Numbers a reply gives as its answer: each cued one ("I'll ask for 0.4"), and the lead line when it is one. */
function answerNumbers(
  text: string,
  cues: RegExp,
  tail: RegExp,
  scale: (value: number, rest: string) => number,
): { values: number[]; vague: boolean; lead: string } {
  const lead = leadLine(text);
  const cued = cuedNumbers(text, cues);
  const values = cued.found.map((f) => scale(f.value, f.rest));
  const whole = wholeNumber(lead);
  if (whole && tail.test(whole.rest)) values.push(scale(whole.value, whole.rest));
  return { values, vague: cued.vague, lead };
}

/** The one number of a lead line written in digits (the embedded model's "Share: 0.4"), or why not. */
function leadDigits(lead: string): ParseResult<number> {
  const found = digitNumbers(lead);
  if (found.length === 0) return fail(HEDGE_WORDS.test(lead) ? 'not an exact number' : 'no number');
  const first = found[0];
  const after = lead.slice((first.index ?? 0) + first.length);
  if (HEDGE_WORDS.test(lead.slice(0, first.index)) || /^\W*(?:maybe|perhaps|or\s+so|or\s+less|or\s+more|ish|roughly|approximately)\b/i.test(after)) {
    return fail('not an exact number');
  }
  const nums = found.map((n) => n.value);
  if (nums.some((n) => n !== nums[0])) return fail('more than one number');
  return ok(nums[0]);
}

/**
 * One share of the dollar in [0, 1]: "0.4", "$0.40", "40%", "40 cents", "fifty cents", "1/2", "Half" (the prompt
 * asks for a share of $1, so half is 0.5), "I'll ask for 0.4"; thinking and preambles are skipped. Refused: two
 * different numbers, a range, "about"/"more than", values outside 0..1, self-corrections, AI disclaimers.
 */
export function parseDemand(raw: unknown): ParseResult<number> {
  const r = replyText(raw);
  if (!r.ok) return r;
  const refused = refusalIn(r.value);
  if (refused) return fail(refused);
  if (selfCorrects(r.value)) return fail('the reply corrects itself: ambiguous');
  const scale = (v: number, rest: string) => (DEMAND_UNIT.test(rest) ? v / 100 : v);
  const a = answerNumbers(r.value, DEMAND_CUES, DEMAND_TAIL, scale);
  if (a.vague) return fail('not an exact share');
  let v: number;
  if (a.values.length) {
    const g = agreed(a.values, 'no number');
    if (!g.ok) return fail(g.reason);
    v = g.value;
  } else {
    const d = leadDigits(a.lead);
    if (!d.ok) return d;
    v = /%|\bcents?\b|\bpercent\b/i.test(a.lead) ? d.value / 100 : d.value;
  }
  if (v < 0 || v > 1) return fail(`share ${v} outside 0..1`);
  return ok(v);
}

export function splitDollarPayoff(mine: number, theirs: number): number {
  return mine + theirs <= 1 + 1e-12 ? mine : 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Keynesian beauty contest

export interface BeautyContestState {
  round: number;
  rounds: number;
  past?: readonly { mine: number; theirs: number; target: number }[];
}

export function buildBeautyContestPrompt(s: BeautyContestState): ChatMessage[] {
  const past = (s.past ?? []).map(
    (r, i) => `Round ${i + 1}: you picked ${money(r.mine)}, partner picked ${money(r.theirs)}, target ${money(Math.round(r.target * 100) / 100)}.`,
  );
  return userPrompt(
    [
      `Number game with a partner, round ${s.round} of ${s.rounds}. Each of you picks a number from 0 to 100. The target is 2/3 of the average of the two numbers. The closer you are to the target, the more you score.`,
      ...past,
      'Reply with your number only.',
    ].join('\n'),
  );
}

const NUMBER_CUES =
  /\b(?:my\s+)?(?:final\s+)?(?:answer|number|pick|choice|guess)(?:\s+(?:is|would\s+be|will\s+be)|\s*[:=])|\bi(?:'ll|'d|\s+will|\s+would|\s+shall)?\s+(?:(?:have\s+to|must)\s+)?(?:pick|choose|select|go\s+with|guess|say|opt\s+for)\b|\bi(?:'m|\s+am)\s+(?:picking|choosing|going\s+with)\b|\\boxed\{/gi;
const NUMBER_TAIL = /^(?:is\s+my\s+(?:number|answer|pick|choice|guess))?$/i;

/**
 * One number in [0, 100]: "33", "Twenty", "twenty-five", "My number is 22.5.", "I'll go with 15" (after reasoning),
 * "\boxed{22}"; thinking and preambles are skipped. Refused: two different numbers, a range, "around 30", values
 * outside 0..100, self-corrections, AI disclaimers.
 */
export function parseBeautyNumber(raw: unknown): ParseResult<number> {
  const r = replyText(raw);
  if (!r.ok) return r;
  const refused = refusalIn(r.value);
  if (refused) return fail(refused);
  if (selfCorrects(r.value)) return fail('the reply corrects itself: ambiguous');
  const a = answerNumbers(r.value, NUMBER_CUES, NUMBER_TAIL, (v) => v);
  if (a.vague) return fail('not an exact number');
  let v: number;
  if (a.values.length) {
    const g = agreed(a.values, 'no number');
    if (!g.ok) return fail(g.reason);
    v = g.value;
  } else {
    const d = leadDigits(a.lead);
    if (!d.ok) return d;
    v = d.value;
  }
  if (v < 0 || v > 100) return fail(`number ${v} outside 0..100`);
  return ok(v);
}

/** Target (x1 + x2)/3 and score 100 - |x - target|. */
export function beautyContestScore(mine: number, theirs: number): { target: number; score: number } {
  const target = (mine + theirs) / 3;
  return { target, score: 100 - Math.abs(mine - target) };
}

// ---------------------------------------------------------------------------------------------------------------
// Novelty tasks

export type NoveltyTask = 'story' | 'biography' | 'haiku' | 'vacation';

export const NOVELTY_TASKS: Record<NoveltyTask, { brief: string; final: string; maxWords: number }> = {
  story: {
    brief: 'a very short story about a girl and her dog',
    final: 'Write a very short story (3 to 5 sentences) about a girl and her dog.',
    maxWords: 120,
  },
  biography: {
    brief: 'a short biography of an imaginary historical figure',
    final: 'Write a short biography (2 to 4 sentences) of an imaginary historical figure, with dates, profession and contribution.',
    maxWords: 100,
  },
  haiku: {
    brief: 'a haiku about a whale and a walnut tree',
    final: 'Write a haiku (three short lines) about a whale and a walnut tree.',
    maxWords: 30,
  },
  vacation: {
    brief: 'the one best thing about going on vacation',
    final: 'In one sentence, name the one best thing about going on vacation.',
    maxWords: 40,
  },
};

export function buildBrainstormPrompt(task: NoveltyTask): ChatMessage[] {
  return userPrompt(`Brainstorm ideas for ${NOVELTY_TASKS[task].brief}. Reply with 3 short ideas, one per line, each starting with "- ".`);
}

/** The final piece, from one brainstorm (solo) or the two brainstorms combined. */
export function buildFinalTextPrompt(task: NoveltyTask, brainstorms: readonly string[]): ChatMessage[] {
  const ideas = brainstorms
    .flatMap((b) => b.split('\n'))
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => (l.startsWith('- ') ? l : `- ${l.replace(/^[-*\d.)\s]+/, '')}`));
  return userPrompt(['Ideas:', ...(ideas.length ? ideas : ['(none)']), `${NOVELTY_TASKS[task].final} Reply with the text only.`].join('\n'));
}

const CLOSING_LINE = /^(?:let\s+me\s+know|i\s+hope|hope\s+(?:this|these|that)|feel\s+free|would\s+you\s+like|enjoy|happy\s+writing|good\s+luck)\b/i;

/** 1 to 8 ideas, one per line ("- ", "* " or "1." bullets, or plain lines); introductions, closings and bold go. */
export function parseBrainstorm(raw: unknown): ParseResult<string[]> {
  const r = replyText(raw);
  if (!r.ok) return r;
  const refused = refusalIn(r.value, 'text');
  if (refused) return fail(refused);
  const ideas = contentLines(r.value)
    .filter((l) => !isIntroLine(l) && !CLOSING_LINE.test(l))
    .filter((l) => !/^(?:ideas?|brainstorm)\s*:?\s*$/i.test(l))
    .map((l) => l.replace(/^(?:[-*\u2022]|\d+[.)])\s*/, '').trim())
    .filter((l) => words(l).length > 0);
  if (ideas.length === 0) return fail('no ideas');
  if (ideas.length > 8) return fail(`${ideas.length} ideas (at most 8)`);
  return ok(ideas);
}

/**
 * The final text: non-empty, within the task's word limit; a haiku has exactly three lines, a biography contains a
 * year, the vacation answer is one sentence.
 */
export function parseFinalText(raw: unknown, task: NoveltyTask): ParseResult<string> {
  const r = replyText(raw);
  if (!r.ok) return r;
  const refused = refusalIn(r.value, 'text');
  if (refused) return fail(refused);
  const lines = r.value.split('\n');
  const skip = (l: string) => !l.trim() || isIntroLine(l) || /^\s*(?:```|~~~)[\w-]*\s*$/.test(l);
  while (lines.length && skip(lines[0])) lines.shift();
  // A title ("**The Lost Ball**", "# Whale and Walnut") above the text is not part of it.
  if (lines.length > 1 && /^\s*(?:\*\*[^*]+\*\*|#{1,6}\s+.+)\s*$/.test(lines[0]) && lines.slice(1).some((l) => l.trim())) lines.shift();
  const text = stripMarkdown(lines.join('\n'))
    .trim()
    .replace(/^(?:sure|certainly|of\s+course|absolutely|okay|ok)\s*[!.,]\s+(?=[A-Z])/i, '');
  if (!text) return fail('empty reply');
  const n = wordCount(text);
  if (n < 3) return fail('too short');
  if (n > NOVELTY_TASKS[task].maxWords) return fail(`${n} words (at most ${NOVELTY_TASKS[task].maxWords})`);
  if (task === 'haiku') {
    const lines = text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    if (lines.length !== 3) return fail(`a haiku needs 3 lines, got ${lines.length}`);
    return ok(lines.join('\n'));
  }
  const flat = unquote(text.replace(/\s*\n+\s*/g, ' '));
  if (task === 'biography' && !/\b\d{3,4}\b/.test(flat)) return fail('biography without a year');
  if (task === 'vacation') {
    const sentences = flat.split(/(?<=[.!?])\s+/).filter(Boolean);
    if (sentences.length > 2) return fail('more than one sentence');
  }
  return ok(flat);
}
