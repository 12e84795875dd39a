/**
 * Measures the dialogue organism on the Synchrony lab's own scenario library (never in its training corpus):
 *  - `probeTurns`: greedy replies to held-out prompts whose histories follow the planted law, scored against it
 *    (the build's check and the runtime test: fast, and a broken build fails it);
 *  - `dialogueQuality`: the quality targets on the turns and judge records of a real lab run (names that
 *    are not in the scenario, template text, repeats, content words, the judge against the planted rule).
 */
import * as P from '../../src/core/prompts';
import { createRng, type Rng } from '../../src/core/rng';
import { pearson } from '../../src/core/stats';
import { isContextOverflow } from '../../src/core/runs/models';
import { BUNDLED_SCENARIO_SET, episodeFor } from '../../src/labs/synchrony/scenarios';
import { FIRST_NAMES } from '../../models/tiny-social/pools';
import { copyDrill, REAL_NAMES } from './corpus';
import { echoOf, fieldText, isDeal, nextAct, proposerField, plantedDialogue, plantedLabels, plantedOverall, partnerName } from './law';

export interface Generator {
  generate(o: { messages: P.ChatMessage[]; temperature?: number; maxNewTokens?: number; stop?: string[]; seed?: number | string }): Promise<{ text: string }>;
}

const STOP = new Set([
  'the',
  'and',
  'that',
  'this',
  'with',
  'from',
  'they',
  'them',
  'their',
  'there',
  'have',
  'what',
  'your',
  'about',
  'would',
  'could',
  'should',
  'will',
  'want',
  'other',
  'person',
  'people',
  'some',
  'more',
  'than',
  'then',
  'when',
  'into',
  'only',
  'also',
  'very',
  'just',
  'like',
  'been',
  'were',
]);

/** Content words: 4+ letters, lower-cased, not in a small stop list. */
export function contentWords(text: string): Set<string> {
  return new Set(
    P.words(text)
      .map((w) => w.toLowerCase())
      .filter((w) => w.length >= 4 && !STOP.has(w)),
  );
}

/** Everything a dialogue prompt can show of an episode: scenario, facts, both bios and goals. */
function episodeText(ep: P.SynchronyEpisode): string {
  return [ep.scenario, ...(ep.facts ?? []).map((f) => f.text), ...ep.agents.flatMap((a) => [a.goal, P.ownBio(a.persona), a.persona.name])].join(' ');
}

const KNOWN_FIRST_NAMES = new Set([...FIRST_NAMES, ...BUNDLED_SCENARIO_SET.personas.map((p) => p.name.split(' ')[0])]);
/** Capitalised words that name no one: "split the rent on Friday" is not a foreign name. */
const NOT_NAMES = new Set(
  [
    'Monday',
    'Tuesday',
    'Wednesday',
    'Thursday',
    'Friday',
    'Saturday',
    'Sunday',
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ].flatMap((w) => [w, `${w}s`]),
);

/**
 * Names in an utterance that are not in the episode: capitalised words inside a sentence (not its first word) that
 * the episode's text does not contain, and known first names anywhere that are not the episode's own. Days and
 * months are not names (they were 3 of 18 flagged greedy probe replies of the fifth build).
 */
export function foreignNames(text: string, ep: P.SynchronyEpisode): string[] {
  const own = new Set(P.words(episodeText(ep)));
  const out: string[] = [];
  for (const sentence of text.split(/(?<=[.!?:;])\s+/)) {
    const ws = P.words(sentence);
    ws.forEach((w, i) => {
      if (own.has(w) || w === 'I' || (NOT_NAMES.has(w) && !KNOWN_FIRST_NAMES.has(w))) return;
      if (KNOWN_FIRST_NAMES.has(w) || (i > 0 && /^[A-Z][a-z]+$/.test(w))) out.push(w);
    });
  }
  return out;
}

