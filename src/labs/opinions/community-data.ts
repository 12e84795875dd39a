/**
 * The LLM community run's data: which personas and questions a config names, which graph and persona each node
 * gets, how episodes map to (question, graph, trajectory, round), and the trajectories a run's stored episodes hold.
 * Pure: used by the runner (compute worker or main thread, and Node), the views and the fits.
 */
import { createRng, hashSeed } from '../../core/rng';
import { edgeList, type SignedGraph } from '../../core/graphs/signed';
import type { Episode } from '../../core/runs/types';
import { personaText, type OpinionPersona, type OpinionQuestion } from '../../core/prompts/opinions';
import { decodeEdges, encodeEdges } from './edge-code';
import { buildGraph, configGraph, configNodeCount, usesCustomGraph, type OpinionsConfig } from './graph';
import { BUNDLED_PERSONAS, BUNDLED_QUESTIONS, type Persona, type QuestionItem } from './community/sets';
import type { OpinionTrajectory } from './trajectory';
import { readOpinionsEpisode, type AgentRow, type OpinionsRecord, type RoundRow } from './records';

/** More agents than this would take hours on a browser model; the plan refuses them with the reason. */
export const MAX_COMMUNITY_AGENTS = 256;

// ---------------------------------------------------------------------------------------------------------------
// personas and questions

/** Bundled items, then the config's own: an edited item replaces the bundled one with its id, a new id is added. */
function merge<T extends { id: string }>(bundled: readonly T[], own: readonly T[]): T[] {
  const byId = new Map<string, T>();
  for (const x of bundled) byId.set(x.id, x);
  for (const x of own) byId.set(x.id, x);
  return [...byId.values()];
}

export function personaPool(config: Pick<OpinionsConfig, 'sets'>): Persona[] {
  return merge<Persona>(BUNDLED_PERSONAS, config.sets.personas);
}

export function questionPool(config: Pick<OpinionsConfig, 'sets'>): QuestionItem[] {
  return merge<QuestionItem>(BUNDLED_QUESTIONS, config.sets.questions as QuestionItem[]);
}

/** The question ids a config runs, in order: the sweep list, else the one question, else the first of its kind. */
export function questionIds(config: Pick<OpinionsConfig, 'community' | 'sets'>): string[] {
  const c = config.community;
  if (c.questions.length) return [...c.questions];
  if (c.questionId) return [c.questionId];
  const first = questionPool(config).find((q) => q.kind === c.questionKind);
  return first ? [first.id] : [];
}

/** The questions a config runs, or the reason they cannot be found. */
export function resolveQuestions(config: Pick<OpinionsConfig, 'community' | 'sets'>): { ok: true; items: QuestionItem[] } | { ok: false; reason: string } {
  const pool = new Map(questionPool(config).map((q) => [q.id, q]));
  const ids = questionIds(config);
  if (!ids.length) return { ok: false, reason: 'No question is chosen.' };
  const items: QuestionItem[] = [];
  for (const id of ids) {
    const q = pool.get(id);
    if (!q) return { ok: false, reason: `There is no question "${id}" (bundled ids are s01–s22 and o01–o22).` };
    items.push(q);
  }
  return { ok: true, items };
}

/**
 * Where the correct answer of an objective question goes: A or B, drawn once per question from the run seed (the
 * method places the letter at random). Returns the correct spin: +1 = A, −1 = B.
 */
export function correctSpin(seed: number, questionId: string): 1 | -1 {
  return createRng(hashSeed(`${seed}/letter/${questionId}`)).next() < 0.5 ? 1 : -1;
}

/** The prompt form of a question; objective answers are placed by `correctSpin`. */
export function promptQuestion(item: QuestionItem, seed: number): { question: OpinionQuestion; correct?: 1 | -1 } {
  if (item.kind === 'subjective') return { question: { kind: 'subjective', statement: item.text } };
  const correct = correctSpin(seed, item.id);
  const options = correct === 1 ? { A: item.answer, B: item.wrong } : { A: item.wrong, B: item.answer };
  return { question: { kind: 'objective', problem: item.text, options }, correct };
}

