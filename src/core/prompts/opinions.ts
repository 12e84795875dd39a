/**
 * Opinions lab formats (docs/methods/opinions.md): the t=0 vote, the vote given friendly and unfriendly inboxes,
 * and the one-sentence stance-plus-reason message.
 */
import {
  agreed,
  bulletList,
  contentLines,
  fail,
  isIntroLine,
  leadLine,
  ok,
  plainQuotes,
  refusalIn,
  replyText,
  selfCorrects,
  stripMarkdown,
  stripPreamble,
  tail,
  unquote,
  userPrompt,
} from './shared';
import type { ChatMessage, ParseResult } from './shared';

export interface ObjectiveQuestion {
  kind: 'objective';
  problem: string;
  /** Answer texts for A and B (the lab places the correct one at random). */
  options: { A: string; B: string };
}

export interface SubjectiveQuestion {
  kind: 'subjective';
  statement: string;
}

export type OpinionQuestion = ObjectiveQuestion | SubjectiveQuestion;

export type Vote = 'A' | 'B' | 'Agree' | 'Disagree';

/** Objective personas: "an expert who has solved this other problem", with its worked solution. */
export interface ExpertPersona {
  otherProblem: string;
  solution: string;
}

/** A persona is free text (subjective questions) or an expert with a worked solution (objective questions). */
export type OpinionPersona = string | ExpertPersona;

/** Spin: A and Agree are +1, B and Disagree are -1. */
export function voteSpin(v: Vote): 1 | -1 {
  return v === 'A' || v === 'Agree' ? 1 : -1;
}

export function personaText(p: OpinionPersona): string {
  if (typeof p === 'string') return p.trim();
  return `You are an expert who has solved this other problem: ${p.otherProblem}\nYour solution: ${p.solution}`;
}

function questionText(q: OpinionQuestion): string {
  if (q.kind === 'objective') return `Question: ${q.problem}\nA: ${q.options.A}\nB: ${q.options.B}`;
  return `Statement: ${q.statement}`;
}

function voteInstruction(q: OpinionQuestion): string {
  return q.kind === 'objective' ? 'Reply with one letter: A or B.' : 'Do you agree or disagree? Reply with one word: Agree or Disagree.';
}

/** Round t = 0: persona and question only, no reasoning. */
export function buildInitialVotePrompt(persona: OpinionPersona, q: OpinionQuestion): ChatMessage[] {
  return userPrompt([personaText(persona), questionText(q), voteInstruction(q)].join('\n'));
}

/** Maximum characters kept per inbox (the last ones). */
export const INBOX_MAX_CHARS = 600;

/** Round t >= 1: persona, question, and the latest messages from friendly and unfriendly neighbours. */
export function buildInboxVotePrompt(persona: OpinionPersona, q: OpinionQuestion, friendly: readonly string[], unfriendly: readonly string[]): ChatMessage[] {
  const cap = (xs: readonly string[]): string => {
    const s = bulletList(xs);
    return s.length > INBOX_MAX_CHARS ? tail(s, INBOX_MAX_CHARS) : s;
  };
  return userPrompt(
    [
      personaText(persona),
      questionText(q),
      'Messages from people you tend to agree with:',
      cap(friendly),
      'Messages from people you tend to disagree with:',
      cap(unfriendly),
      voteInstruction(q),
    ].join('\n'),
  );
}

/** The message a neighbour will read: stance plus one reason, one sentence. `current` is the agent's last vote. */
export function buildStanceMessagePrompt(persona: OpinionPersona, q: OpinionQuestion, current?: Vote): ChatMessage[] {
  const cur = current ? `Your current answer: ${current}.` : '';
  const how =
    q.kind === 'objective'
      ? 'Write one short sentence to your neighbours with your answer (A or B) and one reason, like: I choose A because ...'
      : 'Write one short sentence to your neighbours with your stance and one reason, like: I agree because ...';
  return userPrompt([personaText(persona), questionText(q), cur, how].filter(Boolean).join('\n'));
}

// ---------------------------------------------------------------------------------------------------------------
// Reading votes and stance messages. Every place a reply states an answer is read (the first line, "the answer
// is B", "I strongly agree", "\boxed{A}"); they must all agree, and a reply that offers two ("A or B", "I agree and
// disagree") or corrects itself is refused.

const ADVERBS =
  '(?:(?:strongly|completely|fully|totally|somewhat|mostly|generally|absolutely|definitely|wholeheartedly|really|largely|firmly|entirely|still|also|actually|personally|respectfully|slightly|mildly|do|would|will|must|kind\\s+of|sort\\s+of|tend\\s+to|have\\s+to|can\\s+only|am\\s+going\\s+to)\\s+)*';