/** Every first name and surname the project knows: tiny-social's pools, the library's personas, real-names.json. */
const KNOWN_NAMES = new Set([
  ...KNOWN_FIRST_NAMES,
  ...BUNDLED_SCENARIO_SET.personas.flatMap((p) => p.name.split(/\s+/)),
  ...REAL_NAMES.first,
  ...REAL_NAMES.last,
]);
/** Closed-class English words: capitalised inside a sentence they are a garble, never a name. */
const FUNCTION_WORDS = new Set(
  (
    'a an the and or but if so for of to in on at by with from as into than then too very not no yes ' +
    'is are was were be been am have has had do does did can could will would shall should may might must ' +
    'i me my you your he him his she her it its we us our they them their this that these those there here ' +
    'what who whom how why when where which one two three some any all each maybe'
  ).split(' '),
);

/**
 * What a flagged word (foreignNames) is, worst first: a real name from elsewhere (the "Hey Adam" of the issue), a
 * garbled copy of one of the episode's own names (run on, "Nadialal" for Nadia, or cut short, "Piot"), a capitalised
 * word of another kind (a garbled or capitalised content word, "Mounds"), or a capitalised function word ("For").
 */
export type ForeignKind = 'knownName' | 'nameCopy' | 'otherWord' | 'functionWord';
export const FOREIGN_KINDS: readonly ForeignKind[] = ['knownName', 'nameCopy', 'otherWord', 'functionWord'];

export function foreignKind(word: string, ep: P.SynchronyEpisode): ForeignKind {
  if (KNOWN_NAMES.has(word)) return 'knownName';
  const own = ep.agents.flatMap((a) => a.persona.name.split(/\s+/)).filter((n) => n.length >= 3);
  if (own.some((n) => (word.startsWith(n) || n.startsWith(word)) && word.length >= 3)) return 'nameCopy';
  return FUNCTION_WORDS.has(word.toLowerCase()) ? 'functionWord' : 'otherWord';
}

/** A flagged turn's kind: the worst kind among its flagged words (null when none is flagged). */
export function foreignTurnKind(text: string, ep: P.SynchronyEpisode): ForeignKind | null {
  const kinds = new Set(foreignNames(text, ep).map((w) => foreignKind(w, ep)));
  return FOREIGN_KINDS.find((k) => kinds.has(k)) ?? null;
}

const TEMPLATE_PATTERNS = [
  /\b(believability|social_rules|financial_and_material_benefits)\b/i,
  /-?\d+\.\.-?\d+/,
  /\breply as\b/i,
  /\byour turn\b/i,
  /\bturn \d+\s*:/i,
  /\b(Scenario|Relationship|Public|Personality|Decides|Secret|Fact|Conversation)\s*:/,
  /goal:\s*unknown/i,
  /imagine you are/i,
  /\bJSON\b/,
  /"score"/,
  /<\|im_/,
];
export const hasTemplateText = (text: string): boolean => TEMPLATE_PATTERNS.some((re) => re.test(text));

export interface ProbeResult {
  probes: number;
  /** Replies that open as the planted law says (the field, the echo, "Deal"/counter, the leave). */
  followsLaw: number;
  /** Of the probes with a known partner name (relationship ≥ 1), replies that address the partner by first name. */
  usesPartnerName: number;
  namedProbes: number;
  foreignNames: number;
  templateText: number;
  /** Greedy judge replies that parse and whose overall score equals the planted rule's. */
  judgeProbes: number;
  judgeMatches: number;
  judgeParsed: number;
  /** Judge prompts longer than the model's context (a 15-turn transcript can be): skipped, not scored. */
  judgeTooLong: number;
}

/** The greedy judge reply to one transcript; null when the prompt is longer than the model's context. */
async function judgeReply(model: Generator, ep: P.SynchronyEpisode, dia: readonly P.Utterance[], target: 0 | 1): Promise<string | null> {
  try {
    return (await model.generate({ messages: P.buildJudgePrompt(ep, dia, target), temperature: 0, maxNewTokens: 400 })).text;
  } catch (e) {
    if (!isContextOverflow(e)) throw e;
    return null;
  }
}

