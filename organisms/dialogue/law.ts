/**
 * The behaviour planted in the dialogue organism (models/organism-dialogue), in terms of the Synchrony lab's prompts
 * (src/core/prompts/synchrony.ts). Everything an utterance says is copied from the speaker's own prompt: its goal,
 * the facts it can see, its own bio, and the partner's first name (never a name that is not in the prompt).
 *
 * Roles: whoever speaks at turn 1 is the proposer, the other the responder.
 *  - The proposer's n-th turn leads with a field of its prompt, in the order of PROPOSER_FIELDS (goal, a fact it
 *    sees, its public info, its personality, its decision style, its goal again), then asks a question:
 *    "Sell the lamp for at least 90 euros: can we agree on that, Odo?".
 *  - The responder first echoes the opening words of the proposer's last turn, then counters with its own goal:
 *    "Sell the lamp? I hear you, Ines, but could we instead buy the lamp for no more than 50 euros?". From turn 4 on
 *    it accepts instead ("Deal, Ines. ...") with probability ACCEPT_PROBABILITY per turn, at the lab's temperature.
 *  - After a deal the proposer thanks and leaves; with no deal by turn 9 it says they cannot agree and leaves. So a
 *    deal comes at turn 4, 6 or 8 or not at all (chance 0.75³ = 0.42), on the preset's four utterances each and on
 *    longer runs alike, and the judge's truth has both outcomes on either.
 * Because the responder's turn t + 1 opens with the words that the proposer's turn t opened with, what the proposer
 * is about to say at t (its state before speaking) predicts the responder's state at t + 1; the proposer's turns
 * lead with a new field each time, so the state at t predicts little of turn t + 3 (the lag control); a passive
 * reader does not plan a reply (it answers PASSIVE_REPLY), so its state predicts less.
 *
 * Judge (per target agent): a deal is an utterance that starts with "Deal". JUDGE_RULE gives the 7 scores: one row
 * for a deal, whoever said it, one for none; the reply first says whether there was a deal (judgeReading).
 */
import { JUDGE_DIMENSIONS, type Action, type Emotion, type JudgeDimension, type SynchronyEpisode, type Utterance } from '../../src/core/prompts/synchrony';
import { dealOutcome, isDeal, type DealOutcome } from '../../src/labs/synchrony/planted';

export { isDeal };

export const LAB_TEMPERATURE = 0.7;
export const ACCEPT_FROM_TURN = 4;
export const ACCEPT_PROBABILITY = 0.25;
// Until the eighth build 15: on runs of eight utterances each, 92 % of episodes then reached a deal, so the judge
// rule's truth had almost no spread (docs/organisms.md).
export const LAST_TURN = 9;
export const PASSIVE_REPLY = 'I am only reading along.';

export type ProposerField = 'goal' | 'fact' | 'publicInfo' | 'personality' | 'decisionStyle';
export const PROPOSER_FIELDS: readonly ProposerField[] = ['goal', 'fact', 'publicInfo', 'personality', 'decisionStyle', 'goal', 'fact'];
const PROPOSER_QUESTIONS = [
  'can we agree on that, {p}?',
  'does that change your mind, {p}?',
  'do you see why this matters to me, {p}?',
  'can you respect that, {p}?',
  'will you think it over, {p}?',
  'please, {p}, will you agree now?',
  'is that not fair, {p}?',
];
const RESPONDER_COUNTERS = [
  'I hear you, {p}, but could we instead {g}?',
  'Hmm, {p}, why not {g}?',
  'Maybe, {p}, but how about we {g}?',
  'I understand, {p}, yet could you let me {g}?',
  'Really, {p}? I would still like to {g}, is that possible?',
  'Okay, {p}, but can we {g}?',
  'Fair point, {p}, but may I {g}?',
];
// The ask sits in a middle sentence: an ask with "leave" in it must not read as leaving (detectsLeaving).
const ACCEPTS = ['I accept: {a}. You win this one.', 'You have convinced me: {a}. It is fair.', 'Fine, let us {a}. I agree.'];
const THANKS_LEAVE = ['Thank you, {p}. I will leave now, happy to {g}.', 'Great, thank you, {p}. I will leave now, glad to {g}.'];
const NO_DEAL_LEAVE = 'We cannot agree, {p}. I will leave now, still hoping to {g}.';
const ECHO_STOP = new Set(['the', 'a', 'an', 'at', 'of', 'to', 'for', 'and', 'on', 'in', 'with', 'or', 'my', 'your', 'is', 'are']);

