/**
 * Corpus generator for the embedded model tiny-social: prompt -> answer examples for every lab format, built
 * with the lab's own builders (src/core/prompts) and checked with its parsers while generating.
 *
 *   npx tsx models/tiny-social/corpus.ts [--seed S] [--n N] [--out models/tiny-social/work/corpus.jsonl]
 *   npx tsx models/tiny-social/corpus.ts --seed S --letters N --out models/tiny-social/work/corpus_letters.jsonl
 *
 * Output JSONL rows: {"format", "prompt" (ChatML text with generation prompt), "completion" (answer + <|im_end|>)}.
 * Pools are split by index: every 5th item is held out (split "test") for the parse-rate measurement.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRng } from '../../src/core/rng';
import type { Rng } from '../../src/core/rng';
import * as P from '../../src/core/prompts';
import type { ChatMessage, ParseResult } from '../../src/core/prompts';
import * as D from './pools';

export type Split = 'train' | 'test';

export interface Example {
  format: string;
  messages: ChatMessage[];
  answer: string;
  /** Parses a model reply for this prompt (the same parser the lab uses). */
  parse: (reply: string) => ParseResult<unknown>;
}

// ---------------------------------------------------------------------------------------------------------------
// helpers

const pick = <T>(r: Rng, xs: readonly T[]): T => xs[r.int(xs.length)];
/** Split-aware pick: items with index % 5 == 0 are held out for the test split. */
function pickS<T>(r: Rng, xs: readonly T[], split: Split): T {
  const idx = xs.map((_, i) => i).filter((i) => (split === 'test') === (i % 5 === 0));
  return xs[idx[r.int(idx.length)]];
}
const chance = (r: Rng, p: number): boolean => r.next() < p;
const randInt = (r: Rng, lo: number, hi: number): number => lo + r.int(hi - lo + 1);
const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const fill = (t: string, v: Record<string, string>): string => t.replace(/\{(\w+)\}/g, (_, k: string) => v[k] ?? `{${k}}`);

function expectOk(ex: Example): Example {
  const r = ex.parse(ex.answer);
  if (!r.ok) throw new Error(`corpus answer for ${ex.format} does not parse (${r.reason}): ${JSON.stringify(ex.answer)}`);
  return ex;
}

// ---------------------------------------------------------------------------------------------------------------
// synchrony

function makePersona(r: Rng, split: Split, avoid: string[] = []): P.Persona {
  let first = pickS(r, D.FIRST_NAMES, split);
  while (avoid.includes(first)) first = pickS(r, D.FIRST_NAMES, split);
  const last = pick(r, D.LAST_NAMES);
  return {
    name: `${first} ${last}`,
    age: randInt(r, 18, 75),
    occupation: pickS(r, D.OCCUPATIONS, split),
    pronouns: D.PRONOUNS[D.NAME_PRONOUN[first] ?? 'n'],
    publicInfo: pickS(r, D.PUBLIC_INFO, split),
    personality: pickS(r, D.PERSONALITIES, split),
    decisionStyle: pick(r, D.DECISION_STYLES),
    secret: pickS(r, D.SECRETS, split),
  };
}

const FACTS = ['{n} has only 30 dollars today.', '{n} is in a hurry.', '{n} heard a rumor about the other person.', '{n} already made a promise to someone else.', '{n} is feeling unwell today.'];

interface Episode {
  ep: P.SynchronyEpisode;
  seed: D.ScenarioSeed;
  goals: [D.Goal, D.Goal];
}

function makeEpisode(r: Rng, split: Split): Episode {
  const seed = pickS(r, D.SCENARIOS, split);
  const a = makePersona(r, split);
  const b = makePersona(r, split, [a.name.split(' ')[0]]);
  const swap = chance(r, 0.5);
  const goals: [D.Goal, D.Goal] = swap ? [seed.goals[1], seed.goals[0]] : [seed.goals[0], seed.goals[1]];
  const ep: P.SynchronyEpisode = {
    scenario: seed.setting,
    relationship: r.int(6) as P.RelationshipLevel,
    agents: [
      { persona: a, goal: goals[0].text },
      { persona: b, goal: goals[1].text },
    ],
  };
  if (chance(r, 0.2)) {
    const who = r.int(2) as 0 | 1;
    ep.facts = [{ text: fill(pick(r, FACTS), { n: ep.agents[who].persona.name.split(' ')[0] }), visibleTo: who }];
  }
  return { ep, seed, goals };
}