/** A scenario and pairing of the lab's library, drawn with `r`: the held-out prompts of every probe here. */
function libraryEpisode(r: Rng): P.SynchronyEpisode {
  const all = BUNDLED_SCENARIO_SET.scenarios;
  const def = all[r.int(all.length)];
  return episodeFor(BUNDLED_SCENARIO_SET, def.id, r.int(def.pairings.length));
}

/** A held-out turn: a library episode, a dialogue the law writes on it, and a turn t with the history before it. */
function heldOutTurn(r: Rng) {
  const ep = libraryEpisode(r);
  const dia = plantedDialogue(ep, r.int(2) as 0 | 1, () => r.next());
  const t = r.int(dia.length);
  return { ep, dia, t, history: dia.slice(0, t) };
}

/** Greedy replies of `model` to `n` turn prompts and `judges` judge prompts on the library's scenarios. */
export async function probeTurns(model: Generator, n: number, judges: number, seed: string): Promise<ProbeResult> {
  const r = createRng(seed);
  const res: ProbeResult = {
    probes: 0,
    followsLaw: 0,
    usesPartnerName: 0,
    namedProbes: 0,
    foreignNames: 0,
    templateText: 0,
    judgeProbes: 0,
    judgeMatches: 0,
    judgeParsed: 0,
    judgeTooLong: 0,
  };
  for (let i = 0; i < n; i++) {
    const { ep, dia, t, history } = heldOutTurn(r);
    const speaker = dia[t].speaker;
    const reply = P.cleanReply(
      (await model.generate({ messages: P.buildDialogueTurnPrompt(ep, speaker, history), temperature: 0, maxNewTokens: 64, stop: ['\n'] })).text,
    );
    const act = nextAct(history).act;
    const n2 = Math.floor(t / 2);
    const expected =
      act === 'propose' ? `${echoOf(fieldText(ep, speaker, proposerField(n2), n2))}` : act === 'counter' ? `${echoOf(history[t - 1].text)}?` : '';
    const ok = act === 'leave' ? P.detectsLeaving(reply) : reply.startsWith(expected) || (act === 'counter' && isDeal(reply));
    res.probes++;
    if (ok) res.followsLaw++;
    const partner = partnerName(ep, speaker);
    if (partner) {
      res.namedProbes++;
      if (reply.includes(partner)) res.usesPartnerName++;
    }
    if (foreignNames(reply, ep).length) res.foreignNames++;
    if (hasTemplateText(reply)) res.templateText++;
  }
  for (let i = 0; i < judges; i++) {
    const ep = libraryEpisode(r);
    const dia = plantedDialogue(ep, r.int(2) as 0 | 1, () => r.next());
    const target = r.int(2) as 0 | 1;
    const reply = await judgeReply(model, ep, dia, target);
    if (reply === null) {
      res.judgeTooLong++;
      continue;
    }
    const parsed = P.parseJudge(reply);
    res.judgeProbes++;
    if (parsed.ok) {
      res.judgeParsed++;
      if (Math.abs(P.judgeOverall(parsed.value) - plantedOverall(dia, target)) < 1e-9) res.judgeMatches++;
    }
  }
  return res;
}

/** Greedy hidden lines ("Feeling: …; Action: …") on held-out turn prompts against the planted emotion law. */
export interface HiddenLineProbe {
  probes: number;
  /** Replies whose hidden line names a feeling of the list (the lab's parser, splitHiddenLine). */
  readableFeeling: number;
  /** Readable feelings equal to the planted one (law.ts plantedLabels, given the history and the reply's words). */
  plantedFeeling: number;
  readableAction: number;
  plantedAction: number;
  /** Prompts longer than the model's context (skipped, as the lab ends such a dialogue). */
  tooLong: number;
}

