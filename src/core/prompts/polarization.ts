/**
 * Polarization lab formats (docs/methods/polarization.md): stance update as JSON, keep-or-drop rewiring,
 * the persuade decision with a ~50-word message, the initial post and the self-regulation consistency check.
 */
import { bulletList, cleanReply, fail, firstLine, ok, parseJsonObject, tail, unquote, userPrompt, wordCount } from './shared';
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
  const lead = s.match(/^([+-]?\d)\s*(?:\(|=|:|\s)/);
  if (lead) return toStance(Number(lead[1]), topic);
  const levels = topic ? levelsOf(topic) : DEFAULT_LEVELS;
  for (const l of levels) if (l.label.toLowerCase() === s) return l.value;
  return null;
}

/** Strict JSON {"stance": -2..2 or a label, "reasons": non-empty string}. */
export function parseStanceUpdate(raw: unknown, topic?: PolarizationTopic): ParseResult<StanceUpdate> {
  const j = parseJsonObject(raw);
  if (!j.ok) return j;
  const stance = toStance(j.value.stance, topic);
  if (stance === null) return fail(`invalid stance ${JSON.stringify(j.value.stance)}`);
  const r = j.value.reasons ?? j.value.reason;
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

/** "yes"/"no" (first word, case-insensitive, punctuation ignored). */
export function parseYesNo(raw: unknown): ParseResult<boolean> {
  const text = cleanReply(raw);
  if (!text) return fail('empty reply');
  const line = unquote(firstLine(text).replace(/[*_`]/g, '')).toLowerCase();
  const m = line.match(/^(yes|no)\b/);
  if (!m) return fail(`not yes or no: "${line.slice(0, 40)}"`);
  return ok(m[1] === 'yes');
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

/** "No" -> no message; "Yes: <message>" (message on the same or next lines, 8..110 words) -> send it. */
export function parsePersuade(raw: unknown): ParseResult<PersuadeDecision> {
  const text = cleanReply(raw);
  if (!text) return fail('empty reply');
  const t = text.replace(/^[*_`"]+/, '');
  const no = t.match(/^no\b[.!,]?\s*/i);
  if (no) return ok({ send: false, message: '' });
  const yes = t.match(/^yes\b\s*[:,.!-]?\s*/i);
  if (!yes) return fail('does not start with Yes or No');
  const message = unquote(t.slice(yes[0].length).replace(/\s*\n+\s*/g, ' ').trim());
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

/** A post or message of 8..110 words, joined into one paragraph. */
export function parseMessage(raw: unknown): ParseResult<string> {
  const text = unquote(cleanReply(raw).replace(/\s*\n+\s*/g, ' ').trim());
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