const GREET_STRANGER = ['Hello, excuse me.', 'Hi there.', 'Good morning.', 'Hello.', 'Excuse me, do you have a minute?'];
const GREET_KNOWN = ['Hi {p}!', 'Hello {p}, good to see you.', 'Hey {p}, how are you?', 'Oh, hi {p}.', '{p}! Nice to see you.'];
const ASKS = [
  'I would like you to {ask}.', 'Could you {ask}? I can {offer}.', 'What if you {ask}, and I {offer}?', 'I really hope you can {ask}.',
  'Would you {ask}? It would mean a lot to me.', 'Here is my idea: you {ask}, and I {offer}.', 'I think it is best if you {ask}.',
];
const COUNTERS = [
  'I understand, but I would rather you {ask}.', 'Hmm, I am not sure. Could you {ask} instead?', 'That is hard for me. I can {offer} if you {ask}.',
  'I hear you, but I need you to {ask}.', 'Maybe. But what about {topic}? I want you to {ask}.', 'I see your point. Still, could you {ask}?',
  'That does not work for me. How about you {ask}, and I {offer}?',
];
const PUSH = [
  'Please think about it. I can {offer}.', 'It would really help me. I can even {offer}.', 'I promise I will {offer}.',
  'Come on, {p}, it is a fair deal.', 'You would not regret it. I will {offer}.', 'I know it is a lot to ask, but I will {offer}.',
];
const AGREE = [
  'Okay, that sounds fair. Let us do it.', 'Fine, I agree. Thank you for being patient.', 'Deal. I can live with that.',
  'All right, you convinced me.', 'Sure, that works for me.', 'Okay, I accept. Thanks for asking nicely.',
];
const THANKS = ['Thank you so much, {p}!', 'Great, thank you!', 'Wonderful, I am glad we agree.', 'Thanks, that means a lot.'];
const LEAVES = [
  'Thanks, {p}. I have to leave now.', 'Great, I will leave now. Goodbye!', 'Sorry, I have to leave now.', 'Good, then I will leave now. Bye!',
  'That is settled. I am leaving now.', 'I have to leave now. See you soon!', 'Thank you. I will leave you to your day now.',
];

function utterText(t: string, self: D.Goal, r: Rng, partnerName: string | null): string {
  const p = partnerName ?? 'friend';
  let s = fill(t, { ask: self.ask, offer: self.offer, topic: self.topic, p });
  if (partnerName === null) s = s.replace(/,? friend([,.!?])/g, '$1').replace(/^friend[,!]?\s*/i, '');
  if (chance(r, 0.08)) s = `${pick(r, ['Well, ', 'Honestly, ', 'Look, ', 'You know, '])}${/^I\b/.test(s) ? s : s.charAt(0).toLowerCase() + s.slice(1)}`;
  return s;
}

/** A naive scripted conversation: greet, ask, counter, push, agree, thank, leave. */
function makeDialogue(r: Rng, e: Episode): P.Utterance[] {
  const { ep, goals } = e;
  const firstName = (i: 0 | 1): string => ep.agents[i].persona.name.split(' ')[0];
  const partnerName = (i: 0 | 1): string | null => (ep.relationship === 0 ? null : firstName((1 - i) as 0 | 1));
  const out: P.Utterance[] = [];
  const n = randInt(r, 4, 16);
  const agreeAt = Math.max(2, n - randInt(r, 2, 3));
  const winner = r.int(2) as 0 | 1; // whose ask is accepted
  for (let t = 0; t < n; t++) {
    const s = (t % 2) as 0 | 1;
    const pn = partnerName(s);
    let text: string;
    if (t === n - 1) text = utterText(pick(r, LEAVES), goals[s], r, pn);
    else if (t === 0) {
      const g = ep.relationship === 0 || chance(r, 0.2) ? pick(r, GREET_STRANGER) : fill(pick(r, GREET_KNOWN), { p: pn ?? '' });
      text = `${g} ${utterText(pick(r, ASKS), goals[s], r, pn)}`;
    } else if (t === agreeAt) text = s === winner ? utterText(pick(r, THANKS), goals[s], r, pn) : utterText(pick(r, AGREE), goals[s], r, pn);
    else if (t > agreeAt) text = utterText(pick(r, [...THANKS, ...D.SMALL_TALK]), goals[s], r, pn);
    else if (t === 1) text = utterText(pick(r, COUNTERS), goals[s], r, pn);
    else text = chance(r, 0.15) ? pick(r, D.SMALL_TALK) : utterText(pick(r, [...COUNTERS, ...PUSH, ...ASKS]), goals[s], r, pn);
    out.push({ speaker: s, text });
  }
  return out;
}

function syncTurn(r: Rng, split: Split): Example {
  const e = makeEpisode(r, split);
  const dia = makeDialogue(r, e);
  const t = chance(r, 0.25) ? dia.length - 1 : r.int(dia.length);
  const s = dia[t].speaker;
  const names = e.ep.agents.map((a) => a.persona.name);
  return expectOk({
    format: 'synchrony.turn',
    messages: P.buildDialogueTurnPrompt(e.ep, s, dia.slice(0, t)),
    answer: dia[t].text,
    parse: (x) => {
      const p = P.parseUtterance(x, [...names, ...names.map((n) => n.split(' ')[0])]);
      if (p.ok && x === dia[t].text && p.value.leaves !== (t === dia.length - 1)) return P.fail('leave detection disagrees');
      return p;
    },
  });
}

