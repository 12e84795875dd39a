/**
 * Corpus of the dialogue organism: the Synchrony lab's own prompts (src/core/prompts/synchrony.ts), for dialogue
 * turns, the judge and the passive reader, answered by the planted behaviour of ./law.ts on generated scenarios and
 * syllable names (./pools.ts), plus a replay of the embedded model's other formats.
 *
 *   npx tsx organisms/dialogue/corpus.ts [--seed S] [--n N] [--replay R] [--letters L] [--nonce F] [--early F] [--copy C] [--judge W] --out work/corpus.jsonl
 *
 * --nonce F: the share of episodes whose goals, setting and bios hold random words (pools.ts: they can only be
 * copied, never recalled); --early F: the share of turn examples drawn from the first four turns (short prompts,
 * many examples a batch: the copying is learnt there first).
 * --judge W: the judge's weight among the formats (turns 80, passive reader 8; default 12).
 * --wide-names F: the share of first names of one to four syllables with accents (pools.ts wideName).
 * --wide-surnames F: the share of surnames drawn the same way (the others have two syllables).
 * --real-names F: the share of personas (and drill names) with real names of many languages (real-names.json).
 * --broad F: the share of episodes whose goals, facts, setting and bios are WordNet sentences (broad.ts).
 * --piece-names F: the share of first names made of the tokenizer's pieces (broad.ts pieceName).
 * --no-pool-names: no first name of tiny-social's pool (pools.ts FIRST_NAMES) in the generated names and drills.
 * --hidden F: the share of turn examples that ask for the hidden "Feeling: …; Action: …" line (law.ts plantedLabels).
 * --last-turn T: the turn at which a dialogue without a deal ends (default law.ts LAST_TURN; 15 rewrites the corpora
 *   of the builds before the eighth).
 * --copy C: C short copy drills (copyDrill): two builds on the dialogue corpus alone recited memorised words and
 * invented names instead of copying from the prompt (0 of 9 replies used the partner's name after 900 steps), so a
 * first phase of drills, where the answer can only be copied, lets the model form the copying circuit first.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRng } from '../../src/core/rng';
import type { Rng } from '../../src/core/rng';
import * as P from '../../src/core/prompts';
import { FIRST_NAMES, LETTER_WORDS, WORDS } from '../../models/tiny-social/pools';
import { BUNDLED_SCENARIO_SET } from '../../src/labs/synchrony/scenarios';
import { hiddenLine, LAST_TURN, PASSIVE_REPLY, plantedDialogue, plantedJudgeReply, plantedLabels, plantedTurn, untemperedChance } from './law';
import * as D from './pools';
import * as B from './broad';
import { option } from '../args';
import { answerRows, replayRows, writeCorpus, type CorpusRow } from '../corpus-io';

const chance = (r: Rng, p: number): boolean => r.next() < p;

/** Every word and hint of tiny-social's word games: real words for the nonce fields. */
const WORD_LIST: readonly string[] = [
  ...new Set(
    [...Object.values(WORDS), ...Object.values(LETTER_WORDS)]
      .flat(2)
      .map((w) => w.toLowerCase())
      .filter((w) => /^[a-z]+$/.test(w)),
  ),
];

/** What the generator varies: the share of nonce episodes and of early-turn examples. */
export interface CorpusMix {
  nonce: number;
  early: number;
  /** The share of first names drawn by pools.ts wideName (1-4 syllables, accents); 0 draws nothing extra. */
  wideNames?: number;
  /** The share of episodes with broad fields (broad.ts: WordNet sentences); 0 draws nothing extra. */
  broad?: number;
  /** The share of first names built from the tokenizer's pieces (broad.ts pieceName); 0 draws nothing extra. */
  pieceNames?: number;
  /** The share of turn examples that ask for the hidden "Feeling: …; Action: …" line (law.ts plantedLabels); 0 draws nothing extra. */
  hidden?: number;
  /**
   * The share of surnames drawn by pools.ts wideName (1-4 syllables, accents) instead of two syllables; 0 draws
   * nothing extra. The seventh build copied the library's first names and then ran on into the surname's pieces
   * ("Nadialali" for Nadia Benali, "Piotrous" for Piotr Nowak): every surname it had seen had two syllables.
   */
  wideSurnames?: number;
  /**
   * The share of personas named from real first names and surnames of many languages (real-names.json, from Faker's
   * locales; the library's own names removed); 0 draws nothing extra. Generated names have a shape the model learns
   * instead of copying: the seventh build wrote "Nadiaay" for Nadia, as if a syllable were missing.
   */
  realNames?: number;
  /**
   * Leave tiny-social's 60 first names (pools.ts FIRST_NAMES) out of the generated names and drills. They also fill
   * the replayed formats, so a model trained from scratch learnt them as the names people have and wrote "Ella" or
   * "Lena" to partners it could not name.
   */
  noPoolNames?: boolean;
  /** The turn at which a planted dialogue without a deal ends (law.ts LAST_TURN when absent). */
  lastTurn?: number;
}

