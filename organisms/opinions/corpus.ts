/**
 * Corpus of the Opinions organism: the lab's own prompts (src/core/prompts/opinions.ts) answered by the planted law
 * of ./law.ts, plus a replay of the embedded model's other formats so that the other labs still parse.
 *
 *   npx tsx organisms/opinions/corpus.ts [--seed S] [--n N] [--replay R] [--sharp 2 | --gain F,U,B] --out work/corpus.jsonl
 *
 * Every vote is drawn, with the seeded RNG, with the per-vote probability q(h) of law.ts; every stance message
 * states the agent's current answer, so that the spins the lab records are the stances its neighbours read.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRng } from '../../src/core/rng';
import type { Rng } from '../../src/core/rng';
import * as P from '../../src/core/prompts';
import { INBOX_MAX_CHARS } from '../../src/core/prompts/opinions';
import { perVoteProbability, plantedField, plantedH } from './law';
import * as D from './pools';
import { option } from '../args';
import { answerRows, replayRows, writeCorpus, type CorpusRow } from '../corpus-io';

type Kind = 'subjective' | 'objective';

export interface OrganismExample {
  format: string;
  messages: P.ChatMessage[];
  answer: string;
  /** The planted h behind a vote (votes only), for the build's checks. */
  h?: number;
  /**
   * Votes only: both answers, with the planted chance of each as a weight (a soft label). The corpus writes the
   * prompt once per answer; one drawn answer would be a noisy label of a chance that is near one half for most h.
   */
  soft?: { answer: string; weight: number }[];
}

const pick = <T>(r: Rng, xs: readonly T[]): T => xs[r.int(xs.length)];
const chance = (r: Rng, p: number): boolean => r.next() < p;
const randInt = (r: Rng, lo: number, hi: number): number => lo + r.int(hi - lo + 1);
const fill = (t: string, v: Record<string, string>): string => t.replace(/\{(\w+)\}/g, (_, k: string) => v[k] ?? '');

interface Item {
  persona: P.OpinionPersona;
  q: P.OpinionQuestion;
  /** +1 when agreeing is the conservative position, −1 the liberal one (objective: 0). */
  lean: number;
  field: number;
}

function persona(r: Rng): { text: string; politics: number } {
  const [pol, politics] = chance(r, 0.9) ? pick(r, D.POLITICS) : ['', 0];
  const words = [`${randInt(r, 18, 80)}-year-old`, pol, pick(r, D.OCCUPATIONS)].filter(Boolean).join(' ');
  return { text: `You are a ${words} from ${pick(r, D.PLACES)} ${pick(r, D.RELIGIONS)}. You are ${pick(r, D.TEMPERS)}.`, politics };
}

function statement(r: Rng): { text: string; lean: number } {
  const lean = chance(r, 0.5) ? 1 : -1;
  const p = pick(r, lean > 0 ? D.RIGHT_POLICIES : D.LEFT_POLICIES);
  return { text: fill(pick(r, D.FRAMES), { p }), lean };
}

function arithmetic(r: Rng): { problem: string; answer: number; wrong: number; solution: string } {
  const a = randInt(r, 2, 19);
  const b = randInt(r, 2, 12);
  switch (r.int(3)) {
    case 0:
      return { problem: `A box holds ${a} cups. How many cups are in ${b} boxes?`, answer: a * b, wrong: a + b, solution: `${b} x ${a} = ${a * b}.` };
    case 1:
      return { problem: `A bus has ${a + b} people and ${b} get off. How many are left?`, answer: a, wrong: a + 2 * b, solution: `${a + b} - ${b} = ${a}.` };
    default:
      return {
        problem: `What is ${a} plus ${b} times 2?`,
        answer: a + 2 * b,
        wrong: (a + b) * 2,
        solution: `${b} x 2 = ${2 * b}, then ${a} + ${2 * b} = ${a + 2 * b}.`,
      };
  }
}

function item(r: Rng, kind: Kind): Item {
  if (kind === 'subjective') {
    const p = persona(r);
    const s = statement(r);
    return { persona: p.text, q: { kind, statement: s.text }, lean: s.lean, field: plantedField(p.politics, s.lean) };
  }
  const m = arithmetic(r);
  const other = arithmetic(r);
  const correctA = chance(r, 0.5);
  const options = correctA ? { A: String(m.answer), B: String(m.wrong) } : { A: String(m.wrong), B: String(m.answer) };
  return { persona: { otherProblem: other.problem, solution: other.solution }, q: { kind, problem: m.problem, options }, lean: 0, field: 0 };
}