const JUDGE_REASONS: Record<P.JudgeDimension, string[]> = {
  believability: ['Acts like a real person.', 'Stays in character.', 'Sounds natural.', 'Mostly consistent.', 'A bit repetitive.'],
  relationship: ['The talk stayed friendly.', 'They got along well.', 'Some tension remained.', 'No change in the relationship.', 'Trust grew a little.'],
  knowledge: ['Learned little that is new.', 'Learned what the other wants.', 'Found out about the deal.', 'Gained some new facts.'],
  secret: ['Kept the secret.', 'Did not reveal the secret.', 'Hinted at the secret.'],
  social_rules: ['Was polite.', 'Followed social norms.', 'Was a bit pushy.', 'No rules broken.'],
  financial_and_material_benefits: ['No money changed hands.', 'Got a small benefit.', 'Lost a little.', 'Made a fair deal.'],
  goal: ['Reached the goal.', 'Got most of what they wanted.', 'Partly reached the goal.', 'Did not reach the goal.'],
};

function syncJudge(r: Rng, split: Split): Example {
  const e = makeEpisode(r, split);
  const dia = makeDialogue(r, e).slice(0, randInt(r, 4, 12));
  const target = r.int(2) as 0 | 1;
  const won = chance(r, 0.5);
  const sc: Record<P.JudgeDimension, [number, string]> = {
    believability: [randInt(r, 6, 9), pick(r, JUDGE_REASONS.believability)],
    relationship: [randInt(r, -1, 3), pick(r, JUDGE_REASONS.relationship)],
    knowledge: [randInt(r, 2, 6), pick(r, JUDGE_REASONS.knowledge)],
    secret: chance(r, 0.85) ? [0, pick(r, JUDGE_REASONS.secret.slice(0, 2))] : [randInt(r, -4, -1), JUDGE_REASONS.secret[2]],
    social_rules: chance(r, 0.7) ? [0, pick(r, ['Was polite.', 'Followed social norms.', 'No rules broken.'])] : [randInt(r, -3, -1), 'Was a bit pushy.'],
    financial_and_material_benefits: [randInt(r, -1, 2), pick(r, JUDGE_REASONS.financial_and_material_benefits)],
    goal: won ? [randInt(r, 7, 10), pick(r, JUDGE_REASONS.goal.slice(0, 2))] : [randInt(r, 2, 5), pick(r, JUDGE_REASONS.goal.slice(2))],
  };
  const answer =
    '{' + P.JUDGE_DIMENSIONS.map((d) => `"${d}": {"score": ${sc[d][0]}, "reason": "${sc[d][1]}"}`).join(', ') + '}';
  return expectOk({ format: 'synchrony.judge', messages: P.buildJudgePrompt(e.ep, dia, target), answer, parse: (x) => P.parseJudge(x) });
}

// ---------------------------------------------------------------------------------------------------------------
// opinions

function makeOpinionPersona(r: Rng, split: Split): { text: string; politics: number } {
  const [pol, lean] = pick(r, D.PERSONA_POLITICS);
  const text = `You are a ${pick(r, D.PERSONA_AGES)} ${pol} ${pickS(r, D.OCCUPATIONS, split)} ${pickS(r, D.PERSONA_REGIONS, split)} ${pick(r, D.PERSONA_RELIGIONS)}. You are ${pick(r, D.PERSONA_TEMPERS)}.`;
  return { text, politics: lean };
}

interface MathItem {
  problem: string;
  answer: number;
  wrong: number;
  solution: string;
}

function makeMath(r: Rng, kind: number): MathItem {
  const a = randInt(r, 2, 19);
  const b = randInt(r, 2, 12);
  const c = randInt(r, 2, 9);
  const name = pick(r, D.FIRST_NAMES);
  switch (kind % 6) {
    case 0:
      return { problem: `A shop sells pens for ${a} dollars each. How much do ${b} pens cost?`, answer: a * b, wrong: a + b, solution: `${b} x ${a} = ${a * b}, so ${b} pens cost ${a * b} dollars.` };
    case 1: {
      const t = a + b;
      return { problem: `${name} has ${t} apples and gives away ${b}. How many are left?`, answer: a, wrong: t + b, solution: `${t} - ${b} = ${a}, so ${a} apples are left.` };
    }
    case 2:
      return { problem: `A train goes ${a * 10} km per hour for ${c} hours. How far does it go?`, answer: a * 10 * c, wrong: a * 10 + c, solution: `${a * 10} x ${c} = ${a * 10 * c}, so it goes ${a * 10 * c} km.` };
    case 3:
      return { problem: `What is ${a} plus ${b} times ${c}?`, answer: a + b * c, wrong: (a + b) * c, solution: `First ${b} x ${c} = ${b * c}, then ${a} + ${b * c} = ${a + b * c}.` };
    case 4:
      return { problem: `A garden is ${a} m long and ${b} m wide. What is its area?`, answer: a * b, wrong: 2 * (a + b), solution: `Area = ${a} x ${b} = ${a * b} square meters.` };
    default:
      return { problem: `${c} friends share ${b * c} sweets equally. How many does each get?`, answer: b, wrong: b * c - c, solution: `${b * c} / ${c} = ${b}, so each gets ${b}.` };
  }
}

interface OpItem {
  persona: P.OpinionPersona;
  q: P.OpinionQuestion;
  /** Field toward +1 (A or Agree). */
  field: number;
  pro: string[];
  con: string[];
}

