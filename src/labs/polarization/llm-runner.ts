import { askParsed } from '../../core/runs/ask';
import { constrainedReply, type ConstrainedReply } from '../../core/prompts/formats';
import { createRng, hashSeed, type Rng } from '../../core/rng';
import type { RunnerModel } from '../../core/runs/models';
import { requireModels } from '../../core/runs/models';
import { throwIfAborted } from '../../core/cancel';
import type { EpisodeContext } from '../../core/runs/runner';
import type { Episode } from '../../core/runs/types';
import type { ChatMessage, ParseResult } from '../../core/prompts/shared';
import type { DirectedGraph } from '../../core/graphs/directed';
import {
  buildConsistencyCheckPrompt,
  buildInitialPostPrompt,
  buildPersuadePrompt,
  buildRewirePrompt,
  buildStanceUpdatePrompt,
  parseMessage,
  parsePersuade,
  parseStanceUpdate,
  parseYesNo,
  type StanceValue,
} from '../../core/prompts/polarization';
import { initialOpinions } from '../../core/polarization/classic';
import { homophily, opinionDistribution, polarization } from '../../core/polarization/metrics';
import { buildNetwork, networkFromTensors, networkToTensors, type PolarizationConfig } from './network';
import { topicById, type LabTopic } from './topics';
import type { AgentLog, EpochRow, PendingMessage, PolarizationRecord } from './records';

const ATTEMPTS = 3;
/** Self-regulated variant: regenerations of an initial post, and retries of a stance change, after a failed check. */
const POST_REGENERATIONS = 3;
const CHANGE_RETRIES = 2;
// rewire: room for a short reason before the yes or no ("Me +2, you -1: opposite sides. No." is 15 tokens for the
// Polarization organism); check: a bare yes or no.
const MAX_TOKENS = { update: 60, rewire: 24, check: 6, persuade: 120, post: 120 };

/**
 * The grammars of the agents' structured replies when the config asks for constrained decoding (`llm.decoding`): the
 * stance update and every yes/no (keep a link, the consistency check). Posts and persuasion stay free text.
 */
function grammarsFor(config: PolarizationConfig): { stance?: ConstrainedReply; yesNo?: ConstrainedReply } {
  if (config.llm.decoding !== 'constrained') return {};
  return { stance: constrainedReply('stance-json'), yesNo: constrainedReply('yes-no') };
}

export type { AgentLog, AgentState, EpochRow, PendingMessage } from './records';

/** Whether the config's intervention acts in this epoch. */
export function interventionAt(config: PolarizationConfig, epoch: number): PolarizationConfig['intervention']['kind'] {
  return config.intervention.kind !== 'none' && epoch > config.intervention.fromEpoch ? config.intervention.kind : 'none';
}

interface Counter {
  calls: number;
  failures: number;
  /** Self-regulated variant: stance changes checked, and how many failed their first check (the inconsistency rate). */
  checked: number;
  inconsistent: number;
}

/** Asks the agent whether a text fits its stance (self-regulated variant); an unparsed answer counts as yes. */
async function fits(
  model: RunnerModel,
  topic: LabTopic,
  self: { stance: StanceValue; reasons: string },
  text: string,
  t: number,
  seedKey: string,
  count: Counter,
  constrained?: ConstrainedReply,
): Promise<boolean> {
  return (await ask(model, buildConsistencyCheckPrompt(topic, self, text), parseYesNo, MAX_TOKENS.check, t, seedKey, count, constrained)) !== false;
}

async function ask<T>(
  model: RunnerModel,
  messages: ChatMessage[],
  parse: (t: string) => ParseResult<T>,
  maxNewTokens: number,
  temperature: number,
  seedKey: string,
  count: Counter,
  constrained?: ConstrainedReply,
): Promise<T | null> {
  const r = await askParsed(model, {
    messages,
    parse,
    attempts: ATTEMPTS,
    maxNewTokens,
    temperature,
    seed: (attempt) => hashSeed(`${seedKey}/${attempt}`),
    counter: count,
    ...(constrained ? { constrained } : {}),
  });
  return r.ok ? r.value : null;
}

