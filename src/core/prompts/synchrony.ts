/**
 * Synchrony lab formats (docs/methods/synchrony.md): the in-character dialogue turn, the passive-reader control,
 * and the per-agent judge with the 7 SOTOPIA dimensions.
 */
import { fail, isIntroLine, jsonField, ok, parseJsonObject, refusalIn, replyText, unquote, userPrompt } from './shared';
import type { ChatMessage, ParseResult } from './shared';

export interface Persona {
  name: string;
  age: number;
  occupation: string;
  pronouns: string;
  /** Public information, visible to acquaintances and closer. */
  publicInfo: string;
  /** Personality and values, visible to friends, partners and family. */
  personality: string;
  decisionStyle: string;
  /** Only the agent itself sees it. */
  secret: string;
}

export interface AgentSpec {
  persona: Persona;
  goal: string;
}

/** 0 stranger, 1 knows the name, 2 acquaintance, 3 friend, 4 romantic, 5 family. */
export type RelationshipLevel = 0 | 1 | 2 | 3 | 4 | 5;

export const RELATIONSHIP_LABELS: Record<RelationshipLevel, string> = {
  0: 'strangers',
  1: 'know each other by name',
  2: 'acquaintances',
  3: 'friends',
  4: 'romantic partners',
  5: 'family',
};

/** A scenario fact; with `visibleTo` it is shown to that agent only (index into `agents`). */
export interface ScenarioFact {
  text: string;
  visibleTo?: 0 | 1;
}

export interface SynchronyEpisode {
  scenario: string;
  relationship: RelationshipLevel;
  agents: [AgentSpec, AgentSpec];
  facts?: ScenarioFact[];
}

export interface Utterance {
  speaker: 0 | 1;
  text: string;
}

export const MAX_UTTERANCES = 16;

/** Demographics line: "Mia Chen, 34, nurse, she/her". */
function demographics(p: Persona): string {
  return `${p.name}, ${p.age}, ${p.occupation}, ${p.pronouns}`;
}

/** The partner's bio as the viewer sees it at a relationship level (never the secret). */
export function visiblePartnerBio(partner: Persona, level: RelationshipLevel): string {
  if (level === 0) return 'You know nothing about them.';
  if (level === 1) return `Name: ${partner.name}.`;
  const base = `${demographics(partner)}. Public: ${partner.publicInfo}`;
  if (level === 2) return base;
  return `${base} Personality: ${partner.personality} Decides: ${partner.decisionStyle}`;
}

/** The agent's own full bio (with its secret). */
export function ownBio(p: Persona): string {
  return `${demographics(p)}. Public: ${p.publicInfo} Personality: ${p.personality} Decides: ${p.decisionStyle} Secret: ${p.secret}`;
}

/** Turns [from, to) of a history that a prompt leaves out (0-based), with a line that says so. */
export interface LeftOut {
  from: number;
  to: number;
}

/**
 * "Turn k: Name said: text" lines, k from 1. With `leftOut`, those turns are replaced by one line that says they were
 * left out (the judge of a conversation longer than its model's context); the other turns keep their numbers.
 */
export function formatHistory(ep: SynchronyEpisode, history: readonly Utterance[], leftOut?: LeftOut): string {
  const lines = history.map((u, i) => `Turn ${i + 1}: ${ep.agents[u.speaker].persona.name} said: ${u.text}`);
  if (!leftOut || leftOut.to <= leftOut.from) return lines.join('\n');
  const gap = `(Turns ${leftOut.from + 1} to ${leftOut.to} are left out: the whole conversation is too long for the judge.)`;
  return [...lines.slice(0, leftOut.from), gap, ...lines.slice(leftOut.to)].join('\n');
}

function partnerLabel(ep: SynchronyEpisode, viewer: 0 | 1): string {
  const partner = ep.agents[1 - viewer].persona;
  return ep.relationship === 0 ? 'The other person' : partner.name;
}