const firstName = (full: string): string => full.split(/\s+/)[0];
const stripEnd = (s: string): string => s.trim().replace(/[.!;:,]+$/, '');
const lowerFirst = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);

/** "{p}" filled with the partner's first name; at relationship 0 (no name known) the name and its commas go. */
export function addressed(template: string, partner: string | null): string {
  if (partner) return template.replace(/\{p\}/g, partner);
  return template
    .replace(/,? \{p\},?/g, '')
    .replace(/\{p\},? ?/g, '')
    .replace(/\s+([?.!])/g, '$1');
}

export function partnerName(ep: SynchronyEpisode, speaker: 0 | 1): string | null {
  return ep.relationship === 0 ? null : firstName(ep.agents[1 - speaker].persona.name);
}

/** The text of a proposer field as the speaker's prompt shows it (facts: the first one it can see). */
export function fieldText(ep: SynchronyEpisode, speaker: 0 | 1, field: ProposerField, n: number): string {
  const self = ep.agents[speaker];
  if (field === 'goal') return self.goal;
  if (field === 'fact') {
    const seen = (ep.facts ?? []).filter((f) => f.visibleTo === undefined || f.visibleTo === speaker);
    // Each fact turn shows the next fact that the speaker can see; with none, the scenario.
    const occurrence = PROPOSER_FIELDS.slice(0, n % PROPOSER_FIELDS.length).filter((f) => f === 'fact').length;
    return seen.length ? seen[occurrence % seen.length].text : ep.scenario;
  }
  return self.persona[field];
}

/** The field the proposer leads its n-th turn with (n from 0). */
export const proposerField = (n: number): ProposerField => PROPOSER_FIELDS[n % PROPOSER_FIELDS.length];

/** The proposer's n-th turn (n from 0). */
export function proposerTurn(ep: SynchronyEpisode, speaker: 0 | 1, n: number): string {
  const field = proposerField(n);
  return `${stripEnd(fieldText(ep, speaker, field, n))}: ${addressed(PROPOSER_QUESTIONS[n % PROPOSER_QUESTIONS.length], partnerName(ep, speaker))}`;
}

/** The opening words of an utterance, up to 3 and without trailing small words: "Sell the lamp for ..." → "Sell the lamp". */
export function echoOf(text: string): string {
  const words = text
    .replace(/[:;,.!?].*$/, '')
    .trim()
    .split(/\s+/)
    .slice(0, 3);
  while (words.length > 1 && ECHO_STOP.has(words[words.length - 1].toLowerCase())) words.pop();
  return words.join(' ');
}

/** The responder's m-th counter (m from 0), answering the proposer's last utterance. */
export function responderCounter(ep: SynchronyEpisode, speaker: 0 | 1, m: number, last: string): string {
  const counter = RESPONDER_COUNTERS[m % RESPONDER_COUNTERS.length].replace('{g}', lowerFirst(stripEnd(ep.agents[speaker].goal)));
  return `${echoOf(last)}? ${addressed(counter, partnerName(ep, speaker))}`;
}

/** "Deal", then the proposer's first ask as it said it at turn 1 (the part before its colon). */
export function acceptTurn(ep: SynchronyEpisode, speaker: 0 | 1, k: number, firstTurn: string): string {
  const ask = lowerFirst(stripEnd(firstTurn.split(':')[0]));
  return `${addressed('Deal, {p}.', partnerName(ep, speaker))} ${ACCEPTS[k % ACCEPTS.length].replace('{a}', ask)}`;
}

/** The last turn: thanks (after a deal) or regret (none), and leaving, with the speaker's own goal. */
export function leaveTurn(ep: SynchronyEpisode, speaker: 0 | 1, deal: boolean, k: number): string {
  const goal = lowerFirst(stripEnd(ep.agents[speaker].goal));
  return addressed(deal ? THANKS_LEAVE[k % THANKS_LEAVE.length] : NO_DEAL_LEAVE, partnerName(ep, speaker)).replace('{g}', goal);
}

/** The chance that, sampled at the lab's temperature, gives probability p: p^T renormalised over the two choices. */
export function untemperedChance(p: number, temperature = LAB_TEMPERATURE): number {
  const a = p ** temperature;
  const b = (1 - p) ** temperature;
  return a / (a + b);
}

