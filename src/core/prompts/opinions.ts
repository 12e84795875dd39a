/**
 * Opinions lab formats (docs/methods/opinions.md): the t=0 vote, the vote given friendly and unfriendly inboxes,
 * and the one-sentence stance-plus-reason message.
 */
import { bulletList, cleanReply, fail, firstLine, ok, tail, unquote, userPrompt } from './shared';
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
  return q.kind === 'objective'
    ? 'Reply with one letter: A or B.'
    : 'Do you agree or disagree? Reply with one word: Agree or Disagree.';
}

/** Round t = 0: persona and question only, no reasoning. */
export function buildInitialVotePrompt(persona: OpinionPersona, q: OpinionQuestion): ChatMessage[] {
  return userPrompt([personaText(persona), questionText(q), voteInstruction(q)].join('\n'));
}

/** Maximum characters kept per inbox (the last ones). */
export const INBOX_MAX_CHARS = 600;

/** Round t >= 1: persona, question, and the latest messages from friendly and unfriendly neighbours. */
export function buildInboxVotePrompt(
  persona: OpinionPersona,
  q: OpinionQuestion,
  friendly: readonly string[],
  unfriendly: readonly string[],
): ChatMessage[] {
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

/** A strict vote: exactly one of the allowed answers, optionally as "Answer: A", "(A)", "A." or "**Agree**". */
export function parseVote(raw: unknown, kind: OpinionQuestion['kind']): ParseResult<Vote> {
  const text = cleanReply(raw);
  if (!text) return fail('empty reply');
  let line = unquote(firstLine(text))
    .replace(/^(?:my\s+)?(?:final\s+)?(?:answer|vote|choice|option)(?:\s+is\s*:?|\s*[:=-])\s*/i, '')
    .replace(/^option\s+(?=[AB]\b)/i, '')
    .replace(/^i\s+(?:choose|pick|vote(?:\s+for)?|select)\s+/i, '');
  line = unquote(line.replace(/[*_`]/g, '')).trim();
  if (kind === 'objective') {
    const m = line.match(/^\(?([AaBb])\)?(?:[.!:)]|\s|$)/);
    if (!m) return fail(`not a single letter A or B: "${line.slice(0, 40)}"`);
    const rest = line.slice(m[0].length);
    if (/\b(?:or|and)\s+\(?[AB]\b/.test(rest) || /^\s*[\/,]\s*[AB]\b/.test(rest)) return fail('ambiguous answer');
    return ok(m[1].toUpperCase() as Vote);
  }
  const m = line.match(/^(agree|disagree)\b/i);
  if (!m) return fail(`not Agree or Disagree: "${line.slice(0, 40)}"`);
  const rest = line.slice(m[0].length);
  if (/^\s*(?:or|\/|,)\s*(?:dis)?agree\b/i.test(rest)) return fail('ambiguous answer');
  return ok(m[1].toLowerCase() === 'agree' ? 'Agree' : 'Disagree');
}

export interface StanceMessage {
  /** The sentence to deliver (first line, unquoted). */
  text: string;
  stance: Vote;
  reason: string;
}

/** Finds the stance in a message: "I choose A", "answer B", "I agree", "I disagree", leading "A:"/"Agree:". */
export function stanceIn(text: string, kind: OpinionQuestion['kind']): Vote | null {
  if (kind === 'objective') {
    const m =
      text.match(/\b(?:choose|chose|pick|picked|vote\s+for|voted\s+for|answer\s+is|answer|option|go\s+with|think\s+it\s+is|it\s+is)\s+\(?([AB])\b/i) ??
      text.match(/^\(?([AB])\)?\s*[:.,-]/);
    return m ? (m[1].toUpperCase() as Vote) : null;
  }
  const neg = /\b(disagree|do\s+not\s+agree|don't\s+agree)\b/i.test(text);
  const pos = /\bagree\b/i.test(text.replace(/\b(disagree|do\s+not\s+agree|don't\s+agree)\b/gi, ''));
  if (neg && !pos) return 'Disagree';
  if (pos && !neg) return 'Agree';
  return null;
}

/** A one-sentence message with a detectable stance and a reason of at least two words. */
export function parseStanceMessage(raw: unknown, kind: OpinionQuestion['kind']): ParseResult<StanceMessage> {
  const text = cleanReply(raw);
  if (!text) return fail('empty reply');
  const line = unquote(firstLine(text));
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