function context(ep: SynchronyEpisode, viewer: 0 | 1, goalNote: boolean): string {
  const self = ep.agents[viewer];
  const other = ep.agents[1 - viewer];
  const label = partnerLabel(ep, viewer);
  const lines = [`Scenario: ${ep.scenario}`];
  for (const f of ep.facts ?? []) if (f.visibleTo === undefined || f.visibleTo === viewer) lines.push(`Fact: ${f.text}`);
  lines.push(`Relationship: ${RELATIONSHIP_LABELS[ep.relationship]}.`);
  lines.push(`${self.persona.name}: ${ownBio(self.persona)}`);
  lines.push(`${label}: ${visiblePartnerBio(other.persona, ep.relationship)}`);
  lines.push(`${self.persona.name}'s goal: ${self.goal}`);
  if (goalNote) lines.push(`${label}'s goal: Unknown`);
  return lines.join('\n');
}

/**
 * The labels an agent writes on its hidden line when the lab decodes emotions and actions (synchrony.md, "Emotion and
 * action decoding"): a short, fixed list of each, so that a small model can choose and a probe can predict.
 */
export const EMOTIONS = ['calm', 'happy', 'hopeful', 'worried', 'annoyed', 'sad'] as const;
export const ACTIONS = ['propose', 'ask', 'inform', 'agree', 'refuse', 'leave'] as const;
export type Emotion = (typeof EMOTIONS)[number];
export type Action = (typeof ACTIONS)[number];

/** The instruction that asks for the hidden line; the partner's history never holds that line. */
export const HIDDEN_LINE_INSTRUCTION = `After your reply, write one more line that only the lab reads, never your partner: "Feeling: <${EMOTIONS.join('|')}>; Action: <${ACTIONS.join('|')}>".`;

/** Room for the hidden line (about a dozen tokens) on top of the reply's own budget. */
export const HIDDEN_LINE_TOKENS = 24;

/**
 * How a turn's reply is generated: it stops at the end of its one line, or, when the hidden line follows the reply,
 * at a blank line or a new turn, with room for that line.
 */
export function turnLimits(maxNewTokens: number, hiddenLine: boolean): { maxNewTokens: number; stop: string[] } {
  return hiddenLine ? { maxNewTokens: maxNewTokens + HIDDEN_LINE_TOKENS, stop: ['\n\n', '\nTurn '] } : { maxNewTokens, stop: ['\n'] };
}

export interface TurnPromptOptions {
  /** Ask for the hidden "Feeling: …; Action: …" line after the reply. */
  hiddenLine?: boolean;
}

/**
 * The prompt for agent `viewer`'s next utterance: instructions, context (visibility by relationship), history and
 * an open cue for its own turn.
 */
export function buildDialogueTurnPrompt(ep: SynchronyEpisode, viewer: 0 | 1, history: readonly Utterance[], opts: TurnPromptOptions = {}): ChatMessage[] {
  const name = ep.agents[viewer].persona.name;
  const act = `Imagine you are ${name}. Act and speak as ${name} would and pursue your goal. Keep each reply to one short line. When your goal is reached, say that you leave.`;
  const parts = [
    opts.hiddenLine ? `${act} ${HIDDEN_LINE_INSTRUCTION}` : act,
    context(ep, viewer, true),
    'Conversation:',
    history.length ? formatHistory(ep, history) : '(no one has spoken yet)',
    `Turn ${history.length + 1}: your turn. Reply as ${name} in one line${opts.hiddenLine ? ', then the hidden line' : ''}.`,
  ];
  return userPrompt(parts.join('\n'));
}

export interface HiddenLabels {
  emotion?: Emotion;
  action?: Action;
}

const isOneOf = <T extends string>(list: readonly T[], v: string): v is T => (list as readonly string[]).includes(v);
const HIDDEN_RE = /\b(feeling|emotion|action)\s*[:=]\s*\*{0,2}\s*([a-z]+)/gi;
const LABEL_WORD = String.raw`\b(?:feeling|emotion)\s*[:=]`;
/**
 * Where a hidden line starts inside a line: at the line's start or a sentence's ("… agreed? Feeling: …"), after a
 * bracket or emphasis ("(feeling: …"), or anywhere before a feeling of the list. A spoken "a set-apart feeling: can we
 * agree?" is none of these, so it stays spoken (a corpus turn of the dialogue organism was cut there).
 */