/**
 * The persona a prompt shows: the node's persona text (subjective), or the method's expert with the question's
 * worked example (objective), optionally after the node's persona (`objectivePersona: 'expert+persona'`).
 */
export function promptPersona(item: QuestionItem, persona: Persona, mode: OpinionsConfig['community']['objectivePersona']): OpinionPersona {
  if (item.kind === 'subjective') return persona.text;
  const expert = { otherProblem: item.example.problem, solution: item.example.solution };
  if (mode === 'expert') return expert;
  return `${persona.text}\n${personaText(expert)}`;
}

// ---------------------------------------------------------------------------------------------------------------
// graphs and assignment

/** How many graphs a config sweeps: the generator's `community.graphs`, or one custom graph. */
export function graphCount(config: Pick<OpinionsConfig, 'community' | 'custom'>): number {
  return usesCustomGraph(config) ? 1 : config.community.graphs;
}

/**
 * Graph g of a run. Graph 0 is the one the editor and the simulation show (`${seed}/graph`); graphs g ≥ 1 are
 * further draws of the same generator (`${seed}/graph/${g}`).
 */
export function communityGraph(config: OpinionsConfig, g: number): SignedGraph {
  if (g === 0 || usesCustomGraph(config)) return configGraph(config, createRng(hashSeed(`${config.seed}/graph`)));
  return buildGraph(config.graph, createRng(hashSeed(`${config.seed}/graph/${g}`)));
}

/** A graph's id in the trajectories (splits by graph): the generator, seed and draw, or "custom". */
export function communityGraphId(config: OpinionsConfig, g: number): string {
  if (usesCustomGraph(config)) return `custom-${(hashSeed(config.custom.edges) >>> 0).toString(36)}`;
  return `${config.graph.generator}-${config.seed}-g${g}`;
}

/**
 * n persona ids from the pool: a shuffle seeded by `seedKey`, taken in order, so all differ while n ≤ the pool (a
 * larger n goes round again, reshuffled). Community graphs and the question screening both draw this way.
 */
export function drawPersonas(config: Pick<OpinionsConfig, 'sets'>, n: number, seedKey: string): string[] {
  const pool = personaPool(config).map((p) => p.id);
  const rng = createRng(hashSeed(seedKey));
  const out: string[] = [];
  while (out.length < n) out.push(...rng.shuffle([...pool]));
  return out.slice(0, n);
}

/**
 * One persona id per node of graph g. Random: a seeded shuffle of the pool (`${seed}/personas/${g}`), taken in
 * order, so every node has a different persona while N ≤ the pool (a larger N goes round again, reshuffled).
 * Manual: `community.personaIds`, which must name one persona per node.
 */
export function assignPersonas(config: OpinionsConfig, n: number, g: number): string[] {
  if (config.community.assignment === 'manual') {
    const ids = config.community.personaIds;
    if (ids.length !== n) throw new Error(`Manual assignment lists ${ids.length} personas, but the graph has ${n} nodes.`);
    return [...ids];
  }
  return drawPersonas(config, n, `${config.seed}/personas/${g}`);
}

// ---------------------------------------------------------------------------------------------------------------
// episodes

export interface EpisodeSlot {
  /** Question position in the run's list, graph draw, trajectory on that graph, and round t = 0..T. */
  q: number;
  g: number;
  e: number;
  t: number;
}

export interface CommunityLayout {
  questions: number;
  graphs: number;
  trajectories: number;
  /** Rounds per trajectory: T + 1 (round 0 included). */
  rounds: number;
  episodes: number;
}

/** One stored episode = one round of one trajectory; episodes run question by question, graph by graph. */
export function communityLayout(config: OpinionsConfig): CommunityLayout {
  const questions = questionIds(config).length;
  const graphs = graphCount(config);
  const trajectories = config.community.trajectories;
  const rounds = config.community.rounds + 1;
  return { questions, graphs, trajectories, rounds, episodes: questions * graphs * trajectories * rounds };
}

export function episodeSlot(layout: CommunityLayout, index: number): EpisodeSlot {
  const t = index % layout.rounds;
  let k = Math.floor(index / layout.rounds);
  const e = k % layout.trajectories;
  k = Math.floor(k / layout.trajectories);
  const g = k % layout.graphs;
  const q = Math.floor(k / layout.graphs);
  return { q, g, e, t };
}

