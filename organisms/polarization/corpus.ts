/**
 * Corpus of the Polarization organism: the lab's own prompts (src/core/prompts/polarization.ts) answered by the
 * planted behaviour of ./law.ts, plus a replay of the embedded model's other formats.
 *
 *   npx tsx organisms/polarization/corpus.ts [--seed S] [--n N] [--replay R] [--sharp K] [--mix rewire=60,...] --out work/corpus.jsonl
 *
 * --sharp K raises every planted probability to the power K and renormalises (a sharper law, same order): a first
 * build on the calibrated law alone kept every link with 0.67 whatever the sides after 1,400 steps, so the build
 * first learns to read the two stances from the sharpened law, then calibrates. That alone still kept every link with
 * 0.65 after 1,000 steps, even on training prompts: at 30 % of the prompts, about 1,600 keep-or-drop prompts had
 * been seen. --mix sets the formats' weights (update, rewire, persuade, post, check), so that phase 1 is mostly
 * keep-or-drop. --persuade P and --backfire B replace the default update law's pull and push of an opposing message
 * (an exaggerated law, 0.5 and 0: the fifth build never learnt to count opposing messages on the planted 0.15 and
 * 0.05, and learnt it on the exaggerated law; a later phase calibrates back).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRng } from '../../src/core/rng';
import type { Rng } from '../../src/core/rng';
import * as P from '../../src/core/prompts';
import {
  keepProbability,
  keepReading,
  sendProbability,
  signedStance,
  statedStance,
  untempered,
  updateDistribution,
  type UpdateCoefficients,
  type UpdateMode,
} from './law';
import * as D from './pools';
import { option } from '../args';
import { answerRows, replayRows, writeCorpus, type CorpusRow } from '../corpus-io';

type Stance = P.StanceValue;
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[r.int(xs.length)];
const chance = (r: Rng, p: number): boolean => r.next() < p;
const fill = (t: string, n: string): string => t.replace(/\{n\}/g, n);
const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
/** The method's initial shares: P(±2) = 0.1, P(±1) = 0.2, P(0) = 0.4; the training draws stances uniformly. */
const stance = (r: Rng): Stance => (r.int(5) - 2) as Stance;

interface Topic {
  topic: P.PolarizationTopic;
  name: string;
}

const topicOf = (r: Rng): Topic => {
  const t = pick(r, D.TOPICS);
  return { topic: { name: t.name, statement: t.statement }, name: t.name };
};

export function reasonFor(r: Rng, t: Topic, v: Stance): string {
  return cap(fill(pick(r, D.LEVEL_REASONS[String(v)]), t.name));
}

/** A message or post: "My stance is +2 (strongly in favor)." then two argument sentences and a closing. */
export function messageFor(r: Rng, t: Topic, v: Stance): string {
  const side = v > 0 ? 'for' : v < 0 ? 'against' : 'neutral';
  const args = r
    .shuffle([...D.ARGUMENTS[side]])
    .slice(0, 2)
    .map((a) => cap(fill(a, t.name)));
  return [`My stance is ${signedStance(v)} (${P.stanceLabel(t.topic, v)}).`, ...args, pick(r, D.CLOSINGS)].join(' ');
}

interface Ex {
  format: string;
  messages: P.ChatMessage[];
  /** The answer; for a planted choice, one row per possible answer with its probability as a weight (a soft label). */
  answers: { answer: string; weight: number }[];
}

/** A yes/no choice of planted probability p at the lab's temperature, as two weighted rows. */
function yesNo(r: Rng, p: number, yes: string, no: string): { answer: string; weight: number }[] {
  const [py, pn] = untempered([p, 1 - p]);
  return [
    { answer: yes, weight: py },
    { answer: no, weight: pn },
  ].filter((a) => a.weight > 0);
}

/** Options of the corpus beyond the format mix: `defaultUpdate` overrides the default update law's coefficients. */
export interface CorpusLaw {
  defaultUpdate?: Partial<UpdateCoefficients>;
}