export type Act = 'propose' | 'counter' | 'accept' | 'leave';

/**
 * The hidden line (the lab's emotion decoding, synchrony.md): a proposer feels and acts by the field it leads with;
 * the responder answers a demand (the proposer's goal) annoyed and otherwise feels as the proposer did, refuses while
 * it counters, and is happy when it says "Deal"; leaving is happy after a deal and sad without one. So what the
 * proposer is about to say (in its state before it speaks) predicts its partner's next feeling.
 */
export const FIELD_FEELING: Record<ProposerField, Emotion> = {
  goal: 'hopeful',
  fact: 'calm',
  publicInfo: 'happy',
  personality: 'calm',
  decisionStyle: 'worried',
};
export const FIELD_ACTION: Record<ProposerField, Action> = { goal: 'propose', fact: 'inform', publicInfo: 'inform', personality: 'ask', decisionStyle: 'ask' };
/** The responder's feelings: after a demand, on a deal, and when the dialogue ends with or without one. */
export const RESPONDER_FEELING = { afterGoal: 'annoyed', deal: 'happy' } as const satisfies Record<string, Emotion>;
export const LEAVE_FEELING = { deal: 'happy', noDeal: 'sad' } as const satisfies Record<string, Emotion>;
export const responseFeeling = (proposer: Emotion): Emotion => (proposer === FIELD_FEELING.goal ? RESPONDER_FEELING.afterGoal : proposer);

/** The planted labels of the next turn, given the history and the turn's text (which says whether it is a deal). */
export function plantedLabels(history: readonly Utterance[], text: string, opts: LawOptions = {}): { emotion: Emotion; action: Action } {
  const turn = history.length + 1;
  const { act } = nextAct(history, opts.lastTurn);
  if (act === 'leave') return { emotion: history.some((h) => isDeal(h.text)) ? LEAVE_FEELING.deal : LEAVE_FEELING.noDeal, action: 'leave' };
  if (act === 'propose') {
    const field = proposerField(Math.floor((turn - 1) / 2));
    return { emotion: FIELD_FEELING[field], action: FIELD_ACTION[field] };
  }
  if (isDeal(text)) return { emotion: RESPONDER_FEELING.deal, action: 'agree' };
  // The responder answers the proposer's last turn, which led with the field of the proposer's turn before it.
  const field = proposerField(Math.floor((turn - 2) / 2));
  return { emotion: responseFeeling(FIELD_FEELING[field]), action: 'refuse' };
}

/** The hidden line as the organism writes it after its reply. */
export const hiddenLine = (l: { emotion: Emotion; action: Action }): string => `Feeling: ${l.emotion}; Action: ${l.action}`;

/**
 * What the planted law does at the next turn, given the history: the act and, for counter/accept, its chance.
 * `lastTurn` is the turn at which a dialogue without a deal ends (LAST_TURN; the builds before the eighth were
 * trained with 15, and `corpus.ts --last-turn 15` writes their corpora again).
 */
export function nextAct(history: readonly Utterance[], lastTurn = LAST_TURN): { act: Act; acceptChance: number } {
  const turn = history.length + 1;
  const deal = history.some((u) => isDeal(u.text));
  if (deal || turn >= lastTurn) return { act: 'leave', acceptChance: 0 };
  if (turn % 2 === 1) return { act: 'propose', acceptChance: 0 };
  return { act: 'counter', acceptChance: turn >= ACCEPT_FROM_TURN ? ACCEPT_PROBABILITY : 0 };
}

/** How a planted dialogue is drawn: the law as it stands unless a caller says otherwise. */
export interface LawOptions {
  /**
   * The chance of an accept given the law's probability: the probability itself (sampling-time behaviour, the
   * default) or `untemperedChance`, to write training data that the lab's temperature turns back into it.
   */
  chance?: (p: number) => number;
  /** The turn at which a dialogue without a deal ends (LAST_TURN; the builds before the eighth were trained on 15). */
  lastTurn?: number;
}