export function slotIndex(layout: CommunityLayout, s: EpisodeSlot): number {
  return ((s.q * layout.graphs + s.g) * layout.trajectories + s.e) * layout.rounds + s.t;
}

/** Why a config's community run cannot start, or null. */
export function communityProblem(config: OpinionsConfig): string | null {
  const n = configNodeCount(config);
  if (n > MAX_COMMUNITY_AGENTS)
    return `A community of ${n} agents is too large for language models here (at most ${MAX_COMMUNITY_AGENTS}); choose a random or low-rank graph with fewer agents, a smaller lattice, or draw one.`;
  if (n < 2) return 'A community needs at least 2 agents.';
  const qs = resolveQuestions(config);
  if (!qs.ok) return qs.reason;
  const pool = new Set(personaPool(config).map((p) => p.id));
  if (config.community.assignment === 'manual') {
    const ids = config.community.personaIds;
    if (ids.length !== n) return `Manual assignment lists ${ids.length} personas, but the graph has ${n} nodes; list one persona id per node.`;
    const missing = ids.find((id) => !pool.has(id));
    if (missing) return `Manual assignment names the persona "${missing}", which does not exist.`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// records → trajectories

export type { AgentRow, RoundRow } from './records';

export function agentRows(ep: Episode<OpinionsRecord>): AgentRow[] {
  return ep.records.filter((r) => r.kind === 'agent');
}

export function roundRow(ep: Episode<OpinionsRecord>): RoundRow | undefined {
  return ep.records.find((r) => r.kind === 'round');
}

/**
 * The trajectories held by a run's stored episodes, in the shared OpinionTrajectory shape (the fits' input).
 * Only complete trajectories (all T+1 rounds stored) unless `partial`. The episodes may come from anywhere (the
 * summary, a bundle, a headless run), so each is parsed with the lab's record schema first: a row that does not fit
 * throws a RecordError naming it.
 */
export function trajectoriesFromRun(config: OpinionsConfig, stored: readonly Episode[], opts: { partial?: boolean } = {}): OpinionTrajectory[] {
  const episodes = stored.map(readOpinionsEpisode);
  const rounds = config.community.rounds + 1;
  const groups = new Map<string, { round: RoundRow; agents: AgentRow[] }[]>();
  for (const ep of episodes) {
    const r = roundRow(ep);
    if (!r) continue;
    const key = `${r.question}/g${r.graph}/e${r.trajectory}`;
    let list = groups.get(key);
    if (!list) groups.set(key, (list = []));
    list[r.t] = { round: r, agents: agentRows(ep) };
  }
  const out: OpinionTrajectory[] = [];
  for (const [id, list] of groups) {
    const done = list.filter(Boolean);
    if (!done.length || (!opts.partial && (done.length !== rounds || list.length !== rounds))) continue;
    // Rounds in order, stopping at the first gap.
    const seq: { round: RoundRow; agents: AgentRow[] }[] = [];
    for (let t = 0; t < list.length && list[t]; t++) seq.push(list[t]);
    const first = seq[0].round;
    const n = first.agents;
    const voteMeans = seq.map(({ agents }) => {
      const row = new Array<number>(n).fill(0);
      for (const a of agents) row[a.agent] = a.obar;
      return row;
    });
    const traj: OpinionTrajectory = {
      id,
      question: { id: first.question, kind: first.questionKind, text: first.questionText },
      graphId: first.graphId,
      graph: { n, edges: decodeRoundEdges(first.edges) },
      voteMeans,
    };
    if (first.questionKind === 'objective' && first.correct) traj.question.correct = first.correct;
    out.push(traj);
  }
  return out;
}

/** Edges as stored in a round row: the compact "i+j,i-j" code of the link's custom graphs. */
export function encodeRoundEdges(g: SignedGraph): string {
  return encodeEdges(edgeList(g));
}

function decodeRoundEdges(code: string): Array<[number, number, 1 | -1]> {
  return decodeEdges(code).map(([i, j, s]) => [i, j, s > 0 ? 1 : -1]);
}