const AGREE_I = new RegExp(`\\bi(?:'d|'ll)?\\s+${ADVERBS}(agree|disagree)\\b`, 'gi');
const AGREE_NOT =
  /\bi\s+(?:do\s+not|don't|dont|would\s+not|wouldn't|can\s*not|can't|could\s+not|couldn't|will\s+not|won't)\s+(?:really\s+)?agree\b(?!\s+more)/gi;
const AGREE_MORE = /\bi\s+(?:could\s+not|couldn't|can\s*not|can't)\s+agree\s+more\b/gi;
const AGREE_LEAD = new RegExp(`^["'\\[(]*${ADVERBS}(agree|disagree|agreed)\\b`, 'i');
const AGREE_LABEL = new RegExp(
  `\\b(?:answer|vote|choice|stance|response|position|decision)\\s*(?:is|would\\s+be|:|=|-)\\s*${ADVERBS}(agree|disagree)\\b`,
  'gi',
);
const AGREE_ALSO = new RegExp(`(?:\\b(?:but|and|yet|or)|\\/)\\s*(?:i\\s+)?${ADVERBS}(agree|disagree)\\b`, 'gi');
const AGREE_NEITHER = /\bneither\s+(?:\w+\s+)?agree\s+nor\s+disagree\b/i;
const AGREE_PARTIAL = /\b(?:partially|partly|in\s+part|half)\s+(?:agree|disagree)\b/i;

const asVote = (w: string): Vote => (w.toLowerCase().startsWith('dis') ? 'Disagree' : 'Agree');

/** Every Agree/Disagree a text states in the first person, at a line start or after a label; null when it hedges. */
function subjectiveVotes(text: string): Vote[] | null {
  const t = plainQuotes(stripMarkdown(text));
  if (AGREE_NEITHER.test(t) || AGREE_PARTIAL.test(t)) return null;
  const found: Vote[] = [];
  for (const re of [AGREE_I, AGREE_LABEL, AGREE_ALSO]) for (const m of t.matchAll(re)) found.push(asVote(m[1]));
  for (const _ of t.matchAll(AGREE_NOT)) found.push('Disagree');
  for (const _ of t.matchAll(AGREE_MORE)) found.push('Agree');
  for (const line of contentLines(t)) {
    for (const sentence of stripPreamble(line).split(/(?<=[.!?])\s+/)) {
      const m = stripPreamble(sentence).match(AGREE_LEAD);
      if (m) found.push(asVote(m[1]));
    }
  }
  return found;
}

const LETTER = "\\(?([AB])\\)?(?![\\w'])";
const LETTER_CUES = [
  new RegExp(`\\b(?:answer|choice|option|vote|pick|selection)(?:\\s+(?:is|would\\s+be|will\\s+be)\\s*:?|\\s*[:=])\\s*(?:option\\s+)?${LETTER}`, 'gi'),
  new RegExp(
    `\\bi(?:'ll|'d|\\s+will|\\s+would|\\s+shall)?\\s+(?:(?:have\\s+to|must)\\s+)?(?:choose|chose|pick|picked|select|go\\s+with|vote\\s+for|voted\\s+for|opt\\s+for|say|think\\s+it(?:'s|\\s+is))\\s+(?:option\\s+|answer\\s+)?${LETTER}`,
    'gi',
  ),
  new RegExp(
    `\\bi(?:'m|\\s+am)\\s+(?:going\\s+with|going\\s+to\\s+(?:go\\s+with|choose|pick|say)|choosing|picking|voting\\s+for|selecting|sticking\\s+with)\\s+(?:option\\s+)?${LETTER}`,
    'gi',
  ),
  new RegExp(`\\b(?:that|it|this)(?:'s|\\s+is|\\s+would\\s+be)\\s+(?:option\\s+|answer\\s+|choice\\s+)${LETTER}`, 'gi'),
  new RegExp(`(?:^|[^\\w])(?:option\\s+)?${LETTER}\\s+is\\s+(?:the\\s+)?(?:correct|right|best|true)\\b`, 'gi'),
  /\\boxed\{\s*(?:\\text\{\s*)?([AB])\s*\}/g,
];
const LETTER_ALTERNATIVES = /\b([AB])\)?\s*(?:or|\/|and|&)\s*(?:option\s+)?\(?([AB])\b/;
const LETTER_LEAD =
  /^["']?(?:option\s+)?\(?([AaBb])\)?(?:[.!:)\]"']|\s*$|\s+(?:because|since|as|[-\u2013\u2014(]|\d)|\s+is\s+(?!not\b|incorrect|wrong|false))/i;

/** Every A/B a text states after a cue; with `lead`, also the letter that opens its first answer line. */
function objectiveVotes(text: string, lead: string | null): Vote[] | null {
  const t = plainQuotes(stripMarkdown(text));
  const alt = t.match(LETTER_ALTERNATIVES);
  if (alt && alt[1] !== alt[2]) return null;
  const found: Vote[] = [];
  for (const re of LETTER_CUES) for (const m of t.matchAll(re)) if (m[1] === 'A' || m[1] === 'B') found.push(m[1]);
  const m = lead === null ? null : lead.match(LETTER_LEAD);
  if (m) found.push(m[1].toUpperCase() as Vote);
  return found;
}

/**
 * A vote: A or B (objective), Agree or Disagree (subjective), however it is wrapped: thinking, "Sure! My answer:",
 * "The answer is B.", "**Agree**", "I strongly disagree", "\boxed{A}", an explanation after it. Refused: no answer,
 * two answers ("A or B", "I agree with part of it, but I disagree with the rest"), "neither", a partial stance, a
 * reply that corrects itself, and AI disclaimers.
 */
export function parseVote(raw: unknown, kind: OpinionQuestion['kind']): ParseResult<Vote> {
  const r = replyText(raw);
  if (!r.ok) return r;
  const text = r.value;
  const refused = refusalIn(text);
  if (refused) return fail(refused);
  if (selfCorrects(text)) return fail('the reply corrects itself: ambiguous');
  const lead = leadLine(text);
  const votes = kind === 'objective' ? objectiveVotes(text, lead) : subjectiveVotes(text);
  if (votes === null) return fail(kind === 'objective' ? 'ambiguous answer: both letters offered' : 'ambiguous answer: neither or partly');
  const none = kind === 'objective' ? `not a single letter A or B: "${lead.slice(0, 40)}"` : `not Agree or Disagree: "${lead.slice(0, 40)}"`;
  const v = agreed(votes, none);
  return v.ok ? v : fail(v.reason.startsWith('conflicting') ? `ambiguous answer (${v.reason})` : v.reason);
}

export interface StanceMessage {
  /** The sentence to deliver (first line, unquoted). */
  text: string;
  stance: Vote;
  reason: string;
}

/** Finds the stance in a message: "I choose A", "my answer is B", "I agree", "I don't agree", leading "A:"/"Agree:". */
export function stanceIn(text: string, kind: OpinionQuestion['kind']): Vote | null {
  const t = plainQuotes(text);
  const votes = kind === 'objective' ? objectiveVotes(t, t.match(/^\(?[AB]\)?\s*[:.,-]/) ? t : null) : subjectiveVotes(t);
  if (!votes || votes.length === 0) return null;
  return votes.every((v) => v === votes[0]) ? votes[0] : null;
}

/** The message's line: the first that is not an introduction ("Sure! Here's my message:"), labels and markdown off. */
function messageLine(text: string): string {
  for (const line of contentLines(text)) {
    if (isIntroLine(line)) continue;
    return unquote(line.replace(/^(?:sure|okay|ok|of\s+course|certainly)\s*[!.,]\s+/i, '').replace(/^(?:my\s+)?message\s*:\s*/i, ''));
  }
  return '';
}

/** A one-sentence message with a detectable stance and a reason of at least two words. */
export function parseStanceMessage(raw: unknown, kind: OpinionQuestion['kind']): ParseResult<StanceMessage> {
  const r = replyText(raw);
  if (!r.ok) return r;
  const refused = refusalIn(r.value, 'text');
  if (refused) return fail(refused);
  const line = messageLine(r.value);
  if (!line) return fail('empty reply');
  if (line.length > 400) return fail('message longer than 400 characters');
  const stance = stanceIn(line, kind);
  if (!stance) return fail('no stance found');
  const bec = line.match(/\b(?:because|since|as|so)\b\s*(.+)$/i);
  const reason = (bec ? bec[1] : line).replace(/[.!]+$/, '').trim();
  const STANCE_WORDS = /^(?:i|we|agree|disagree|strongly|do|don't|not|choose|chose|pick|vote|for|my|answer|is|option|a|b|the|it|think)$/i;
  const content = reason.split(/[\s,;:]+/).filter((w) => w && !STANCE_WORDS.test(w.replace(/[.!?]+$/, '')));
  if (content.length < 2) return fail('no reason given');
  return ok({ text: line, stance, reason });
}