const HIDDEN_START_RE = new RegExp(
  [
    String.raw`(?<=^|[.!?;,]\s*)[\s([*_"]*${LABEL_WORD}`,
    String.raw`\s*[([*_"]+\s*${LABEL_WORD}`,
    String.raw`\s*${LABEL_WORD}(?=\s*\*{0,2}\s*(?:${EMOTIONS.join('|')})\b)`,
  ].join('|'),
  'i',
);

/**
 * Splits a reply into its spoken part and its hidden labels. The hidden line may follow the reply on its own line or
 * on the same line ("… agreed? Feeling: hopeful; Action: ask"); everything from it on is cut from the spoken part. A
 * label outside the lists is left out (the turn then has no label of that kind), never guessed.
 */
export function splitHiddenLine(raw: string): { spoken: string; labels: HiddenLabels } {
  const labels: HiddenLabels = {};
  const spokenLines: string[] = [];
  for (const line of raw.split('\n')) {
    const start = line.search(HIDDEN_START_RE);
    const actionOnly = /^\W*action\s*[:=]/i.test(line);
    const hidden = start >= 0 ? line.slice(start) : actionOnly ? line : '';
    const kept = start >= 0 ? line.slice(0, start) : actionOnly ? '' : line;
    if (kept.trim()) spokenLines.push(kept.trimEnd());
    for (const m of hidden.matchAll(HIDDEN_RE)) {
      const value = m[2].toLowerCase();
      if (/^action$/i.test(m[1])) {
        if (labels.action === undefined && isOneOf(ACTIONS, value)) labels.action = value;
      } else if (labels.emotion === undefined && isOneOf(EMOTIONS, value)) labels.emotion = value;
    }
  }
  return { spoken: spokenLines.join('\n'), labels };
}

/**
 * Passive-reader control: agent `viewer`'s recorded prompt with the act instructions replaced by a third person
 * reading the interaction; no partner-goal note, no leave instruction, no open cue.
 */
export function buildPassiveReaderPrompt(ep: SynchronyEpisode, viewer: 0 | 1, history: readonly Utterance[], readerName: string): ChatMessage[] {
  const a = ep.agents[0].persona.name;
  const b = ep.agents[1].persona.name;
  const parts = [
    `Imagine you are ${readerName}, reading an interaction between two other people, ${a} and ${b}.`,
    context(ep, viewer, false),
    'Conversation:',
    history.length ? formatHistory(ep, history) : '(no one has spoken yet)',
  ];
  return userPrompt(parts.join('\n'));
}

export interface ParsedUtterance {
  text: string;
  leaves: boolean;
}

const LEAVE_RE = /\b(leave|leaves|leaving|left)\b/i;

/**
 * Whether an utterance ends the episode: "leave"/"leaving"/"left" in its first or last sentence
 * (the seed checked the start or end of the utterance), and that sentence is not a question.
 */
export function detectsLeaving(text: string): boolean {
  const sentences = text
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (!sentences.length) return false;
  const cands = [sentences[0], sentences[sentences.length - 1]];
  return cands.some((s) => LEAVE_RE.test(s) && !s.endsWith('?'));
}

/**
 * Keeps the first line (after thinking and an introduction such as "Sure! Here's Mia's reply:"), strips a leading
 * "Name:" / "**Name:**" / "Turn k: Name said:" prefix and quotes, and detects leaving. `names` are the agents' names
 * (either may be echoed as a prefix). AI disclaimers ("As an AI, I can't role-play…") are refused.
 */
export function parseUtterance(raw: unknown, names: readonly string[] = []): ParseResult<ParsedUtterance> {
  const r = replyText(raw);
  if (!r.ok) return r;
  const refused = refusalIn(r.value, 'text');
  if (refused) return fail(refused);
  const lines = r.value
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  while (lines.length > 1 && isIntroLine(lines[0])) lines.shift();
  let line = lines[0] ?? '';
  line = line.replace(/^turn\s+\d+\s*:\s*/i, '');
  for (const n of names) {
    const esc = n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const re = new RegExp(`^[*_]*${esc}[*_]*(?:\\s*\\([^()]{0,40}\\))?\\s*(?:said|says)?\\s*[*_]*:[*_]*\\s*`, 'i');
    if (re.test(line)) {
      line = line.replace(re, '');
      break;
    }
  }
  line = unquote(line).trim();
  if (!line) return fail('empty utterance after stripping the name');
  if (!/[A-Za-z]/.test(line)) return fail('utterance has no words');
  if (line.length > 600) return fail('utterance longer than 600 characters');
  return ok({ text: line, leaves: detectsLeaving(line) });
}