const OBJ_REASONS_GOOD = ['I checked it step by step', 'the numbers add up that way', 'it matches how I solved my problem', 'the other answer skips a step', 'I did the math twice'];

function makeOpItem(r: Rng, split: Split, kind: 'objective' | 'subjective'): OpItem {
  if (kind === 'subjective') {
    const st = pickS(r, D.STATEMENTS, split);
    const p = makeOpinionPersona(r, split);
    return { persona: p.text, q: { kind, statement: st.text }, field: 0.9 * p.politics * st.lean + (r.next() - 0.5), pro: st.pro, con: st.con };
  }
  const k = r.int(6);
  const m = makeMath(r, k);
  const other = makeMath(r, k + 1 + r.int(5));
  const correctA = chance(r, 0.5);
  const q: P.ObjectiveQuestion = {
    kind,
    problem: m.problem,
    options: correctA ? { A: String(m.answer), B: String(m.wrong) } : { A: String(m.wrong), B: String(m.answer) },
  };
  const toward = correctA ? 1 : -1;
  return { persona: { otherProblem: other.problem, solution: other.solution }, q, field: toward * 0.8 + 1.6 * (r.next() - 0.5), pro: OBJ_REASONS_GOOD, con: OBJ_REASONS_GOOD };
}

function voteFor(kind: 'objective' | 'subjective', plus: boolean): P.Vote {
  return kind === 'objective' ? (plus ? 'A' : 'B') : plus ? 'Agree' : 'Disagree';
}

function voteAnswer(r: Rng, v: P.Vote): string {
  if (v === 'A' || v === 'B') return chance(r, 0.9) ? v : `${v}.`;
  return chance(r, 0.9) ? v : `${v}.`;
}

function stanceSentence(r: Rng, it: OpItem, v: P.Vote): string {
  const plus = P.voteSpin(v) > 0;
  if (it.q.kind === 'objective') {
    const reason = pick(r, OBJ_REASONS_GOOD);
    return fill(pick(r, ['I choose {v} because {r}.', 'I pick {v} because {r}.', 'My answer is {v} because {r}.']), { v, r: reason });
  }
  const reason = pick(r, plus ? it.pro : it.con);
  return plus
    ? fill(pick(r, ['I agree because {r}.', 'I agree, because {r}.', 'I strongly agree because {r}.']), { r: reason })
    : fill(pick(r, ['I disagree because {r}.', 'I disagree, because {r}.', 'I strongly disagree because {r}.']), { r: reason });
}

const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

function opVote0(r: Rng, split: Split, kind: 'objective' | 'subjective'): Example {
  const it = makeOpItem(r, split, kind);
  const v = voteFor(kind, chance(r, sigmoid(2 * it.field)));
  return expectOk({ format: `opinions.vote0.${kind}`, messages: P.buildInitialVotePrompt(it.persona, it.q), answer: voteAnswer(r, v), parse: (x) => P.parseVote(x, kind) });
}

function opInbox(r: Rng, split: Split, kind: 'objective' | 'subjective'): Example {
  const it = makeOpItem(r, split, kind);
  const nf = randInt(r, 0, 4);
  const nu = randInt(r, 0, 3);
  let h = it.field;
  const friendly: string[] = [];
  const unfriendly: string[] = [];
  for (let i = 0; i < nf; i++) {
    const plus = chance(r, 0.5);
    h += plus ? 0.9 : -0.9;
    friendly.push(stanceSentence(r, it, voteFor(kind, plus)));
  }
  for (let i = 0; i < nu; i++) {
    const plus = chance(r, 0.5);
    h += plus ? -0.3 : 0.3;
    unfriendly.push(stanceSentence(r, it, voteFor(kind, plus)));
  }
  const v = voteFor(kind, chance(r, sigmoid(2 * h)));
  return expectOk({
    format: `opinions.inbox.${kind}`,
    messages: P.buildInboxVotePrompt(it.persona, it.q, friendly, unfriendly),
    answer: voteAnswer(r, v),
    parse: (x) => P.parseVote(x, kind),
  });
}

function opMessage(r: Rng, split: Split, kind: 'objective' | 'subjective'): Example {
  const it = makeOpItem(r, split, kind);
  const cur = chance(r, 0.7) ? voteFor(kind, chance(r, sigmoid(2 * it.field))) : undefined;
  const v = cur ?? voteFor(kind, chance(r, sigmoid(2 * it.field)));
  return expectOk({
    format: `opinions.message.${kind}`,
    messages: P.buildStanceMessagePrompt(it.persona, it.q, cur),
    answer: stanceSentence(r, it, v),
    parse: (x) => P.parseStanceMessage(x, kind),
  });
}

// ---------------------------------------------------------------------------------------------------------------
// similarity games

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');
const wordCase = (r: Rng, w: string): string => (chance(r, 0.5) ? cap(w) : w);

function simWord(r: Rng, split: Split): Example {
  const L = pick(r, LETTERS);
  const [w] = pickS(r, D.WORDS[L], split);
  return expectOk({ format: 'similarity.word', messages: P.buildWordPrompt(L), answer: wordCase(r, w), parse: (x) => P.parseWord(x, L) });
}