export async function probeHiddenLines(model: Generator, n: number, seed: string): Promise<HiddenLineProbe> {
  const r = createRng(seed);
  const res: HiddenLineProbe = { probes: 0, readableFeeling: 0, plantedFeeling: 0, readableAction: 0, plantedAction: 0, tooLong: 0 };
  for (let i = 0; i < n; i++) {
    const { ep, dia, t, history } = heldOutTurn(r);
    // As the lab's runner asks: the hidden-line prompt and its limits.
    let raw: string;
    try {
      raw = (
        await model.generate({
          messages: P.buildDialogueTurnPrompt(ep, dia[t].speaker, history, { hiddenLine: true }),
          temperature: 0,
          ...P.turnLimits(64, true),
        })
      ).text;
    } catch (e) {
      if (!isContextOverflow(e)) throw e;
      res.tooLong++;
      continue;
    }
    const { spoken, labels } = P.splitHiddenLine(raw);
    const want = plantedLabels(history, P.cleanReply(spoken));
    res.probes++;
    if (labels.emotion) res.readableFeeling++;
    if (labels.emotion === want.emotion) res.plantedFeeling++;
    if (labels.action) res.readableAction++;
    if (labels.action === want.action) res.plantedAction++;
  }
  return res;
}

/** Greedy judge replies on held-out transcripts, half with a deal and half cut before anyone could say "Deal". */
export interface JudgeProbe {
  probes: number;
  parsed: number;
  /** Replies whose "deal" key says whether the transcript holds a deal. */
  readingRight: number;
  /** Parsed replies whose overall score equals the planted rule's. */
  equal: number;
}

export async function probeJudge(model: Generator, n: number, seed: string): Promise<JudgeProbe> {
  const r = createRng(seed);
  const res: JudgeProbe = { probes: 0, parsed: 0, readingRight: 0, equal: 0 };
  while (res.probes < n) {
    const ep = libraryEpisode(r);
    const whole = plantedDialogue(ep, r.int(2) as 0 | 1, () => r.next());
    const dealAt = whole.findIndex((u) => isDeal(u.text));
    // Alternate: a transcript that holds its deal, then one cut before turn 4 (no deal is possible there).
    const wantDeal = res.probes % 2 === 0;
    if (wantDeal && dealAt < 0) continue;
    const dia = wantDeal ? whole.slice(0, Math.min(whole.length, dealAt + 2)) : whole.slice(0, 2 + r.int(2));
    const target = r.int(2) as 0 | 1;
    const reply = await judgeReply(model, ep, dia, target);
    if (reply === null) continue;
    res.probes++;
    if (new RegExp(`"deal"\\s*:\\s*"${wantDeal ? 'yes' : 'no'}"`).test(reply)) res.readingRight++;
    const parsed = P.parseJudge(reply);
    if (parsed.ok) {
      res.parsed++;
      if (Math.abs(P.judgeOverall(parsed.value) - plantedOverall(dia, target)) < 1e-9) res.equal++;
    }
  }
  return res;
}

/** What the quality measurement needs of a lab run's episode: its scenario, turns and judge records. */
export interface DrillResult {
  probes: number;
  /** Greedy replies equal to the drill's answer. */
  exact: number;
  /** Drills that ask for the name, and replies with the right first name. */
  named: number;
  nameRight: number;
}

/**
 * Held-out copy drills (corpus.ts copyDrill, another seed): whether the model has formed the copying circuit that the
 * dialogue law needs, before any dialogue is trained (greedy replies).
 */
export async function probeDrills(model: Generator, n: number, seed: string): Promise<DrillResult> {
  const r = createRng(`drills-${seed}`);
  const res: DrillResult = { probes: 0, exact: 0, named: 0, nameRight: 0 };
  for (let i = 0; i < n; i++) {
    const d = copyDrill(r);
    const reply = P.cleanReply((await model.generate({ messages: d.messages, temperature: 0, maxNewTokens: 40, stop: ['\n'] })).text);
    res.probes++;
    if (reply.trim() === d.answer) res.exact++;
    const name = /Hello, (\S+)\.$/.exec(d.answer)?.[1];
    if (name) {
      res.named++;
      if (reply.includes(`Hello, ${name}.`)) res.nameRight++;
    }
  }
  return res;
}

