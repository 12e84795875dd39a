/**
 * One table of the lab's reply formats: a stable name for each, mapped to its parser, so that tools (the CLI's
 * `parse` command, the reply corpus test) can read a reply by format name. The rules of each are in
 * docs/formats.md, "Reply formats".
 */
import { parseStanceMessage, parseVote } from './opinions';
import { parseMessage, parsePersuade, parseStanceUpdate, parseYesNo } from './polarization';
import type { PolarizationTopic } from './polarization';
import type { LabName } from '../config/lab-definition';
import {
  parseBeautyNumber,
  parseBrainstorm,
  parseDemand,
  parseFinalText,
  parseGuess,
  parseHint,
  parsePublicGoods,
  parseSingleWord,
  parseWord,
} from './similarity';
import { parseJudge, parseUtterance } from './synchrony';
import type { ParseResult } from './shared';
import { GRAMMAR_MAX_CHARS, GRAMMARS } from './grammars';

/** What some formats need besides the reply: the game's letter, the secret word, the player's money, names. */
export interface FormatParams {
  /** word, guess: the letter the word must start with (unchecked when absent). */
  letter?: string;
  /** hint: the secret word the hint must differ from (unchecked when absent). */
  word?: string;
  /** contribution: the player's money, the most it may put in (default PUBLIC_GOODS_DEFAULT_WEALTH). */
  wealth?: number;
  /** utterance: the agents' names, any of which may be echoed as a "Name:" prefix. */
  names?: readonly string[];
  /** stance-json: the topic, for its level labels (default levels when absent). */
  topic?: PolarizationTopic;
}

/** The similarity lab's starting money in the public goods game (src/labs/similarity/games.ts). */
export const PUBLIC_GOODS_DEFAULT_WEALTH = 100;

export interface ReplyFormat {
  name: string;
  lab: LabName;
  /** What the reply answers and what the parser returns, in one line. */
  summary: string;
  /** The FormatParams the parser uses. */
  params: readonly (keyof FormatParams)[];
  parse(raw: unknown, params?: FormatParams): ParseResult<unknown>;
  /** For constrained decoding: an EBNF grammar whose every reply the parser reads (src/core/prompts/grammars.ts). */
  grammar?(params?: FormatParams): string;
  /** With a grammar: the longest reply it admits, in characters (GRAMMAR_MAX_CHARS). */
  maxReplyChars?(params?: FormatParams): number;
}

/** What a constrained ask needs: the grammar, and a token budget that covers its longest reply. */
export interface ConstrainedReply {
  grammar: string;
  /** The longest reply at one character a token, and the end. */
  minTokens: number;
}

/** The format's grammar and the budget its longest reply needs; undefined for a free-text format. */
export function constrainedReply(name: ReplyFormatName, params?: FormatParams): ConstrainedReply | undefined {
  const f = REPLY_FORMATS[name];
  if (!f.grammar || !f.maxReplyChars) return undefined;
  return { grammar: f.grammar(params), minTokens: f.maxReplyChars(params) + 1 };
}