function randomOther(n: number, self: number, exclude: ReadonlySet<number>, rng: Rng): number | null {
  const pool: number[] = [];
  for (let j = 0; j < n; j++) if (j !== self && !exclude.has(j)) pool.push(j);
  return pool.length ? pool[Math.floor(rng.next() * pool.length)] : null;
}

/** Epoch 0: opinions by the method's shares, the topic's reasons, the network, and ~10 % initial posts. */
async function initialState(config: PolarizationConfig, topic: LabTopic, model: RunnerModel, count: Counter) {
  const graph = buildNetwork(config, createRng(hashSeed(`${config.seed}/network`)));
  const x = initialOpinions(config.agents, createRng(hashSeed(`${config.seed}/opinions`))) as StanceValue[];
  const reasons = x.map((v) => topic.reasons[v]);
  const rng = createRng(hashSeed(`${config.seed}/posts`));
  const pending: PendingMessage[] = [];
  for (let i = 0; i < config.agents; i++) {
    if (rng.next() >= config.llm.initialPostShare) continue;
    const self = { stance: x[i], reasons: reasons[i] };
    let post: string | null = null;
    for (let k = 0; k < (config.llm.selfRegulated ? POST_REGENERATIONS : 1); k++) {
      post = await ask(
        model,
        buildInitialPostPrompt(topic, self),
        parseMessage,
        MAX_TOKENS.post,
        config.llm.temperature,
        `${config.seed}/post/${i}/${k}`,
        count,
      );
      if (
        !post ||
        !config.llm.selfRegulated ||
        (await fits(model, topic, self, post, config.llm.temperature, `${config.seed}/post/${i}/${k}/check`, count, grammarsFor(config).yesNo))
      )
        break;
      post = null; // the agent disowned it: a post that never passes its check is not sent
    }
    if (post) for (const j of graph.out[i]) pending.push({ from: i, to: j, text: post, leader: false });
  }
  return { graph, x, reasons, pending };
}

/**
 * One epoch of LLM agents (docs/methods/polarization.md): deliver last epoch's messages; each receiver updates its
 * stance (JSON), decides for each out-neighbour to keep or drop the link (a drop rewires to a random node), and
 * decides for each out-neighbour whether to send a message, delivered next epoch. Every agent sees the others'
 * stances and reasons as they were at the start of the epoch. Interventions act after `intervention.fromEpoch`.
 */
