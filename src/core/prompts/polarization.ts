/**
 * Polarization lab formats (docs/methods/polarization.md): stance update as JSON, keep-or-drop rewiring,
 * the persuade decision with a ~50-word message, the initial post and the self-regulation consistency check.
 */
import {
  bulletList,
  contentLines,
  fail,
  isIntroLine,
  jsonField,
  ok,
  parseJsonObject,
  plainQuotes,
  refusalIn,
  replyText,
  selfCorrects,
  stripPreamble,
  tail,
  unquote,
  userPrompt,
  wordCount,
} from './shared';
import type { ChatMessage, ParseResult } from './shared';

export type StanceValue = -2 | -1 | 0 | 1 | 2;
export const STANCE_VALUES: readonly StanceValue[] = [-2, -1, 0, 1, 2];

export interface StanceLevel {
  value: StanceValue;
  label: string;
  /** One-line explanation shown in the prompt. */
  explanation: string;
}

export interface PolarizationTopic {
  /** Short name, e.g. "gun control". */
  name: string;
  /** The proposition the scale is about, e.g. "Stricter gun control laws". */
  statement: string;
  /** Five levels from -2 to +2; defaults to DEFAULT_LEVELS. */
  levels?: readonly StanceLevel[];
}

export const DEFAULT_LEVELS: readonly StanceLevel[] = [
  { value: -2, label: 'strongly against', explanation: 'firmly opposes it and rarely changes their mind' },
  { value: -1, label: 'somewhat against', explanation: 'leans against it but sees some merit' },
  { value: 0, label: 'neutral', explanation: 'has no clear side' },
  { value: 1, label: 'somewhat in favor', explanation: 'leans in favor but has doubts' },
  { value: 2, label: 'strongly in favor', explanation: 'firmly supports it and rarely changes their mind' },
];

export function levelsOf(topic: PolarizationTopic): readonly StanceLevel[] {
  return topic.levels && topic.levels.length === 5 ? topic.levels : DEFAULT_LEVELS;
}

export function stanceLabel(topic: PolarizationTopic, v: StanceValue): string {
  return levelsOf(topic).find((l) => l.value === v)?.label ?? String(v);
}

function signed(v: number): string {
  return v > 0 ? `+${v}` : String(v);
}

function scale(topic: PolarizationTopic): string {
  return levelsOf(topic)
    .map((l) => `${signed(l.value)} = ${l.label}: ${l.explanation}`)
    .join('\n');
}

export interface AgentView {
  stance: StanceValue;
  reasons: string;
}

/** Messages delivered to one agent in one epoch: at most 5, cut to the last ~1000 characters. */
export const MAX_MESSAGES = 5;
export const MESSAGES_MAX_CHARS = 1000;

/** The traits of the method's mechanism experiments, written by the lab (the paper's wording was not released). */
export const CONFIRMATION_BIAS_TRAIT = 'You trust messages that agree with your view and dismiss those that do not.';
export const SELECTIVE_EXPOSURE_TRAIT = 'You prefer to talk only with people who share your view.';

export interface StanceUpdateInput {
  topic: PolarizationTopic;
  self: AgentView;
  messages: readonly string[];
  /** "No confirmation bias" intervention: the agent is told it is open to persuasion by diverse views. */
  openToPersuasion?: boolean;
  /** Mechanism experiments: the confirmation-bias trait (CONFIRMATION_BIAS_TRAIT). */
  confirmationBias?: boolean;
  /** Messages from a key opinion leader are marked as such (neutral elite signal). */
  leaderMessages?: readonly string[];
}

export function buildStanceUpdatePrompt(x: StanceUpdateInput): ChatMessage[] {
  const leader = (x.leaderMessages ?? []).map((m) => `(from a persuasive leader) ${m}`);
  const msgs = [...leader, ...x.messages].slice(-MAX_MESSAGES);
  let box = bulletList(msgs);
  if (box.length > MESSAGES_MAX_CHARS) box = tail(box, MESSAGES_MAX_CHARS);
  const parts = [
    `Topic: ${x.topic.statement}`,
    'Stances:',
    scale(x.topic),
    `Your stance: ${signed(x.self.stance)} (${stanceLabel(x.topic, x.self.stance)}). Your reasons: ${x.self.reasons}`,
    'New messages:',
    box,
  ];
  if (x.openToPersuasion) parts.push('You are open to being persuaded by diverse views.');
  if (x.confirmationBias) parts.push(CONFIRMATION_BIAS_TRAIT);
  parts.push('Reply with JSON only: {"stance": <-2 to 2>, "reasons": "<one sentence>"}');
  return userPrompt(parts.join('\n'));
}