function update(r: Rng, law: CorpusLaw = {}): Ex {
  const t = topicOf(r);
  const x = stance(r);
  const n = 1 + r.int(5);
  const lean = r.next() * 4 - 2; // the inbox's average side, so that one-sided inboxes are common
  const ms: Stance[] = Array.from({ length: n }, () => Math.max(-2, Math.min(2, Math.round(lean + (r.next() * 2 - 1) * 1.5))) as Stance);
  const leaders: Stance[] = chance(r, 0.15) ? [0] : [];
  const u = r.next();
  const mode: UpdateMode = u < 0.2 ? 'open' : u < 0.35 ? 'trait' : 'default';
  const probs = untempered(updateDistribution(x, ms, leaders, mode, mode === 'default' ? law.defaultUpdate : {}));
  const own = reasonFor(r, t, x);
  const answers = probs
    .map((weight, k) => ({ v: (k - 2) as Stance, weight }))
    .filter((a) => a.weight > 0)
    .map((a) => ({ answer: JSON.stringify({ stance: a.v, reasons: a.v === x ? own : reasonFor(r, t, a.v) }), weight: a.weight }));
  return {
    format: 'polarization.update',
    messages: P.buildStanceUpdatePrompt({
      topic: t.topic,
      self: { stance: x, reasons: own },
      messages: ms.map((m) => messageFor(r, t, m)),
      leaderMessages: leaders.map((m) => messageFor(r, t, m)),
      openToPersuasion: mode === 'open',
      confirmationBias: mode === 'trait',
    }),
    answers,
  };
}

function rewire(r: Rng): Ex {
  const t = topicOf(r);
  const a = stance(r);
  const b = stance(r);
  const u = r.next();
  const opts = { likesDiversity: u < 0.15, selectiveExposure: u >= 0.15 && u < 0.3 };
  const pk = keepProbability(a, b, opts);
  return {
    format: 'polarization.rewire',
    messages: P.buildRewirePrompt({
      topic: t.topic,
      self: { stance: a, reasons: reasonFor(r, t, a) },
      other: { stance: b, reasons: reasonFor(r, t, b) },
      ...opts,
      openness: pick(r, D.OPENNESS),
    }),
    answers: yesNo(r, pk, `${keepReading(a, b)} Yes.`, `${keepReading(a, b)} No.`),
  };
}

function persuade(r: Rng): Ex {
  const t = topicOf(r);
  const a = stance(r);
  const b = stance(r);
  const ps = sendProbability(a);
  return {
    format: 'polarization.persuade',
    messages: P.buildPersuadePrompt({ topic: t.topic, self: { stance: a, reasons: reasonFor(r, t, a) }, other: { stance: b, reasons: reasonFor(r, t, b) } }),
    answers: yesNo(r, ps, `Yes: ${messageFor(r, t, a)}`, 'No'),
  };
}

function post(r: Rng): Ex {
  const t = topicOf(r);
  const a = stance(r);
  return {
    format: 'polarization.post',
    messages: P.buildInitialPostPrompt(t.topic, { stance: a, reasons: reasonFor(r, t, a) }),
    answers: [{ answer: messageFor(r, t, a), weight: 1 }],
  };
}

/** The consistency check: a text fits when the stance it states is the agent's own (no stated stance: it fits). */
function check(r: Rng): Ex {
  const t = topicOf(r);
  const a = stance(r);
  const other = chance(r, 0.5) ? a : stance(r);
  const text = chance(r, 0.7) ? messageFor(r, t, other) : reasonFor(r, t, a);
  const s = statedStance(text);
  return {
    format: 'polarization.check',
    messages: P.buildConsistencyCheckPrompt(t.topic, { stance: a, reasons: reasonFor(r, t, a) }, text),
    answers: [{ answer: s === null || s === a ? 'yes' : 'no', weight: 1 }],
  };
}