export async function runLlmEpoch(config: PolarizationConfig, ctx: EpisodeContext<PolarizationRecord>): Promise<Episode<PolarizationRecord>> {
  const topic = topicById(config.topic);
  if (!topic) throw new Error(`unknown topic "${config.topic}"`);
  const model = requireModels('polarization', ctx.models).get(config.model);
  const count: Counter = { calls: 0, failures: 0, checked: 0, inconsistent: 0 };
  const rows: PolarizationRecord[] = [];
  let graph: DirectedGraph;
  let x: StanceValue[];
  let reasons: string[];
  let pending: PendingMessage[];
  let elites: number[];
  if (ctx.previous) {
    graph = networkFromTensors(ctx.previous.tensors);
    x = Array.from(ctx.previous.tensors.opinions.data as Float64Array) as StanceValue[];
    const state = ctx.previous.records.find((r) => r.kind === 'state');
    if (!state) throw new Error('the previous epoch holds no agent state (reasons and messages)');
    ({ reasons, pending, elites } = state);
  } else {
    ctx.progress(0, 'Epoch 0: initial posts');
    ({ graph, x, reasons, pending } = await initialState(config, topic, model, count));
    elites = [];
    rows.push({
      epoch: 0,
      P: polarization(x),
      H: homophily(graph, x),
      distribution: opinionDistribution(x),
      rewires: 0,
      messagesSent: pending.length,
      calls: count.calls,
      failures: count.failures,
    } satisfies EpochRow);
  }
  const epoch = ctx.index + 1;
  const intervention = interventionAt(config, epoch);
  const rng = ctx.rng;
  if (intervention === 'neutralElite' && !elites.length) {
    const k = Math.max(1, Math.round(config.llm.eliteShare * config.agents));
    elites = rng
      .shuffle(Array.from({ length: config.agents }, (_, i) => i))
      .slice(0, k)
      .sort((a, b) => a - b);
  }
  const isElite = new Set(intervention === 'neutralElite' ? elites : []);
  for (const e of isElite) {
    const v = eliteStance(config, e, x[e]);
    x[e] = v;
    if (config.llm.eliteStance !== 'original') reasons[e] = topic.reasons[v];
  }
  const confirmationBias = traitHolders(config, 'confirmationBias', config.llm.confirmationBiasShare);
  const selectiveExposure = traitHolders(config, 'selectiveExposure', config.llm.selectiveExposureShare);
  const inbox = new Map<number, PendingMessage[]>();
  for (const m of pending) (inbox.get(m.to) ?? inbox.set(m.to, []).get(m.to)!).push(m);
  const updating = [...inbox.keys()].sort((a, b) => a - b);
  const interactions: Array<[number, number]> = pending.map((m) => [m.to, m.from]);
  const next: PendingMessage[] = [];
  const t = config.llm.temperature;
  const grammars = grammarsFor(config);
  // Everyone reads the others as they were at the start of the epoch, so the order of the updates does not matter.
  const before = x.slice();
  const reasonsBefore = reasons.slice();
  let rewires = 0;
  for (let u = 0; u < updating.length; u++) {
    throwIfAborted(ctx.signal);
    const i = updating[u];
    ctx.progress(u / updating.length, `Epoch ${epoch}: agent ${i + 1} (${u + 1} of ${updating.length} updating)`);
    const got = inbox.get(i)!;
    const key = `${config.seed}/${epoch}/${i}`;
    const log: AgentLog = {
      kind: 'agent',
      epoch,
      agent: i,
      received: got.length,
      before: x[i],
      after: x[i],
      reasons: reasons[i],
      kept: [],
      dropped: [],
      sentTo: [],
      failures: 0,
    };
    const failuresBefore = count.failures;
    if (!isElite.has(i)) {
      const prompt = buildStanceUpdatePrompt({
        topic,
        self: { stance: x[i], reasons: reasons[i] },
        messages: got.filter((m) => !m.leader).map((m) => m.text),
        leaderMessages: got.filter((m) => m.leader).map((m) => m.text),
        openToPersuasion: intervention === 'noConfirmationBias',
        confirmationBias: confirmationBias.has(i),
      });
      const retries = config.llm.selfRegulated ? CHANGE_RETRIES : 0;
      for (let k = 0; k <= retries; k++) {
        const update = await ask(
          model,
          prompt,
          (s) => parseStanceUpdate(s, topic),
          MAX_TOKENS.update,
          t,
          `${key}/update${k ? `/${k}` : ''}`,
          count,
          grammars.stance,
        );
        if (!update) break;
        const changed = update.stance !== x[i];
        // self-regulated: a change of stance must pass the agent's own check, or the update is asked again
        const ok =
          !config.llm.selfRegulated || !changed || (await fits(model, topic, update, update.reasons, t, `${key}/update/${k}/check`, count, grammars.yesNo));
        if (config.llm.selfRegulated && changed && k === 0) {
          count.checked++;
          if (!ok) count.inconsistent++;
        }
        if (ok || k === retries) {
          if (ok) {
            x[i] = update.stance;
            reasons[i] = update.reasons;
          }
          break;
        }
      }
    }
    // keep or drop each out-link (selective exposure), or the intervention's rule
    const links = graph.out[i].slice();
    const linked = new Set(links);
    for (const j of links) {
      let keep: boolean | null;
      if (intervention === 'randomInteractions') keep = false;
      else if (intervention === 'moderateOpposing') keep = x[i] !== 0 && Math.abs(before[j]) === 1 && Math.sign(before[j]) === -Math.sign(x[i]);
      else
        keep = await ask(
          model,
          buildRewirePrompt({
            topic,
            self: { stance: x[i], reasons: reasons[i] },
            other: { stance: before[j], reasons: reasonsBefore[j] },
            likesDiversity: intervention === 'noSelectiveExposure',
            selectiveExposure: selectiveExposure.has(i),
            openness: config.llm.openness,
          }),
          parseYesNo,
          MAX_TOKENS.rewire,
          t,
          `${key}/rewire/${j}`,
          count,
          grammars.yesNo,
        );
      if (keep !== false) {
        log.kept.push(j);
        continue;
      }
      const candidates = intervention === 'moderateOpposing' && x[i] !== 0 ? moderateOpponents(before, x[i], i, linked) : null;
      const target = candidates?.length ? candidates[Math.floor(rng.next() * candidates.length)] : randomOther(config.agents, i, linked, rng);
      if (target === null) {
        log.kept.push(j);
        continue;
      }
      graph.out[i][graph.out[i].indexOf(j)] = target;
      linked.delete(j);
      linked.add(target);
      log.dropped.push(j);
      rewires++;
    }
    // persuade each out-neighbour, delivered next epoch
    for (const j of graph.out[i]) {
      const decision = await ask(
        model,
        buildPersuadePrompt({ topic, self: { stance: x[i], reasons: reasons[i] }, other: { stance: before[j], reasons: reasonsBefore[j] } }),
        parsePersuade,
        MAX_TOKENS.persuade,
        t,
        `${key}/persuade/${j}`,
        count,
      );
      if (decision?.send && decision.message) {
        next.push({ from: i, to: j, text: decision.message, leader: isElite.has(i) });
        log.sentTo.push(j);
      }
    }
    log.after = x[i];
    log.reasons = reasons[i];
    log.failures = count.failures - failuresBefore;
    rows.push(log);
  }
  ctx.progress(1);
  rows.push({
    epoch,
    P: polarization(x),
    H: homophily(graph, x),
    distribution: opinionDistribution(x),
    rewires,
    updating: updating.length,
    messagesSent: next.length,
    failures: count.failures,
    calls: count.calls,
    intervention,
    ...(config.llm.selfRegulated ? { checked: count.checked, inconsistent: count.inconsistent } : {}),
  } satisfies EpochRow);
  rows.push({ kind: 'interactions', epoch, pairs: interactions, before });
  rows.push({ kind: 'state', reasons, pending: next, elites });
  return {
    index: ctx.index,
    records: rows,
    tensors: { opinions: { dtype: 'F64', shape: [config.agents], data: Float64Array.from(x) }, ...networkToTensors(graph) },
  };
}

