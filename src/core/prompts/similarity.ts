/**
 * Similarity lab formats (docs/methods/similarity.md): the cooperation games (word guessing, public goods, split the
 * dollar, Keynesian beauty contest) and the novelty tasks (brainstorm, then a final short text).
 */
import { cleanReply, fail, firstLine, money, numbersIn, ok, unquote, userPrompt, wordCount, words } from './shared';
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
  return userPrompt(
    `Someone is thinking of a word that starts with the letter ${L}. Their hint is "${hint}". Guess the word. Reply with one word only.`,
  );
}

/** A single word (letters, apostrophes, hyphens), after stripping "Word:"-style prefixes, quotes and punctuation. */
export function parseSingleWord(raw: unknown): ParseResult<string> {
  const text = cleanReply(raw);
  if (!text) return fail('empty reply');
  let line = firstLine(text).replace(/[*_`]/g, '');
  line = line.replace(/^(?:my\s+)?(?:word|hint|guess|answer)(?:\s+is\s*:?|\s*[:=-])\s*/i, '');
  line = unquote(line).replace(/[.!?,;:]+$/, '').trim();
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

/** Needs a "Contribution: <number>" line with 0 <= amount <= wealth; the reason line is optional (empty if absent). */
export function parsePublicGoods(raw: unknown, wealth: number): ParseResult<PublicGoodsMove> {
  const text = cleanReply(raw);
  if (!text) return fail('empty reply');
  const c = text.match(/contribut(?:ion|e)\s*[:=]?\s*\$?\s*(-?\d+(?:\.\d+)?)/i);
  if (!c) return fail('no "Contribution: <amount>" line');
  const amount = Number(c[1]);
  if (!Number.isFinite(amount) || amount < 0) return fail(`contribution ${c[1]} is negative or not a number`);
  if (amount > wealth + 1e-9) return fail(`contribution ${amount} exceeds wealth ${wealth}`);
  const r = text.match(/reason\s*[:=]\s*(.+)/i);
  return ok({ reason: r ? r[1].trim() : '', amount });
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
  const past = (s.past ?? []).map(
    (r, i) => `Round ${i + 1}: you asked ${r.mine.toFixed(2)}, partner asked ${r.theirs.toFixed(2)}.`,
  );
  return userPrompt(
    [
      `Split the dollar with a partner, round ${s.round} of ${s.rounds}. Each of you asks for a share of $1. If the two shares add up to 1 or less, each gets its share; otherwise both get nothing.`,
      ...past,
      'Reply with your share only, a number from 0 to 1 (like 0.5).',
    ].join('\n'),
  );
}

/** One number in [0, 1]; "$0.40", "0.4", "Share: 0.4", "40%", "40 cents" are accepted. Several numbers: rejected. */
export function parseDemand(raw: unknown): ParseResult<number> {
  const text = cleanReply(raw);
  if (!text) return fail('empty reply');
  const line = firstLine(text);
  const nums = numbersIn(line);
  if (nums.length === 0) return fail('no number');
  if (nums.length > 1 && !nums.every((n) => n === nums[0])) return fail('more than one number');
  let v = nums[0];
  if (/%|\bcents?\b|\bpercent\b/i.test(line)) v = v / 100;
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

/** One number in [0, 100]. */
export function parseBeautyNumber(raw: unknown): ParseResult<number> {
  const text = cleanReply(raw);
  if (!text) return fail('empty reply');
  const nums = numbersIn(firstLine(text));
  if (nums.length === 0) return fail('no number');
  if (nums.length > 1 && !nums.every((n) => n === nums[0])) return fail('more than one number');
  const v = nums[0];
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
  return userPrompt(
    `Brainstorm ideas for ${NOVELTY_TASKS[task].brief}. Reply with 3 short ideas, one per line, each starting with "- ".`,
  );
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

/** 1 to 8 ideas, one per line ("- ", "* " or "1." bullets, or plain lines). */
export function parseBrainstorm(raw: unknown): ParseResult<string[]> {
  const text = cleanReply(raw);
  if (!text) return fail('empty reply');
  const ideas = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
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
  const text = cleanReply(raw)
    .replace(/^(?:here is|here's)[^\n]*:\s*\n/i, '')
    .trim();
  if (!text) return fail('empty reply');
  const n = wordCount(text);
  if (n < 3) return fail('too short');
  if (n > NOVELTY_TASKS[task].maxWords) return fail(`${n} words (at most ${NOVELTY_TASKS[task].maxWords})`);
  if (task === 'haiku') {
    const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
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