// ---------------------------------------------------------------------------------------------------------------
// Judge

export const JUDGE_DIMENSIONS = ['believability', 'relationship', 'knowledge', 'secret', 'social_rules', 'financial_and_material_benefits', 'goal'] as const;
export type JudgeDimension = (typeof JUDGE_DIMENSIONS)[number];

export const JUDGE_RANGES: Record<JudgeDimension, [number, number]> = {
  believability: [0, 10],
  relationship: [-5, 5],
  knowledge: [0, 10],
  secret: [-10, 0],
  social_rules: [-10, 0],
  financial_and_material_benefits: [-5, 5],
  goal: [0, 10],
};

export interface JudgeScore {
  score: number;
  reason: string;
}
export type JudgeResult = Record<JudgeDimension, JudgeScore>;

/** Mean of the 7 raw scores (the per-agent overall score). */
export function judgeOverall(r: JudgeResult): number {
  return JUDGE_DIMENSIONS.reduce((s, d) => s + r[d].score, 0) / JUDGE_DIMENSIONS.length;
}

/**
 * The judge prompt for one agent (`target`): both full backgrounds, both goals, the transcript; strict JSON out. With
 * `leftOut`, those turns of the transcript are replaced by a line that says so (runner.ts, when the whole does not fit).
 */
export function buildJudgePrompt(ep: SynchronyEpisode, history: readonly Utterance[], target: 0 | 1, leftOut?: LeftOut): ChatMessage[] {
  const [a, b] = ep.agents;
  const name = ep.agents[target].persona.name;
  const ranges = JUDGE_DIMENSIONS.map((d) => `${d} ${JUDGE_RANGES[d][0]}..${JUDGE_RANGES[d][1]}`).join(', ');
  const parts = [
    `Rate how ${name} did in this conversation.`,
    `Scenario: ${ep.scenario}`,
    `Relationship: ${RELATIONSHIP_LABELS[ep.relationship]}.`,
    `${a.persona.name}: ${ownBio(a.persona)}`,
    `${a.persona.name}'s goal: ${a.goal}`,
    `${b.persona.name}: ${ownBio(b.persona)}`,
    `${b.persona.name}'s goal: ${b.goal}`,
    'Conversation:',
    history.length ? formatHistory(ep, history, leftOut) : '(empty)',
    `Score ${name} on: ${ranges}.`,
    'Reply with JSON only: {"believability": {"score": <int>, "reason": "<short>"}, ...} with all 7 keys.',
  ];
  return userPrompt(parts.join('\n'));
}

/**
 * Strict: all 7 keys, numeric scores within range, non-empty reasons. Accepts [score, reason] pairs too. The JSON
 * is read as parseJsonObject reads it (code fences, single quotes, trailing commas, comments); keys match in any
 * case, with spaces for underscores ("Social Rules").
 */
export function parseJudge(raw: unknown): ParseResult<JudgeResult> {
  const j = parseJsonObject(raw);
  if (!j.ok) return j;
  const out: Partial<JudgeResult> = {};
  for (const d of JUDGE_DIMENSIONS) {
    const v = jsonField(j.value, d);
    let score: unknown;
    let reason: unknown;
    if (Array.isArray(v) && v.length === 2) [score, reason] = v;
    else if (v && typeof v === 'object') ({ score, reason } = v as { score?: unknown; reason?: unknown });
    else return fail(`missing or malformed "${d}"`);
    if (typeof score !== 'number' || !Number.isFinite(score)) return fail(`"${d}".score is not a number`);
    const [lo, hi] = JUDGE_RANGES[d];
    if (score < lo || score > hi) return fail(`"${d}".score ${score} outside ${lo}..${hi}`);
    if (typeof reason !== 'string' || !reason.trim()) return fail(`"${d}".reason is missing`);
    out[d] = { score, reason: reason.trim() };
  }
  return ok(out as JudgeResult);
}