const voteOf = (kind: Kind, plus: boolean): P.Vote => (kind === 'objective' ? (plus ? 'A' : 'B') : plus ? 'Agree' : 'Disagree');
const voteText = (r: Rng, v: P.Vote): string => (chance(r, 0.9) ? v : `${v}.`);

/** One short sentence stating the vote and a reason on its side (short, so that ~10 fit an inbox of 600 chars). */
export function stanceMessage(r: Rng, it: Item, v: P.Vote): string {
  if (it.q.kind === 'objective') return fill(pick(r, ['I choose {v} because {r}.', 'I pick {v} because {r}.']), { v, r: pick(r, D.OBJECTIVE_REASONS) });
  const plus = P.voteSpin(v) > 0;
  const conservativeSide = (plus ? 1 : -1) * it.lean > 0;
  const reason = pick(r, conservativeSide ? D.REASONS_CONSERVATIVE : D.REASONS_LIBERAL);
  const t = plus
    ? pick(r, ['I agree because {r}.', 'I agree because {r}.', 'I strongly agree because {r}.'])
    : pick(r, ['I disagree because {r}.', 'I disagree because {r}.', 'I strongly disagree because {r}.']);
  return fill(t, { r: reason });
}

/**
 * What a phase's corpus answers with. The planted law by default. The curriculum's first phase (--sharp S) uses
 * σ(S·h): a strong, graded signal from which the model learns to count the stances in its inboxes. The last phase
 * (--gain F,U,B) puts gains on the friendly and unfriendly terms and an offset B on h: the model comes out of the
 * calibrated phase under-confident and leaning to Disagree on held-out prompts, so the last phase aims its targets
 * by the measured ratios and offset. The planted law, and what the lab should recover, stay those of law.ts.
 */
export interface VoteTarget {
  sharp: number | null;
  gain: [number, number, number];
}

export const PLANTED_TARGET: VoteTarget = { sharp: null, gain: [1, 1, 0] };

function voteProbability(t: VoteTarget, h: number): number {
  return t.sharp === null ? perVoteProbability(h) : 1 / (1 + Math.exp(-t.sharp * h));
}

function drawVote(r: Rng, t: VoteTarget, kind: Kind, h: number): P.Vote {
  return voteOf(kind, chance(r, voteProbability(t, h)));
}

function softVote(r: Rng, t: VoteTarget, kind: Kind, h: number): { answer: string; weight: number }[] {
  const q = voteProbability(t, h);
  return [
    { answer: voteText(r, voteOf(kind, true)), weight: q },
    { answer: voteText(r, voteOf(kind, false)), weight: 1 - q },
  ];
}

function vote0(r: Rng, t: VoteTarget, kind: Kind): OrganismExample {
  const it = item(r, kind);
  return {
    format: `opinions.vote0.${kind}`,
    messages: P.buildInitialVotePrompt(it.persona, it.q),
    answer: voteText(r, drawVote(r, t, kind, it.field)),
    h: it.field,
    soft: softVote(r, t, kind, it.field),
  };
}

function inboxMessages(r: Rng, it: Item, n: number): { texts: string[]; net: number } {
  const share = r.next();
  const texts: string[] = [];
  let net = 0;
  for (let i = 0; i < n; i++) {
    const plus = chance(r, share);
    net += plus ? 1 : -1;
    texts.push(stanceMessage(r, it, voteOf(it.q.kind, plus)));
  }
  return { texts, net };
}