export interface StanceUpdate {
  stance: StanceValue;
  reasons: string;
}

/** Maps a number (-2..2, "+1") or a level label ("somewhat against", case-insensitive) to a stance. */
export function toStance(v: unknown, topic?: PolarizationTopic): StanceValue | null {
  if (typeof v === 'number') return Number.isInteger(v) && v >= -2 && v <= 2 ? (v as StanceValue) : null;
  if (typeof v !== 'string') return null;
  const s = v.trim().toLowerCase();
  if (/^[+-]?\d+$/.test(s)) return toStance(Number(s), topic);
  if (/^[+-]?\d\s*(?:or|to|\/|-|\u2013|and)\s*[+-]?\d/.test(s)) return null;
  const lead = s.match(/^([+-]?\d)\s*(?:\(|=|:|\s)/);
  if (lead) return toStance(Number(lead[1]), topic);
  const levels = topic ? levelsOf(topic) : DEFAULT_LEVELS;
  const label = (x: string) =>
    x
      .replace(/favour/g, 'favor')
      .replace(/[.!]+$/, '')
      .replace(/\s+/g, ' ')
      .trim();
  for (const l of levels) if (label(l.label.toLowerCase()) === label(s)) return l.value;
  return null;
}

/**
 * JSON {"stance": -2..2 or a label, "reasons": non-empty string}, read as parseJsonObject reads JSON (code fences,
 * single quotes, trailing commas, unquoted keys); keys in any case, "reason" for "reasons".
 */
export function parseStanceUpdate(raw: unknown, topic?: PolarizationTopic): ParseResult<StanceUpdate> {
  const j = parseJsonObject(raw);
  if (!j.ok) return j;
  const sv = jsonField(j.value, 'stance');
  const stance = toStance(sv, topic);
  if (stance === null) return fail(`invalid stance ${JSON.stringify(sv)}`);
  const r = jsonField(j.value, 'reasons', 'reason');
  if (typeof r !== 'string' || !r.trim()) return fail('missing reasons');
  return ok({ stance, reasons: r.trim() });
}

export interface RewireInput {
  topic: PolarizationTopic;
  self: AgentView;
  other: AgentView;
  /** "No selective exposure" intervention. */
  likesDiversity?: boolean;
  /** Mechanism experiments: the selective-exposure trait (SELECTIVE_EXPOSURE_TRAIT). */
  selectiveExposure?: boolean;
  /**
   * The agent's default openness, stated explicitly (the seed read an uninitialised field).
   * Default: DEFAULT_OPENNESS.
   */
  openness?: string;
}

export const DEFAULT_OPENNESS = 'You are moderately open: you talk with people you find reasonable.';

export function buildRewirePrompt(x: RewireInput): ChatMessage[] {
  const parts = [
    `Topic: ${x.topic.statement}`,
    `Your stance: ${signed(x.self.stance)} (${stanceLabel(x.topic, x.self.stance)}). Your reasons: ${x.self.reasons}`,
    `This person's stance: ${signed(x.other.stance)} (${stanceLabel(x.topic, x.other.stance)}). Their reasons: ${x.other.reasons}`,
    x.openness ?? DEFAULT_OPENNESS,
  ];
  if (x.likesDiversity) parts.push('You like talking with people who hold diverse views.');
  if (x.selectiveExposure) parts.push(SELECTIVE_EXPOSURE_TRAIT);
  parts.push('Do you want to keep talking with this person? Reply yes or no.');
  return userPrompt(parts.join('\n'));
}

const YES_NO = /^["']?(yes|yeah|yep|yup|no|nope|nah)\b(?![-'])(?!\s+(?:one|matter|doubt|problem|worries|idea)\b)/i;
const YES_NO_EMPHATIC_NO = /^(?:absolutely|definitely|certainly|of\s+course|surely)\s+not\b/i;
const YES_NO_BOTH = /^\s*[,.!]?\s*(?:and|or|\/|but)\s*(?:also\s+)?(?:yes|no)\b/i;
const YES_NO_HEDGE =
  /^(?:yes\s+or\s+no\s*[?:.]|i(?:\s+would|'d|\s+will|'ll)\s+(?:have\s+to\s+)?say|i\s+think|i\s+believe|i\s+guess|i\s+suppose|honestly|personally|to\s+be\s+honest|in\s+short|[^:?!.]{1,40}:(?=\s*(?:yes|yeah|yep|no|nope)\b))\s*[,:]?\s*/i;

/** The yes/no a sentence opens with (after preambles and hedges like "I would say"), 'both', or null. */
function yesNoAt(sentence: string): boolean | 'both' | null {
  let t = stripPreamble(sentence);
  if (/^i\s+(?:don't|do\s+not)\s+think\s+so\b/i.test(t)) return false;
  if (/^(?:i\s+think\s+so|why\s+not)\b/i.test(t)) return true;
  for (let i = 0; i < 4; i++) {
    const next = stripPreamble(t.replace(YES_NO_HEDGE, ''));
    if (next === t) break;
    t = next;
  }
  if (YES_NO_EMPHATIC_NO.test(t)) return false;
  if (/^i\s+(?:don't|do\s+not)\s+think\s+so\b/i.test(t)) return false;
  if (/^(?:i\s+think\s+so|why\s+not)\b/i.test(t)) return true;
  const m = t.match(YES_NO);
  if (!m) return null;
  const rest = t.slice(m[0].length);
  const next = rest.match(/^[\s,.!;:-]*(yes|yeah|yep|no|nope)\b(?![-'])(?!\s+(?:one|matter|doubt|problem|worries|idea)\b)/i);
  if (YES_NO_BOTH.test(rest) || (next && /^y/i.test(next[1]) !== /^y/i.test(m[1]))) return 'both';
  return /^y/i.test(m[1]);
}

/**
 * Yes or no, as a careful reader reads it: "Sure! Yes.", "I would say no.", "**No.** We differ too much",
 * "Nope", "Definitely not". Refused: no yes/no ("Maybe", "It depends"), both ("Yes and no", "Yes/No"), a reply whose
 * lines say both, self-corrections and AI disclaimers.
 */
export function parseYesNo(raw: unknown): ParseResult<boolean> {
  const r = replyText(raw);
  if (!r.ok) return r;
  const refused = refusalIn(r.value);
  if (refused) return fail(refused);
  if (selfCorrects(r.value)) return fail('the reply corrects itself: ambiguous');
  const lines = contentLines(r.value).filter((l) => !isIntroLine(l));
  if (lines.length === 0) return fail('empty reply');
  const found: boolean[] = [];
  const first = yesNoAt(lines[0]);
  if (first === 'both') return fail('ambiguous: both yes and no');
  if (first !== null) found.push(first);
  // Elsewhere only answers that stand alone count ("Answer: No", "No."), not a "no" inside an explanation.
  for (const [i, line] of lines.entries()) {
    for (const [j, sentence] of line.split(/(?<=[.!?])\s+/).entries()) {
      if (i === 0 && j === 0) continue;
      const lone = stripPreamble(sentence).match(/^(yes|yeah|yep|no|nope)[.!]*$/i);
      if (lone) found.push(/^y/i.test(lone[1]));
    }
  }
  for (const m of plainQuotes(r.value).matchAll(/\bmy\s+answer\s+(?:is|would\s+be)\s*:?\s*(yes|no)\b/gi)) found.push(m[1].toLowerCase() === 'yes');
  if (found.length === 0) return fail(`not yes or no: "${stripPreamble(lines[0]).slice(0, 40)}"`);
  if (found.some((v) => v !== found[0])) return fail('ambiguous: the reply says both yes and no');
  return ok(found[0]);
}

export interface PersuadeInput {
  topic: PolarizationTopic;
  self: AgentView;
  other: AgentView;
}

export function buildPersuadePrompt(x: PersuadeInput): ChatMessage[] {
  return userPrompt(
    [
      `Topic: ${x.topic.statement}`,
      `Your stance: ${signed(x.self.stance)} (${stanceLabel(x.topic, x.self.stance)}). Your reasons: ${x.self.reasons}`,
      `This person's stance: ${signed(x.other.stance)} (${stanceLabel(x.topic, x.other.stance)}). Their reasons: ${x.other.reasons}`,
      'Do you want to send this person a message that argues for your view? If yes, reply "Yes:" and a message of about 50 words. If not, reply "No".',
    ].join('\n'),
  );
}

export interface PersuadeDecision {
  send: boolean;
  message: string;
}

export const MESSAGE_MIN_WORDS = 8;
export const MESSAGE_MAX_WORDS = 110;

/**
 * "No" -> no message; "Yes: <message>" (message on the same or next lines, 8..110 words) -> send it. Thinking,
 * "Sure!", bold and quotes around the message are skipped; "Yes and no" and AI disclaimers are refused.
 */
export function parsePersuade(raw: unknown): ParseResult<PersuadeDecision> {
  const r = replyText(raw);
  if (!r.ok) return r;
  const refused = refusalIn(r.value, 'text');
  if (refused) return fail(refused);
  const t = r.value
    .replace(/\*\*|__/g, '')
    .replace(/^[*_`"\s]+/, '')
    .replace(/^(?:sure|okay|ok|alright|of\s+course|certainly|absolutely)\s*[!.,]+\s*/i, '');
  if (/^(?:yes|no)\s*[,.]?\s*(?:and|or|\/)\s*(?:yes|no)\b/i.test(t)) return fail('ambiguous: both yes and no');
  const no = t.match(/^no\b(?!\s+(?:problem|worries))[.!,]?\s*/i);
  if (no) return ok({ send: false, message: '' });
  const yes = t.match(/^yes\b\s*[:,.!-]?\s*/i);
  if (!yes) return fail('does not start with Yes or No');
  const body = t.slice(yes[0].length).replace(/^(?:my\s+)?message\s*:\s*/i, '');
  const message = unquote(body.replace(/\s*\n+\s*/g, ' ').trim());
  const n = wordCount(message);
  if (n < MESSAGE_MIN_WORDS) return fail(`message of ${n} words (at least ${MESSAGE_MIN_WORDS})`);
  if (n > MESSAGE_MAX_WORDS) return fail(`message of ${n} words (at most ${MESSAGE_MAX_WORDS})`);
  return ok({ send: true, message });
}

/** The initial post (about 10% of agents write one) arguing for the agent's own stance. */
export function buildInitialPostPrompt(topic: PolarizationTopic, self: AgentView): ChatMessage[] {
  return userPrompt(
    [
      `Topic: ${topic.statement}`,
      `Your stance: ${signed(self.stance)} (${stanceLabel(topic, self.stance)}). Your reasons: ${self.reasons}`,
      'Write a post of about 50 words that argues for your stance. Reply with the post only.',
    ].join('\n'),
  );
}

/**
 * A post or message of 8..110 words, joined into one paragraph; thinking, an introduction line ("Sure! Here's a
 * post:"), a "Post:" label and surrounding quotes are skipped; AI disclaimers and declines are refused.
 */
export function parseMessage(raw: unknown): ParseResult<string> {
  const r = replyText(raw);
  if (!r.ok) return r;
  const refused = refusalIn(r.value, 'text');
  if (refused) return fail(refused);
  const lines = r.value.split('\n');
  while (lines.length && (!lines[0].trim() || isIntroLine(lines[0]))) lines.shift();
  const body = lines
    .join('\n')
    .trim()
    .replace(/^(?:my\s+)?(?:post|message)\s*:\s*/i, '');
  const text = unquote(body.replace(/\s*\n+\s*/g, ' ').trim());
  if (!text) return fail('empty reply');
  const n = wordCount(text);
  if (n < MESSAGE_MIN_WORDS) return fail(`message of ${n} words (at least ${MESSAGE_MIN_WORDS})`);
  if (n > MESSAGE_MAX_WORDS) return fail(`message of ${n} words (at most ${MESSAGE_MAX_WORDS})`);
  return ok(text);
}

/** Self-regulated variant: does this post (or stance change) fit the agent's stance? Answered with parseYesNo. */
export function buildConsistencyCheckPrompt(topic: PolarizationTopic, self: AgentView, text: string): ChatMessage[] {
  return userPrompt(
    [
      `Topic: ${topic.statement}`,
      `Your stance: ${signed(self.stance)} (${stanceLabel(topic, self.stance)}). Your reasons: ${self.reasons}`,
      `Text: ${text}`,
      'Does this text fit your stance? Reply yes or no.',
    ].join('\n'),
  );
}