const FORMATS = [
  {
    name: 'vote-subjective',
    lab: 'opinions',
    summary: 'Agree or Disagree with a statement → "Agree" | "Disagree"',
    params: [],
    parse: (r) => parseVote(r, 'subjective'),
    grammar: GRAMMARS.voteSubjective,
    maxReplyChars: GRAMMAR_MAX_CHARS.voteSubjective,
  },
  {
    name: 'vote-objective',
    lab: 'opinions',
    summary: 'the letter of a two-option question → "A" | "B"',
    params: [],
    parse: (r) => parseVote(r, 'objective'),
    grammar: GRAMMARS.voteObjective,
    maxReplyChars: GRAMMAR_MAX_CHARS.voteObjective,
  },
  {
    name: 'stance-message-subjective',
    lab: 'opinions',
    summary: 'one sentence, stance plus reason ("I agree because …") → {text, stance, reason}',
    params: [],
    parse: (r) => parseStanceMessage(r, 'subjective'),
  },
  {
    name: 'stance-message-objective',
    lab: 'opinions',
    summary: 'one sentence, letter plus reason ("I choose A because …") → {text, stance, reason}',
    params: [],
    parse: (r) => parseStanceMessage(r, 'objective'),
  },
  {
    name: 'stance-json',
    lab: 'polarization',
    summary: 'JSON {"stance": -2..2, "reasons": "…"} → {stance, reasons}',
    params: ['topic'],
    parse: (r, p) => parseStanceUpdate(r, p?.topic),
    grammar: GRAMMARS.stanceJson,
    maxReplyChars: GRAMMAR_MAX_CHARS.stanceJson,
  },
  {
    name: 'yes-no',
    lab: 'polarization',
    summary: 'yes or no (keep talking; does a text fit the stance) → true | false',
    params: [],
    parse: (r) => parseYesNo(r),
    grammar: GRAMMARS.yesNo,
    maxReplyChars: GRAMMAR_MAX_CHARS.yesNo,
  },
  {
    name: 'persuade',
    lab: 'polarization',
    summary: '"No", or "Yes:" and a message of 8..110 words → {send, message}',
    params: [],
    parse: (r) => parsePersuade(r),
  },
  { name: 'post', lab: 'polarization', summary: 'a post or message of 8..110 words → the text as one paragraph', params: [], parse: (r) => parseMessage(r) },
  {
    name: 'word',
    lab: 'similarity',
    summary: 'one word starting with the letter → the word',
    params: ['letter'],
    parse: (r, p) => (p?.letter ? parseWord(r, p.letter) : parseSingleWord(r)),
    grammar: (p) => GRAMMARS.word(p?.letter),
    maxReplyChars: () => GRAMMAR_MAX_CHARS.word(),
  },
  {
    name: 'hint',
    lab: 'similarity',
    summary: 'a one-word hint other than the secret word → the hint',
    params: ['word'],
    parse: (r, p) => (p?.word ? parseHint(r, p.word) : parseSingleWord(r)),
    grammar: (p) => GRAMMARS.hint(p?.word),
    maxReplyChars: () => GRAMMAR_MAX_CHARS.hint(),
  },
  {
    name: 'guess',
    lab: 'similarity',
    summary: 'a one-word guess starting with the letter → the guess',
    params: ['letter'],
    parse: (r, p) => (p?.letter ? parseGuess(r, p.letter) : parseSingleWord(r)),
    grammar: (p) => GRAMMARS.word(p?.letter),
    maxReplyChars: () => GRAMMAR_MAX_CHARS.word(),
  },
  {
    name: 'contribution',
    lab: 'similarity',
    summary: 'public goods: "Reason: …" and "Contribution: <0..wealth>" → {reason, amount}',
    params: ['wealth'],
    parse: (r, p) => parsePublicGoods(r, p?.wealth ?? PUBLIC_GOODS_DEFAULT_WEALTH),
    grammar: (p) => GRAMMARS.contribution(p?.wealth ?? PUBLIC_GOODS_DEFAULT_WEALTH),
    maxReplyChars: (p) => GRAMMAR_MAX_CHARS.contribution(p?.wealth ?? PUBLIC_GOODS_DEFAULT_WEALTH),
  },
  {
    name: 'demand',
    lab: 'similarity',
    summary: 'split the dollar: a share of $1 in 0..1 → the share',
    params: [],
    parse: (r) => parseDemand(r),
    grammar: GRAMMARS.demand,
    maxReplyChars: GRAMMAR_MAX_CHARS.demand,
  },
  {
    name: 'number',
    lab: 'similarity',
    summary: 'number game: a number in 0..100 → the number',
    params: [],
    parse: (r) => parseBeautyNumber(r),
    grammar: GRAMMARS.number,
    maxReplyChars: GRAMMAR_MAX_CHARS.number,
  },
  { name: 'brainstorm', lab: 'similarity', summary: '1 to 8 ideas, one per line → the ideas', params: [], parse: (r) => parseBrainstorm(r) },
  {
    name: 'final-story',
    lab: 'similarity',
    summary: 'a very short story (at most 120 words) → the text',
    params: [],
    parse: (r) => parseFinalText(r, 'story'),
  },
  {
    name: 'final-biography',
    lab: 'similarity',
    summary: 'a short biography with a year (at most 100 words) → the text',
    params: [],
    parse: (r) => parseFinalText(r, 'biography'),
  },
  { name: 'final-haiku', lab: 'similarity', summary: 'a haiku of exactly three lines → the lines', params: [], parse: (r) => parseFinalText(r, 'haiku') },
  {
    name: 'final-vacation',
    lab: 'similarity',
    summary: 'one sentence on the best thing about vacation → the sentence',
    params: [],
    parse: (r) => parseFinalText(r, 'vacation'),
  },
  {
    name: 'utterance',
    lab: 'synchrony',
    summary: 'one in-character line of dialogue → {text, leaves}',
    params: ['names'],
    parse: (r, p) => parseUtterance(r, p?.names ?? []),
  },
  {
    name: 'judge-json',
    lab: 'synchrony',
    summary: 'JSON with the 7 SOTOPIA dimensions, each {score, reason} → the scores',
    params: [],
    parse: (r) => parseJudge(r),
    grammar: GRAMMARS.judgeJson,
    maxReplyChars: GRAMMAR_MAX_CHARS.judgeJson,
  },
] as const satisfies readonly ReplyFormat[];

export type ReplyFormatName = (typeof FORMATS)[number]['name'];

/** Every reply format by name, in the order the docs list them. */
export const REPLY_FORMATS: Readonly<Record<ReplyFormatName, ReplyFormat>> = Object.freeze(
  Object.fromEntries(FORMATS.map((f): [string, ReplyFormat] => [f.name, f])) as Record<ReplyFormatName, ReplyFormat>,
);

export const REPLY_FORMAT_NAMES: readonly ReplyFormatName[] = FORMATS.map((f) => f.name);

export function isReplyFormatName(name: string): name is ReplyFormatName {
  return Object.hasOwn(REPLY_FORMATS, name);
}

/** Reads one reply in a named format; never throws. */
export function parseReply(name: ReplyFormatName, raw: unknown, params?: FormatParams): ParseResult<unknown> {
  return REPLY_FORMATS[name].parse(raw, params);
}