const FORMATS: { weight: number; make: (r: Rng, law: CorpusLaw) => Ex }[] = [
  { weight: 40, make: update },
  { weight: 30, make: rewire },
  { weight: 18, make: persuade },
  { weight: 6, make: post },
  { weight: 6, make: check },
];

/** The answers' weights raised to the power `k` and renormalised (k = 1: unchanged). */
export function sharpened(answers: readonly { answer: string; weight: number }[], k: number): { answer: string; weight: number }[] {
  if (k === 1 || answers.length < 2) return [...answers];
  const w = answers.map((a) => a.weight ** k);
  const total = w.reduce((a, b) => a + b, 0);
  return answers.map((a, i) => ({ answer: a.answer, weight: w[i] / total }));
}

/** "rewire=60,update=25" → the formats' weights (the others keep theirs). */
export function parseMix(spec: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of spec.split(',').filter(Boolean)) {
    const [k, v] = part.split('=');
    if (!FORMATS.some((f) => f.make.name === k) || !(Number(v) >= 0))
      throw new Error(`--mix: "${part}" is not <format>=<weight> (formats: ${FORMATS.map((f) => f.make.name).join(', ')})`);
    out[k] = Number(v);
  }
  return out;
}

export function generateOrganism(seed: string, n: number, sharp = 1, mix: Record<string, number> = {}, law: CorpusLaw = {}): Ex[] {
  const r = createRng(seed);
  const formats = FORMATS.map((f) => ({ ...f, weight: mix[f.make.name] ?? f.weight }));
  const total = formats.reduce((s, f) => s + f.weight, 0);
  return Array.from({ length: n }, () => {
    let u = r.next() * total;
    const ex = (formats.find((g) => (u -= g.weight) < 0) ?? formats[0]).make(r, law);
    return { ...ex, answers: sharpened(ex.answers, sharp) };
  });
}

/** The lab's parser for each format: every corpus answer must pass it. */
export const PARSERS: Record<string, (s: string) => boolean> = {
  'polarization.update': (s) => P.parseStanceUpdate(s).ok,
  'polarization.rewire': (s) => P.parseYesNo(s).ok,
  'polarization.persuade': (s) => P.parsePersuade(s).ok,
  'polarization.post': (s) => P.parseMessage(s).ok,
  'polarization.check': (s) => P.parseYesNo(s).ok,
};

function main(): void {
  const args = process.argv.slice(2);
  const arg = (k: string, d: string): string => option(k, d, args);
  const seed = arg('--seed', '1');
  const rows: CorpusRow[] = [];
  const coefficient = (k: 'persuade' | 'backfire'): Partial<UpdateCoefficients> => {
    const v = arg(`--${k}`, '');
    if (v === '') return {};
    if (!(Number(v) >= 0 && Number(v) <= 1)) throw new Error(`--${k}: "${v}" is not a probability`);
    return { [k]: Number(v) };
  };
  const law: CorpusLaw = { defaultUpdate: { ...coefficient('persuade'), ...coefficient('backfire') } };
  const examples = generateOrganism(`organism-polarization-${seed}`, Number(arg('--n', '30000')), Number(arg('--sharp', '1')), parseMix(arg('--mix', '')), law);
  for (const ex of examples) {
    for (const a of ex.answers) if (!PARSERS[ex.format](a.answer)) throw new Error(`organism answer does not parse: ${ex.format} ${JSON.stringify(a.answer)}`);
    rows.push(...answerRows(ex.format, ex.messages, ex.answers));
  }
  // tiny-social's polarization formats carry no planted law, so they are left out of the replay.
  rows.push(...replayRows(`organism-polarization-replay-${seed}`, Number(arg('--replay', '12000')), 'polarization.', Number(arg('--letters', '3000'))));
  writeCorpus(rows, resolve(arg('--out', 'work/corpus.jsonl')));
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