/** The agents with a trait of the mechanism experiments: a seeded draw per agent, the same in every epoch. */
export function traitHolders(config: PolarizationConfig, trait: string, share: number): Set<number> {
  const out = new Set<number>();
  if (share <= 0) return out;
  const rng = createRng(hashSeed(`${config.seed}/trait/${trait}`));
  for (let i = 0; i < config.agents; i++) if (rng.next() < share) out.add(i);
  return out;
}

/** A leader's stance: neutral 0; moderate ±1 or radical ±2 with a seeded side per leader; original: its own. */
export function eliteStance(config: PolarizationConfig, agent: number, own: StanceValue): StanceValue {
  const kind = config.llm.eliteStance;
  if (kind === 'original') return own;
  if (kind === 'neutral') return 0;
  const side = createRng(hashSeed(`${config.seed}/elite-side/${agent}`)).next() < 0.5 ? -1 : 1;
  return (side * (kind === 'moderate' ? 1 : 2)) as StanceValue;
}

/**
 * "Moderately opposing interactions" (the seed's code was not released; the lab's definition): an agent with a
 * side drops every link to anyone but a moderate of the other side (|x| = 1, opposite sign) and relinks to such
 * moderates at random; neutral agents keep their links.
 */
function moderateOpponents(x: readonly number[], own: number, i: number, linked: ReadonlySet<number>): number[] {
  const out: number[] = [];
  for (let j = 0; j < x.length; j++) if (j !== i && !linked.has(j) && Math.abs(x[j]) === 1 && Math.sign(x[j]) === -Math.sign(own)) out.push(j);
  return out;
}