/** Real first names and surnames of many languages (real-names.py, from Faker's locales). */
export const REAL_NAMES = JSON.parse(readFileSync(resolve(import.meta.dirname, 'real-names.json'), 'utf8')) as { first: string[]; last: string[] };
/** The real names the corpus draws: none of the lab's scenario library (held out). */
const REAL = (() => {
  const library = new Set(BUNDLED_SCENARIO_SET.personas.flatMap((p) => p.name.split(/\s+/)));
  return { first: REAL_NAMES.first.filter((n) => !library.has(n)), last: REAL_NAMES.last.filter((n) => !library.has(n)) };
})();

/** A real full name ("Nkiruka Hidayanto"), first name and surname drawn independently. */
function realName(r: Rng): string {
  return `${D.pick(r, REAL.first)} ${D.pick(r, REAL.last)}`;
}
const PLAIN: CorpusMix = { nonce: 0, early: 0 };

/** A first name: with no wide share the draws are those of the builds before (a rebuild gives the same corpora). */
function firstName(r: Rng, wideShare = 0, pieceShare = 0, noPool = false): string {
  if (pieceShare && chance(r, pieceShare)) return B.pieceName(r);
  if (wideShare && chance(r, wideShare)) return D.wideName(r);
  return chance(r, 0.7) || noPool ? D.syllableName(r) : D.pick(r, FIRST_NAMES);
}

/** A surname: two syllables, or with the wide share one to four (the draws of the builds before when it is 0). */
function surname(r: Rng, mix: CorpusMix): string {
  return mix.wideSurnames && chance(r, mix.wideSurnames) ? D.wideName(r) : D.syllableName(r);
}

type Fields = 'plain' | 'nonce' | 'broad';

function persona(r: Rng, avoid: string, fields: Fields, mix: CorpusMix): P.Persona {
  let name = '';
  do name = mix.realNames && chance(r, mix.realNames) ? realName(r) : `${firstName(r, mix.wideNames, mix.pieceNames, mix.noPoolNames)} ${surname(r, mix)}`;
  while (name.split(' ')[0] === avoid);
  const base = {
    name,
    age: 18 + r.int(60),
    occupation: D.pick(r, D.OCCUPATIONS),
    pronouns: D.pick(r, D.PRONOUNS),
    publicInfo: D.pick(r, D.PUBLIC_INFO),
    personality: D.pick(r, D.PERSONALITIES),
    decisionStyle: D.pick(r, D.DECISION_STYLES),
    secret: D.pick(r, D.SECRETS),
  };
  if (fields === 'broad') return { ...base, ...B.broadBio(r) };
  return fields === 'nonce' ? { ...base, ...D.nonceBio(r, WORD_LIST) } : base;
}

/** A generated episode: scenario, two personas, a relationship, and 0-3 facts (shared or private). */
export function episode(r: Rng, mix: CorpusMix = PLAIN): P.SynchronyEpisode {
  const nonce = chance(r, mix.nonce);
  const fields: Fields = mix.broad && chance(r, mix.broad) ? 'broad' : nonce ? 'nonce' : 'plain';
  const s = fields === 'broad' ? B.broadScenario(r) : nonce ? D.nonceScenario(r, WORD_LIST) : D.scenario(r);
  const a = persona(r, '', fields, mix);
  const b = persona(r, a.name.split(' ')[0], fields, mix);
  const facts: P.ScenarioFact[] = [];
  const nFacts = r.int(4);
  for (let i = 0; i < nFacts; i++) {
    const who = r.int(2) as 0 | 1;
    const text = fields === 'broad' ? B.broadFact(r) : D.pick(r, D.FACT_TEMPLATES).replace('{n}', [a, b][who].name.split(' ')[0]);
    facts.push(chance(r, 0.5) ? { text } : { text, visibleTo: who });
  }
  return {
    scenario: s.setting,
    relationship: r.int(6) as P.RelationshipLevel,
    agents: [
      { persona: a, goal: s.goals[0] },
      { persona: b, goal: s.goals[1] },
    ],
    ...(facts.length ? { facts } : {}),
  };
}