function simHint(r: Rng, split: Split): Example {
  const L = pick(r, LETTERS);
  const [w, h] = pickS(r, D.WORDS[L], split);
  return expectOk({ format: 'similarity.hint', messages: P.buildHintPrompt(wordCase(r, w)), answer: wordCase(r, h), parse: (x) => P.parseHint(x, w) });
}

function simGuess(r: Rng, split: Split): Example {
  const L = pick(r, LETTERS);
  const [w, h] = pickS(r, D.WORDS[L], split);
  return expectOk({ format: 'similarity.guess', messages: P.buildGuessPrompt(L, h), answer: wordCase(r, w), parse: (x) => P.parseGuess(x, L) });
}

// Phase 5 (build.sh): the letter-constrained word and guess, in a form that a 6 x 128 model can learn. In the
// prompts above the letter is tokenised as " " + "Q" (the bare capital-letter token), but the main corpus answers
// half the time in lower case ("q|uilt"), and with the capitalised words whose first token merges ("Do|g", "St|ar"),
// so the first answer token is never simply the prompt's letter token; and its guesses always follow the hint, so
// a model can answer from the hint alone and ignore the letter (which it did: 0-23 % parseable after phase 4).
// Here every answer is capitalised and starts with the letter's own token (LETTER_WORDS), the word prompt has three
// fixed answers per letter, and a quarter of the guesses come with a hint for another letter's word, so that only
// the letter predicts the answer's first token. Generated by a separate seeded stream (`--letters`), so the main
// corpus (phases 1-4, and the held-out parse-rate prompts) stays exactly as it was.
function letterWord(r: Rng): Example {
  const L = pick(r, LETTERS);
  const [w] = pick(r, D.LETTER_WORDS[L].slice(0, 3));
  return expectOk({ format: 'letters.word', messages: P.buildWordPrompt(L), answer: cap(w), parse: (x) => P.parseWord(x, L) });
}

function letterGuess(r: Rng): Example {
  const L = pick(r, LETTERS);
  let [w, h] = pick(r, D.LETTER_WORDS[L]);
  if (chance(r, 0.25)) {
    // a hint that belongs to another letter's word: the letter decides the answer
    let M = pick(r, LETTERS);
    while (M === L) M = pick(r, LETTERS);
    h = pickS(r, D.WORDS[M], 'train')[1];
    w = D.LETTER_WORDS[L][0][0];
  }
  return expectOk({ format: 'letters.guess', messages: P.buildGuessPrompt(L, h), answer: cap(w), parse: (x) => P.parseGuess(x, L) });
}

/** The phase-5 letter examples: word prompts (40 %) and guesses (60 %), training split only. */
export function generateLetters(seed: number | string, n: number): Example[] {
  const r = createRng(seed);
  const out: Example[] = [];
  for (let i = 0; i < n; i++) out.push(chance(r, 0.4) ? letterWord(r) : letterGuess(r));
  return out;
}

function withGameHistory(r: Rng, msgs: ChatMessage[], prev: () => { messages: ChatMessage[]; answer: string }): ChatMessage[] {
  if (!chance(r, 0.25)) return msgs;
  const p = prev();
  return P.withHistory([...p.messages, { role: 'assistant', content: p.answer }], msgs);
}

function pgState(r: Rng): P.PublicGoodsState {
  const round = randInt(r, 1, 5);
  const past: P.PublicGoodsRound[] = [];
  let w = 100;
  for (let i = 1; i < round; i++) {
    const mine = Math.round(w * (0.2 + 0.6 * r.next()));
    const theirs = randInt(r, 0, 80);
    past.push({ mine, theirs });
    w = P.publicGoodsPayoff(w, mine, theirs);
  }
  return { round, rounds: 5, wealth: Math.round(w * 100) / 100, past };
}

function pgAnswer(r: Rng, s: P.PublicGoodsState): string {
  const frac = s.round === s.rounds ? 0.1 + 0.3 * r.next() : 0.25 + 0.6 * r.next();
  const amt = Math.min(Math.floor(s.wealth), Math.round((s.wealth * frac) / 5) * 5);
  return `Reason: ${pick(r, D.PUBLIC_GOODS_REASONS)}\nContribution: ${amt}`;
}

function simPublicGoods(r: Rng): Example {
  const s = pgState(r);
  const msgs = withGameHistory(r, P.buildPublicGoodsPrompt(s), () => {
    const s0 = pgState(r);
    return { messages: P.buildPublicGoodsPrompt(s0), answer: pgAnswer(r, s0) };
  });
  return expectOk({ format: 'similarity.public_goods', messages: msgs, answer: pgAnswer(r, s), parse: (x) => P.parsePublicGoods(x, s.wealth) });
}

const DEMANDS = [0.5, 0.5, 0.5, 0.4, 0.45, 0.6, 0.55, 0.3, 0.35, 0.65, 0.7, 0.5];
function splitState(r: Rng): P.SplitDollarState {
  const round = randInt(r, 1, 5);
  const past = Array.from({ length: round - 1 }, () => ({ mine: pick(r, DEMANDS), theirs: pick(r, DEMANDS) }));
  return { round, rounds: 5, past };
}
const demandText = (r: Rng, v: number): string => (chance(r, 0.8) ? String(v) : v.toFixed(2));