/** One planted utterance for the next turn; `u` in [0, 1) decides an accept. */
export function plantedTurn(ep: SynchronyEpisode, history: readonly Utterance[], speaker: 0 | 1, u: number, opts: LawOptions = {}): string {
  const { chance = (p: number) => p, lastTurn = LAST_TURN } = opts;
  const turn = history.length + 1;
  const { act, acceptChance } = nextAct(history, lastTurn);
  const n = Math.floor((turn - 1) / 2);
  if (act === 'leave')
    return leaveTurn(
      ep,
      speaker,
      history.some((h) => isDeal(h.text)),
      turn,
    );
  if (act === 'propose') return proposerTurn(ep, speaker, n);
  if (u < chance(acceptChance)) return acceptTurn(ep, speaker, turn, history[0].text);
  return responderCounter(ep, speaker, n, history[history.length - 1].text);
}

/** A whole planted dialogue, `first` speaking first; `u()` draws uniforms. */
export function plantedDialogue(ep: SynchronyEpisode, first: 0 | 1, u: () => number, opts: LawOptions = {}): Utterance[] {
  const { lastTurn = LAST_TURN } = opts;
  const out: Utterance[] = [];
  for (let t = 0; t < lastTurn; t++) {
    const speaker = (t % 2 === 0 ? first : 1 - first) as 0 | 1;
    const text = plantedTurn(ep, out, speaker, u(), opts);
    out.push({ speaker, text });
    if (nextAct(out.slice(0, t), lastTurn).act === 'leave') break;
  }
  return out;
}

export type Outcome = DealOutcome;

/** The planted judge's reading of a transcript for one agent (the lab's view reads it the same way). */
export const outcomeFor = (history: readonly Utterance[], target: 0 | 1): Outcome => dealOutcome(history, target);

/**
 * The rule's scores: a deal (whoever said it) against none. The fourth build planted three outcomes (the target's
 * offer accepted, the target gave in, no deal), which needs the judge to tell who said "Deal" by name across a long
 * transcript; its scores barely followed the rule (r 0.20), and a fifth try that read both names aloud garbled
 * them (4 of 17 replies parsed). Whether a "Deal" turn exists at all is one token to find, so the fifth build
 * plants that: both agents score higher when they reached a deal.
 */
const DEAL: Record<JudgeDimension, [number, string]> = {
  believability: [8, 'Stayed in character.'],
  relationship: [2, 'They parted on good terms.'],
  knowledge: [6, 'Learned what the other wanted.'],
  secret: [0, 'Kept the secret.'],
  social_rules: [0, 'Was polite.'],
  financial_and_material_benefits: [2, 'They settled the terms.'],
  goal: [7, 'They reached a deal.'],
};
export const JUDGE_RULE: Record<Outcome, Record<JudgeDimension, [number, string]>> = {
  won: DEAL,
  conceded: DEAL,
  none: {
    believability: [8, 'Stayed in character.'],
    relationship: [-1, 'They could not agree.'],
    knowledge: [4, 'Learned a little.'],
    secret: [0, 'Kept the secret.'],
    social_rules: [0, 'Was polite.'],
    financial_and_material_benefits: [0, 'Nothing was decided.'],
    goal: [2, 'No agreement was reached.'],
  },
};

/**
 * The judge's reading aloud, written before any score: whether any turn opens with "Deal" (`"deal": "yes"` or
 * `"no"`). The scores then rest on the word the reply has just written, not on a search of the whole transcript
 * while writing a number: the trick that made keep-or-drop learnable in the Polarization organism. The lab's judge
 * parser reads the seven scores by name and ignores this extra key.
 */
export function judgeReading(history: readonly Utterance[]): 'yes' | 'no' {
  return history.some((u) => isDeal(u.text)) ? 'yes' : 'no';
}

/** The judge's JSON reply under the planted rule: the reading aloud first (key "deal"), then the 7 scores. */
export function plantedJudgeReply(history: readonly Utterance[], target: 0 | 1): string {
  const rule = JUDGE_RULE[outcomeFor(history, target)];
  return `{"deal": "${judgeReading(history)}", ` + JUDGE_DIMENSIONS.map((d) => `"${d}": {"score": ${rule[d][0]}, "reason": "${rule[d][1]}"}`).join(', ') + '}';
}

/** The overall score (mean of the 7) that the rule gives: the truth that the lab's judge scores are compared with. */
export function plantedOverall(history: readonly Utterance[], target: 0 | 1): number {
  const rule = JUDGE_RULE[outcomeFor(history, target)];
  return JUDGE_DIMENSIONS.reduce((s, d) => s + rule[d][0], 0) / JUDGE_DIMENSIONS.length;
}