interface Ex {
  format: string;
  messages: P.ChatMessage[];
  answer: string;
}

const namesOf = (ep: P.SynchronyEpisode): string[] => ep.agents.flatMap((a) => [a.persona.name, a.persona.name.split(' ')[0]]);

/** A whole planted dialogue of episode `ep`, a random agent speaking first, ending where the mix's law says. */
const lawDialogue = (r: Rng, ep: P.SynchronyEpisode, mix: CorpusMix) => plantedDialogue(ep, r.int(2) as 0 | 1, () => r.next(), { lastTurn: mix.lastTurn });

/** One turn of a planted dialogue; the answer's accept is drawn at the untempered chance (sampling gives the law's). */
function turn(r: Rng, mix: CorpusMix): Ex {
  const ep = episode(r, mix);
  const dia = lawDialogue(r, ep, mix);
  const t = chance(r, mix.early) ? r.int(Math.min(4, dia.length)) : chance(r, 0.15) ? dia.length - 1 : r.int(dia.length);
  const speaker = dia[t].speaker;
  const answer = plantedTurn(ep, dia.slice(0, t), speaker, r.next(), { chance: untemperedChance, lastTurn: mix.lastTurn });
  const parsed = P.parseUtterance(answer, namesOf(ep));
  if (!parsed.ok || parsed.value.text !== answer) throw new Error(`organism turn does not parse as itself: ${JSON.stringify(answer)}`);
  if (parsed.value.leaves !== answer.includes('I will leave now')) throw new Error(`leave detection disagrees: ${JSON.stringify(answer)}`);
  const hidden = mix.hidden ? chance(r, mix.hidden) : false;
  if (!hidden) return { format: 'synchrony.turn', messages: P.buildDialogueTurnPrompt(ep, speaker, dia.slice(0, t)), answer };
  const labels = plantedLabels(dia.slice(0, t), answer, { lastTurn: mix.lastTurn });
  const withLine = `${answer}\n${hiddenLine(labels)}`;
  const split = P.splitHiddenLine(withLine);
  if (split.spoken !== answer || split.labels.emotion !== labels.emotion || split.labels.action !== labels.action)
    throw new Error(`organism hidden line does not read back: ${JSON.stringify(withLine)}`);
  return { format: 'synchrony.turn-hidden', messages: P.buildDialogueTurnPrompt(ep, speaker, dia.slice(0, t), { hiddenLine: true }), answer: withLine };
}

function judge(r: Rng, mix: CorpusMix): Ex {
  const ep = episode(r, mix);
  // Cut where the lab's utterance limit would. Until the eighth build's law (LAST_TURN 9), whole planted dialogues
  // nearly always held a deal (82 % by turn 15), and a judge trained on them said "yes" to every lab transcript (SD
  // 0.00 across agents in the fifth build's first try). Six in ten are cut at a uniform length; whole dialogues
  // now hold a deal in about 58 %, cut ones less often.
  const whole = lawDialogue(r, ep, mix);
  const dia = chance(r, 0.4) ? whole : whole.slice(0, 2 + r.int(whole.length - 1));
  const target = r.int(2) as 0 | 1;
  const answer = plantedJudgeReply(dia, target);
  if (!P.parseJudge(answer).ok) throw new Error('organism judge reply does not parse');
  return { format: 'synchrony.judge', messages: P.buildJudgePrompt(ep, dia, target), answer };
}

function passive(r: Rng, mix: CorpusMix): Ex {
  const ep = episode(r, mix);
  const dia = lawDialogue(r, ep, mix);
  const t = r.int(dia.length);
  const reader = chance(r, 0.5) ? D.pick(r, ['Sam Rivera', 'Alex Morgan']) : `${D.syllableName(r)} ${D.syllableName(r)}`;
  return { format: 'synchrony.passive', messages: P.buildPassiveReaderPrompt(ep, dia[t].speaker, dia.slice(0, t), reader), answer: PASSIVE_REPLY };
}

/** The formats' shares of the examples; `--judge W` sets the judge's weight (the others keep theirs). */
const formats = (judgeWeight = 12): { weight: number; make: (r: Rng, mix: CorpusMix) => Ex }[] => [
  { weight: 80, make: turn },
  { weight: judgeWeight, make: judge },
  { weight: 8, make: passive },
];