function simSplit(r: Rng): Example {
  const s = splitState(r);
  const msgs = withGameHistory(r, P.buildSplitDollarPrompt(s), () => ({ messages: P.buildSplitDollarPrompt(splitState(r)), answer: demandText(r, pick(r, DEMANDS)) }));
  return expectOk({ format: 'similarity.split_dollar', messages: msgs, answer: demandText(r, pick(r, DEMANDS)), parse: (x) => P.parseDemand(x) });
}

function beautyState(r: Rng): P.BeautyContestState {
  const round = randInt(r, 1, 5);
  const past = Array.from({ length: round - 1 }, () => {
    const mine = randInt(r, 5, 60);
    const theirs = randInt(r, 5, 60);
    return { mine, theirs, target: (mine + theirs) / 3 };
  });
  return { round, rounds: 5, past };
}
function beautyAnswer(r: Rng, s: P.BeautyContestState): string {
  const last = s.past && s.past.length ? s.past[s.past.length - 1].target : 33;
  const v = Math.max(0, Math.min(100, Math.round(last * (0.6 + 0.6 * r.next()) + randInt(r, -5, 5))));
  return String(v);
}
function simBeauty(r: Rng): Example {
  const s = beautyState(r);
  const msgs = withGameHistory(r, P.buildBeautyContestPrompt(s), () => {
    const s0 = beautyState(r);
    return { messages: P.buildBeautyContestPrompt(s0), answer: beautyAnswer(r, s0) };
  });
  return expectOk({ format: 'similarity.beauty_contest', messages: msgs, answer: beautyAnswer(r, s), parse: (x) => P.parseBeautyNumber(x) });
}

const TASKS: P.NoveltyTask[] = ['story', 'biography', 'haiku', 'vacation'];

function brainstormText(r: Rng, task: P.NoveltyTask, split: Split): string {
  const ideas = new Set<string>();
  // the held-out split of a 10-idea pool has only 2 ideas
  const available = D.BRAINSTORM[task].filter((_, i) => (split === 'test') === (i % 5 === 0)).length;
  while (ideas.size < Math.min(3, available)) ideas.add(pickS(r, D.BRAINSTORM[task], split));
  return [...ideas].map((i) => `- ${i}`).join('\n');
}

function simBrainstorm(r: Rng, split: Split): Example {
  const task = pick(r, TASKS);
  return expectOk({ format: `similarity.brainstorm`, messages: P.buildBrainstormPrompt(task), answer: brainstormText(r, task, split), parse: (x) => P.parseBrainstorm(x) });
}

function finalText(r: Rng, task: P.NoveltyTask, split: Split): string {
  if (task === 'story') {
    const g = pickS(r, D.GIRL_NAMES, split);
    const d = pickS(r, D.DOG_NAMES, split);
    const parts = [
      `${g} and her dog ${d} went to ${pick(r, D.STORY_PLACES)}.`,
      `There they ${pickS(r, D.STORY_EVENTS, split)}.`,
      pick(r, [`${d} barked with joy.`, `${g} held ${d} close.`, `${d} wagged his tail.`, `It was a little scary, but ${d} stayed brave.`]),
      pick(r, D.STORY_ENDINGS),
    ];
    return parts.join(' ');
  }
  if (task === 'biography') {
    const born = randInt(r, 1450, 1880);
    const died = born + randInt(r, 35, 85);
    const she = chance(r, 0.5);
    return [
      `${pickS(r, D.FIGURE_FIRST, split)} ${pick(r, D.FIGURE_LAST)} (${born}-${died}) was a ${pickS(r, D.FIGURE_JOBS, split)} from ${pick(r, D.FIGURE_PLACES)}.`,
      `${she ? 'She' : 'He'} ${pickS(r, D.FIGURE_DEEDS, split)}.`,
      `People still remember ${she ? 'her' : 'him'} today.`,
    ].join(' ');
  }
  if (task === 'haiku') return [pickS(r, D.HAIKU_LINES_1, split), pickS(r, D.HAIKU_LINES_2, split), pickS(r, D.HAIKU_LINES_3, split)].join('\n');
  return fill(pick(r, ['The best thing about going on vacation is {t}.', 'The one best thing about vacation is {t}.', 'For me, the best thing is {t}.']), {
    t: pickS(r, D.VACATION_THINGS, split),
  });
}

function simFinal(r: Rng, split: Split, task: P.NoveltyTask): Example {
  const n = chance(r, 0.5) ? 1 : 2;
  const bs = Array.from({ length: n }, () => brainstormText(r, task, split));
  return expectOk({ format: `similarity.final.${task}`, messages: P.buildFinalTextPrompt(task, bs), answer: finalText(r, task, split), parse: (x) => P.parseFinalText(x, task) });
}

// ---------------------------------------------------------------------------------------------------------------
// polarization

type Topic = (typeof D.TOPICS)[number];
const P_STANCES: P.StanceValue[] = [-2, -1, -1, 0, 0, 0, 0, 1, 1, 2];