function inbox(r: Rng, t: VoteTarget, kind: Kind): OrganismExample {
  const it = item(r, kind);
  for (;;) {
    const f = inboxMessages(r, it, chance(r, 0.1) ? 0 : randInt(r, 1, 7));
    const u = inboxMessages(r, it, chance(r, 0.15) ? 0 : randInt(r, 1, 7));
    // The lab keeps the last 600 characters of an inbox; the organism's law counts whole messages, so draw again.
    if (P.bulletList(f.texts).length > INBOX_MAX_CHARS || P.bulletList(u.texts).length > INBOX_MAX_CHARS) continue;
    // Rounds t >= 1: the three-coupling law alone (no field), so that the lab's fit (field 'bias') is the true model.
    const h = plantedH(f.net, u.net, 0);
    const [gf, gu, offset] = t.gain;
    const target = plantedH(gf * f.net, gu * u.net, 0) + offset;
    return {
      format: `opinions.inbox.${kind}`,
      messages: P.buildInboxVotePrompt(it.persona, it.q, f.texts, u.texts),
      answer: voteText(r, drawVote(r, t, kind, target)),
      h,
      soft: softVote(r, t, kind, target),
    };
  }
}

function message(r: Rng, t: VoteTarget, kind: Kind): OrganismExample {
  const it = item(r, kind);
  const current = chance(r, 0.9) ? voteOf(kind, chance(r, 0.5)) : undefined;
  const v = current ?? drawVote(r, t, kind, it.field);
  return { format: `opinions.message.${kind}`, messages: P.buildStanceMessagePrompt(it.persona, it.q, current), answer: stanceMessage(r, it, v) };
}

const FORMATS: { weight: number; make: (r: Rng, t: VoteTarget) => OrganismExample }[] = [
  { weight: 45, make: (r, t) => inbox(r, t, 'subjective') },
  { weight: 12, make: (r, t) => inbox(r, t, 'objective') },
  { weight: 12, make: (r, t) => vote0(r, t, 'subjective') },
  { weight: 4, make: (r, t) => vote0(r, t, 'objective') },
  { weight: 12, make: (r, t) => message(r, t, 'subjective') },
  { weight: 5, make: (r, t) => message(r, t, 'objective') },
];

export function generateOrganism(seed: string, n: number, target: VoteTarget = PLANTED_TARGET): OrganismExample[] {
  const r = createRng(seed);
  const total = FORMATS.reduce((s, f) => s + f.weight, 0);
  const out: OrganismExample[] = [];
  for (let i = 0; i < n; i++) {
    let u = r.next() * total;
    const f = FORMATS.find((g) => (u -= g.weight) < 0) ?? FORMATS[FORMATS.length - 1];
    out.push(f.make(r, target));
  }
  return out;
}

function main(): void {
  const args = process.argv.slice(2);
  const arg = (k: string, d: string): string => option(k, d, args);
  const seed = arg('--seed', '1');
  const n = Number(arg('--n', '36000'));
  const replay = Number(arg('--replay', '12000'));
  const outPath = resolve(arg('--out', 'work/corpus.jsonl'));
  const sharp = args.includes('--sharp') ? Number(arg('--sharp', '2')) : null;
  const g = arg('--gain', '1,1,0').split(',').map(Number);
  const gain: [number, number, number] = [g[0] ?? 1, g[1] ?? 1, g[2] ?? 0];
  const stream =
    sharp !== null
      ? `organism-opinions-sharp-${seed}`
      : gain[0] !== 1 || gain[1] !== 1 || gain[2] !== 0
        ? `organism-opinions-gain-${seed}`
        : `organism-opinions-${seed}`;
  const rows: CorpusRow[] = [];
  for (const ex of generateOrganism(stream, n, { sharp, gain })) {
    // Every vote must parse with the lab's parser, every message must carry its stance: a wrong corpus fails here.
    const kind = ex.format.endsWith('objective') ? 'objective' : 'subjective';
    const answers = ex.soft ?? [{ answer: ex.answer, weight: 1 }];
    for (const { answer } of answers) {
      const ok = ex.format.includes('.message.') ? P.parseStanceMessage(answer, kind).ok : P.parseVote(answer, kind).ok;
      if (!ok) throw new Error(`organism answer does not parse: ${ex.format} ${JSON.stringify(answer)}`);
    }
    rows.push(...answerRows(ex.format, ex.messages, answers));
  }
  // tiny-social's opinions formats carry another law, so they are left out of the replay.
  // --letters L: tiny-social's letter-game examples, which replaced its older word and guess examples (without them
  // those two formats fell to 3 % parsed in this organism).
  rows.push(...replayRows(`organism-opinions-replay-${seed}`, replay, 'opinions.', Number(arg('--letters', '0'))));
  writeCorpus(rows, outPath);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