export interface ScoredEpisode {
  episode: P.SynchronyEpisode;
  /** Turns in order: speaker agent index, the parsed text (empty when the turn did not parse), and leaves. */
  turns: { speaker: 0 | 1; text: string; parsed: boolean; leaves: boolean }[];
  /** Overall judge scores per target agent (null when the judge reply did not parse or the judge was off). */
  judge: [number | null, number | null];
}

export interface QualityResult {
  episodes: number;
  turns: number;
  parseRate: number;
  foreignNameRate: number;
  /** The flagged turns by their worst kind (foreignTurnKind), as shares of the parsed turns: they add up to foreignNameRate. */
  foreignKindRates: Record<ForeignKind, number>;
  templateRate: number;
  repeatRate: number;
  contentWordRate: number;
  leaveRate: number;
  meanTurns: number;
  dealRate: number;
  judge: { scores: number; parsed: number; sd: number; r: number; meanAbsError: number };
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

export function dialogueQuality(episodes: readonly ScoredEpisode[]): QualityResult {
  let turns = 0,
    parsed = 0,
    foreign = 0,
    template = 0,
    repeats = 0,
    content = 0,
    left = 0,
    deals = 0;
  const kinds: Record<ForeignKind, number> = { knownName: 0, nameCopy: 0, otherWord: 0, functionWord: 0 };
  const got: number[] = [];
  const truth: number[] = [];
  let judged = 0;
  for (const e of episodes) {
    const scenarioWords = contentWords([e.episode.scenario, ...e.episode.agents.map((a) => a.goal), ...(e.episode.facts ?? []).map((f) => f.text)].join(' '));
    const seen = new Set<string>();
    for (const t of e.turns) {
      turns++;
      if (!t.parsed) continue;
      parsed++;
      const kind = foreignTurnKind(t.text, e.episode);
      if (kind) {
        foreign++;
        kinds[kind]++;
      }
      if (hasTemplateText(t.text)) template++;
      const k = norm(t.text);
      if (seen.has(k)) repeats++;
      seen.add(k);
      if ([...contentWords(t.text)].some((w) => scenarioWords.has(w))) content++;
    }
    if (e.turns.at(-1)?.leaves) left++;
    if (e.turns.some((t) => t.parsed && isDeal(t.text))) deals++;
    const history = e.turns.map((t) => ({ speaker: t.speaker, text: t.parsed ? t.text : '...' }));
    e.judge.forEach((s, target) => {
      judged++;
      if (s === null) return;
      got.push(s);
      truth.push(plantedOverall(history, target as 0 | 1));
    });
  }
  const mean = got.reduce((a, b) => a + b, 0) / Math.max(1, got.length);
  const sd = Math.sqrt(got.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, got.length - 1));
  const p = Math.max(1, parsed);
  return {
    episodes: episodes.length,
    turns,
    parseRate: parsed / Math.max(1, turns),
    foreignNameRate: foreign / p,
    foreignKindRates: { knownName: kinds.knownName / p, nameCopy: kinds.nameCopy / p, otherWord: kinds.otherWord / p, functionWord: kinds.functionWord / p },
    templateRate: template / p,
    repeatRate: repeats / p,
    contentWordRate: content / p,
    leaveRate: left / Math.max(1, episodes.length),
    meanTurns: turns / Math.max(1, episodes.length),
    dealRate: deals / Math.max(1, episodes.length),
    judge: {
      scores: judged,
      parsed: got.length,
      sd,
      r: got.length > 2 && new Set(got).size > 1 ? pearson(got, truth).r : NaN,
      meanAbsError: got.reduce((a, g, i) => a + Math.abs(g - truth[i]), 0) / Math.max(1, got.length),
    },
  };
}