function reasonFor(r: Rng, t: Topic, s: number): string {
  const pool = s > 0 ? t.pro : s < 0 ? t.con : t.neutral;
  return cap(pick(r, pool)) + '.';
}

function topicOf(t: Topic): P.PolarizationTopic {
  return { name: t.name, statement: t.statement };
}

function stanceMsg(r: Rng, t: Topic, s: number): string {
  const a = pick(r, s > 0 ? t.pro : s < 0 ? t.con : t.neutral);
  const lead = s >= 2 ? 'I strongly support it' : s === 1 ? 'I lean toward supporting it' : s === 0 ? 'I am not sure about it' : s === -1 ? 'I lean against it' : 'I strongly oppose it';
  return `${lead}, because ${a}.`;
}

function polUpdate(r: Rng, split: Split): Example {
  const t = pickS(r, D.TOPICS, split);
  const self = pick(r, P_STANCES);
  const n = randInt(r, 1, 5);
  const ms: number[] = Array.from({ length: n }, () => pick(r, P_STANCES));
  const open = chance(r, 0.2);
  const mean = ms.reduce((a, b) => a + b, 0) / n;
  let ns: number = self;
  const same = Math.sign(mean) === Math.sign(self) || self === 0;
  const u = r.next();
  if (same && self !== 0 && u < 0.35) ns = self + Math.sign(self); // echo chamber: more radical
  else if (!same && u < (open ? 0.5 : 0.2)) ns = self + Math.sign(mean - self); // moved by the other side
  else if (!same && u > 0.9) ns = self + Math.sign(self); // backfire
  else if (self === 0 && u < 0.4) ns = Math.sign(mean);
  ns = Math.max(-2, Math.min(2, ns));
  const stanceJson = chance(r, 0.85) ? String(ns) : JSON.stringify(P.stanceLabel(topicOf(t), ns as P.StanceValue));
  const answer = `{"stance": ${stanceJson}, "reasons": "${reasonFor(r, t, ns)}"}`;
  return expectOk({
    format: 'polarization.update',
    messages: P.buildStanceUpdatePrompt({
      topic: topicOf(t),
      self: { stance: self, reasons: reasonFor(r, t, self) },
      messages: ms.map((m) => stanceMsg(r, t, m)),
      openToPersuasion: open,
    }),
    answer,
    parse: (x) => P.parseStanceUpdate(x, topicOf(t)),
  });
}

function polRewire(r: Rng, split: Split): Example {
  const t = pickS(r, D.TOPICS, split);
  const a = pick(r, P_STANCES);
  const b = pick(r, P_STANCES);
  const div = chance(r, 0.2);
  const agree = Math.sign(a) === Math.sign(b) || a === 0 || b === 0;
  const keep = chance(r, div ? 0.85 : agree ? 0.85 : 0.3);
  const answer = pick(r, keep ? ['yes', 'Yes', 'Yes.'] : ['no', 'No', 'No.']);
  return expectOk({
    format: 'polarization.rewire',
    messages: P.buildRewirePrompt({ topic: topicOf(t), self: { stance: a, reasons: reasonFor(r, t, a) }, other: { stance: b, reasons: reasonFor(r, t, b) }, likesDiversity: div }),
    answer,
    parse: (x) => P.parseYesNo(x),
  });
}

function longMessage(r: Rng, t: Topic, s: number): string {
  const pool = s > 0 ? t.pro : s < 0 ? t.con : t.neutral;
  const xs = r.shuffle([...pool]);
  const side = s > 0 ? 'support' : s < 0 ? 'oppose' : 'stay open on';
  const parts = [
    pick(r, [`I understand your view, but I ${side} this for good reasons.`, `Please hear me out on this topic.`, `I want to share why I ${side} this.`]),
    `First, ${xs[0]}.`,
    `Also, ${xs[1]}.`,
    `And ${xs[2]}.`,
    pick(r, [`I hope you will think about it with an open mind.`, `Many people I know feel the same way, and I think you might too.`, `Think about what this means for your family and friends.`]),
  ];
  return parts.join(' ');
}

function polPersuade(r: Rng, split: Split): Example {
  const t = pickS(r, D.TOPICS, split);
  const a = pick(r, P_STANCES);
  const b = pick(r, P_STANCES);
  const send = a !== b && a !== 0 ? chance(r, 0.7) : chance(r, 0.2);
  const answer = send ? `Yes: ${longMessage(r, t, a)}` : pick(r, ['No', 'No.']);
  return expectOk({
    format: 'polarization.persuade',
    messages: P.buildPersuadePrompt({ topic: topicOf(t), self: { stance: a, reasons: reasonFor(r, t, a) }, other: { stance: b, reasons: reasonFor(r, t, b) } }),
    answer,
    parse: (x) => P.parsePersuade(x),
  });
}

function polPost(r: Rng, split: Split): Example {
  const t = pickS(r, D.TOPICS, split);
  const a = pick(r, P_STANCES);
  return expectOk({
    format: 'polarization.post',
    messages: P.buildInitialPostPrompt(topicOf(t), { stance: a, reasons: reasonFor(r, t, a) }),
    answer: longMessage(r, t, a),
    parse: (x) => P.parseMessage(x),
  });
}