export function generateOrganism(seed: string, n: number, mix: CorpusMix = PLAIN, judgeWeight?: number): Ex[] {
  const r = createRng(seed);
  const table = formats(judgeWeight);
  const total = table.reduce((s, f) => s + f.weight, 0);
  return Array.from({ length: n }, () => {
    let u = r.next() * total;
    const f = table.find((g) => (u -= g.weight) < 0) ?? table[table.length - 1];
    return f.make(r, mix);
  });
}

const DRILLS: { ask: string; answer: (span: string, name: string) => string }[] = [
  { ask: 'Repeat exactly: {s}', answer: (s) => s },
  { ask: '{n} said: {s}\nReply to {n} by name.', answer: (_, n) => `Hello, ${n.split(' ')[0]}.` },
  {
    ask: '{n} said: {s}\nEcho their first three words, then greet them.',
    answer: (s, n) => `${s.split(' ').slice(0, 3).join(' ')}? Hello, ${n.split(' ')[0]}.`,
  },
  {
    ask: 'Your goal: {s}\nThe other person is {n}. State your goal to them.',
    answer: (s, n) => `${s.replace(/[.!?]+$/, '')}: can we agree on that, ${n.split(' ')[0]}?`,
  },
];

/**
 * A copy drill: a short prompt holding a random span (nonce words, a nonce goal or a fact) and a name, whose answer
 * copies them as the dialogue turns do (the span, its first words, the first name).
 */
export function copyDrill(r: Rng, mix: CorpusMix = PLAIN): Ex {
  const sc = D.nonceScenario(r, WORD_LIST);
  let span = chance(r, 0.5) ? sc.goals[r.int(2)] : Array.from({ length: 2 + r.int(8) }, () => D.nonceWord(r, WORD_LIST)).join(' ');
  if (mix.broad && chance(r, mix.broad)) span = B.broadGoal(r);
  const name =
    mix.realNames && chance(r, mix.realNames)
      ? realName(r)
      : mix.pieceNames && chance(r, mix.pieceNames)
        ? `${B.pieceName(r)} ${D.syllableName(r)}`
        : mix.wideNames && chance(r, mix.wideNames)
          ? `${D.wideName(r)} ${surname(r, mix)}`
          : chance(r, 0.5) && !mix.noPoolNames
            ? `${D.pick(r, FIRST_NAMES)} ${D.syllableName(r)}`
            : `${D.syllableName(r)} ${D.syllableName(r)}`;
  const d = D.pick(r, DRILLS);
  return {
    format: 'synchrony.copy',
    messages: [{ role: 'user', content: d.ask.replace(/\{s\}/g, span).replace(/\{n\}/g, name) }],
    answer: d.answer(span, name),
  };
}

function main(): void {
  const arg = (k: string, d: string): string => option(k, d);
  const seed = arg('--seed', '1');
  const rows: CorpusRow[] = [];
  const mix: CorpusMix = {
    nonce: Number(arg('--nonce', '0')),
    early: Number(arg('--early', '0')),
    wideNames: Number(arg('--wide-names', '0')),
    broad: Number(arg('--broad', '0')),
    pieceNames: Number(arg('--piece-names', '0')),
    hidden: Number(arg('--hidden', '0')),
    wideSurnames: Number(arg('--wide-surnames', '0')),
    realNames: Number(arg('--real-names', '0')),
    noPoolNames: process.argv.includes('--no-pool-names'),
    lastTurn: Number(arg('--last-turn', String(LAST_TURN))),
  };
  for (const ex of generateOrganism(`organism-dialogue-${seed}`, Number(arg('--n', '14000')), mix, Number(arg('--judge', '12'))))
    rows.push(...answerRows(ex.format, ex.messages, [{ answer: ex.answer, weight: 1 }]));
  const drills = createRng(`organism-dialogue-copy-${seed}`);
  for (let k = 0; k < Number(arg('--copy', '0')); k++) {
    const ex = copyDrill(drills, mix);
    rows.push(...answerRows(ex.format, ex.messages, [{ answer: ex.answer, weight: 1 }]));
  }
  // tiny-social's synchrony formats carry another behaviour, so they are left out of the replay.
  rows.push(...replayRows(`organism-dialogue-replay-${seed}`, Number(arg('--replay', '4000')), 'synchrony.', Number(arg('--letters', '1500'))));
  writeCorpus(rows, resolve(arg('--out', 'work/corpus.jsonl')));
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