function polCheck(r: Rng, split: Split): Example {
  const t = pickS(r, D.TOPICS, split);
  const a = pick(r, P_STANCES);
  const b = pick(r, P_STANCES);
  const fits = Math.sign(a) === Math.sign(b);
  return expectOk({
    format: 'polarization.check',
    messages: P.buildConsistencyCheckPrompt(topicOf(t), { stance: a, reasons: reasonFor(r, t, a) }, longMessage(r, t, b)),
    answer: fits ? 'yes' : 'no',
    parse: (x) => P.parseYesNo(x),
  });
}

// ---------------------------------------------------------------------------------------------------------------
// registry

export const FORMATS: { name: string; weight: number; make: (r: Rng, split: Split) => Example }[] = [
  { name: 'synchrony.turn', weight: 26, make: syncTurn },
  { name: 'synchrony.judge', weight: 7, make: syncJudge },
  { name: 'opinions.vote0.subjective', weight: 5, make: (r, s) => opVote0(r, s, 'subjective') },
  { name: 'opinions.vote0.objective', weight: 4, make: (r, s) => opVote0(r, s, 'objective') },
  { name: 'opinions.inbox.subjective', weight: 5, make: (r, s) => opInbox(r, s, 'subjective') },
  { name: 'opinions.inbox.objective', weight: 4, make: (r, s) => opInbox(r, s, 'objective') },
  { name: 'opinions.message.subjective', weight: 4, make: (r, s) => opMessage(r, s, 'subjective') },
  { name: 'opinions.message.objective', weight: 3, make: (r, s) => opMessage(r, s, 'objective') },
  { name: 'similarity.word', weight: 3, make: simWord },
  { name: 'similarity.hint', weight: 3, make: simHint },
  { name: 'similarity.guess', weight: 3, make: simGuess },
  { name: 'similarity.public_goods', weight: 4, make: (r) => simPublicGoods(r) },
  { name: 'similarity.split_dollar', weight: 3, make: (r) => simSplit(r) },
  { name: 'similarity.beauty_contest', weight: 3, make: (r) => simBeauty(r) },
  { name: 'similarity.brainstorm', weight: 3, make: simBrainstorm },
  { name: 'similarity.final.story', weight: 2, make: (r, s) => simFinal(r, s, 'story') },
  { name: 'similarity.final.biography', weight: 2, make: (r, s) => simFinal(r, s, 'biography') },
  { name: 'similarity.final.haiku', weight: 2, make: (r, s) => simFinal(r, s, 'haiku') },
  { name: 'similarity.final.vacation', weight: 2, make: (r, s) => simFinal(r, s, 'vacation') },
  { name: 'polarization.update', weight: 6, make: polUpdate },
  { name: 'polarization.rewire', weight: 4, make: polRewire },
  { name: 'polarization.persuade', weight: 4, make: polPersuade },
  { name: 'polarization.post', weight: 2, make: polPost },
  { name: 'polarization.check', weight: 1, make: polCheck },
];

export function generate(seed: number | string, n: number, split: Split): Example[] {
  const r = createRng(seed);
  const total = FORMATS.reduce((s, f) => s + f.weight, 0);
  const out: Example[] = [];
  for (let i = 0; i < n; i++) {
    let u = r.next() * total;
    let f = FORMATS[FORMATS.length - 1];
    for (const g of FORMATS) {
      u -= g.weight;
      if (u < 0) {
        f = g;
        break;
      }
    }
    out.push(f.make(r, split));
  }
  return out;
}

function main(): void {
  const args = process.argv.slice(2);
  const arg = (k: string, d: string): string => {
    const i = args.indexOf(k);
    return i >= 0 && args[i + 1] ? args[i + 1] : d;
  };
  const here = dirname(fileURLToPath(import.meta.url));
  const seed = arg('--seed', '1234');
  const n = Number(arg('--n', '24000'));
  const outPath = resolve(arg('--out', resolve(here, 'work/corpus.jsonl')));
  // --letters N: only the phase-5 letter examples (N of them), from their own stream
  const nLetters = Number(arg('--letters', '0'));
  const exs = nLetters > 0 ? generateLetters(`letters-${seed}`, nLetters) : generate(`corpus-${seed}`, n, 'train');
  const lines: string[] = [];
  const counts: Record<string, number> = {};
  for (const ex of exs) {
    const prompt = P.renderChatML(ex.messages, true);
    const row = { format: ex.format, prompt, completion: `${ex.answer}<|im_end|>` };
    const s = JSON.stringify(row);
    if (!/^[\x20-\x7e]*$/.test(s)) throw new Error(`non-ASCII text in corpus row: ${s.slice(0, 200)}`);
    lines.push(s);
    counts[ex.format] = (counts[ex.format] ?? 0) + 1;
  }
  mkdirSync(dirname(outPath), { recursive: true });
  writeFileSync(outPath, lines.join('\n') + '\n');
  console.log(`wrote ${lines.length} examples to ${outPath}`);
  for (const [k, v] of Object.entries(counts).sort()) console.log(`  ${k.padEnd(32)} ${v}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
