import { askParsed } from '../../core/runs/ask';
import { constrainedReply } from '../../core/prompts/formats';
import { hashSeed } from '../../core/rng';
import { isContextOverflow, requireModels, type RunnerModel } from '../../core/runs/models';
import { CancelledError, throwIfAborted } from '../../core/cancel';
import type { EpisodeContext, LabRunner } from '../../core/runs/runner';
import type { Episode } from '../../core/runs/types';
import {
  buildDialogueTurnPrompt,
  buildJudgePrompt,
  buildPassiveReaderPrompt,
  judgeOverall,
  parseJudge,
  parseUtterance,
  splitHiddenLine,
  turnLimits,
  type SynchronyEpisode,
  type LeftOut,
  type Utterance,
} from '../../core/prompts/synchrony';
import { buildQueue, modelsOf, type QueueItem, type ScenarioSource, type SynchronyConfig } from './queue';
import { PASSIVE_TENSORS, STATE_TENSORS } from './types';
import type { JudgeRecord, Role, SynchronyRecord, TurnRecord } from './records';
import type { SynchronySummary } from './results';
import { analyzeSynchrony } from './analysis';
import { createInProcessExecutor } from '../../core/grid-tasks';
import { librarySource } from './scenarios/source';

/** The third person of the passive-reader control; a second name in case a persona already has the first. */
const READERS = ['Sam Rivera', 'Alex Morgan'];
const JUDGE_ATTEMPTS = 3;
const JUDGE_MAX_TOKENS = 400;
/** The opening turns a shortened transcript keeps (the proposals) before its last turns. */
const JUDGE_KEEPS_FIRST = 2;

const roleAgent = (r: Role): 0 | 1 => (r === 'A' ? 0 : 1);
const other = (r: Role): Role => (r === 'A' ? 'B' : 'A');

interface TurnState {
  role: Role;
  history: Utterance[];
  states: Float32Array;
}

function stack(rows: Float32Array[], L1: number, H: number): Float32Array {
  const out = new Float32Array(rows.length * L1 * H);
  rows.forEach((r, i) => out.set(r, i * L1 * H));
  return out;
}

/** Per-turn sampling seed: the run seed, the episode's seed, its queue position and the turn. */
function turnSeed(config: SynchronyConfig, item: QueueItem, index: number, turn: number): number {
  return hashSeed(`${config.seed}/sync/${item.seed}/${index}/${turn}`);
}

/**
 * Numbers each episode this page (or process) runs, so that the KV caches kept for its agents and its passive reader
 * (GenerateOptions.cacheKey) are never another episode's: each starts from empty ones, and its numbers do not depend
 * on what ran before.
 */
let episodesRun = 0;

async function runDialogue(
  config: SynchronyConfig,
  item: QueueItem,
  ep: SynchronyEpisode,
  models: { A: RunnerModel; B: RunnerModel },
  ctx: EpisodeContext,
  cachePrefix: string,
): Promise<{ turns: TurnRecord[]; taken: TurnState[]; contextFullAt: number | null }> {
  const names = ep.agents.map((a) => a.persona.name);
  const history: Utterance[] = [];
  const turns: TurnRecord[] = [];
  const taken: TurnState[] = [];
  const maxTurns = 2 * config.maxUtterancesPerAgent;
  let role = item.first;
  // Each agent's next prompt repeats its last one with two turns added: the runtime keeps each agent's KV cache.
  for (let turn = 0; turn < maxTurns; turn++, role = other(role)) {
    throwIfAborted(ctx.signal);
    const agent = roleAgent(role);
    const model = models[role];
    const hiddenLine = config.emotions.enabled;
    let r;
    try {
      r = await model.generate({
        messages: buildDialogueTurnPrompt(ep, agent, history, { hiddenLine }),
        temperature: config.temperature,
        topP: config.topP,
        minP: config.minP,
        topK: config.topK,
        promptBoost: config.promptBoost,
        repetitionPenalty: config.repetitionPenalty,
        ...turnLimits(config.maxNewTokens, hiddenLine),
        seed: turnSeed(config, item, ctx.index, turn),
        cacheKey: `${cachePrefix}-${role}`,
      });
    } catch (e) {
      // A conversation longer than the model can read ends there; the turns so far are kept (and the run goes on).
      if (!isContextOverflow(e)) throw e;
      ctx.progress(1, `The conversation filled ${model.id}'s context at turn ${turn + 1}; it ends there.`);
      return { turns, taken, contextFullAt: turn };
    }
    if (r.finishReason === 'cancelled') throw new CancelledError();
    if (!r.prefillStates) throw new Error(`${model.id} returned no hidden states: it was loaded without taps.`);
    taken.push({ role, history: history.slice(), states: r.prefillStates });
    // The hidden line is cut before the reply is parsed: the partner's history holds the spoken part only.
    const { spoken, labels } = hiddenLine ? splitHiddenLine(r.text) : { spoken: r.text, labels: {} };
    const parsed = parseUtterance(spoken, names);
    const text = parsed.ok ? parsed.value.text : '';
    const record: TurnRecord = {
      kind: 'turn',
      turn,
      speaker: role,
      text,
      parsed: parsed.ok,
      leaves: parsed.ok && parsed.value.leaves,
      ...labels,
      promptTokens: r.timing.promptTokens,
      newTokens: r.timing.newTokens,
      ms: Math.round(r.timing.totalMs),
    };
    if (!parsed.ok) record.parseError = parsed.reason;
    if (r.text.trim() !== text) record.raw = r.text.slice(0, 2000);
    turns.push(record);
    // An unparseable turn still took its place in the dialogue: the partner sees that nothing usable was said.
    history.push({ speaker: agent, text: parsed.ok ? text : '...' });
    ctx.progress((turn + 1) / maxTurns, `${names[agent]}: ${parsed.ok ? text : `(unparsed: ${parsed.reason})`}`);
    if (record.leaves) break;
  }
  return { turns, taken, contextFullAt: null };
}

async function passiveStates(ep: SynchronyEpisode, taken: TurnState[], role: Role, model: RunnerModel, cachePrefix: string): Promise<Float32Array> {
  const names = new Set(ep.agents.map((a) => a.persona.name));
  const reader = READERS.find((n) => !names.has(n)) ?? 'A reader';
  const mine = taken.filter((t) => t.role === role);
  if (!mine.length) return new Float32Array(0);
  const prompts = mine.map((t) => buildPassiveReaderPrompt(ep, roleAgent(role), t.history, reader)[0].content);
  // The reader's prompts are one dialogue growing: each is read from the cache of the one before.
  const enc = await model.encode(prompts, { chatTemplate: true, addGenerationPrompt: true, cacheKey: `${cachePrefix}-reader-${role}` });
  return enc.data;
}

async function judge(
  config: SynchronyConfig,
  item: QueueItem,
  index: number,
  ep: SynchronyEpisode,
  turns: TurnRecord[],
  model: RunnerModel,
  ctx: EpisodeContext,
): Promise<JudgeRecord[]> {
  const history: Utterance[] = turns.map((t) => ({ speaker: roleAgent(t.speaker), text: t.parsed ? t.text : '...' }));
  const out: JudgeRecord[] = [];
  const constrained = config.judge.decoding === 'constrained' ? constrainedReply('judge-json') : undefined;
  for (const target of ['A', 'B'] as const) {
    const ask = (leftOut?: LeftOut) =>
      askParsed(model, {
        messages: buildJudgePrompt(ep, history, roleAgent(target), leftOut),
        parse: parseJudge,
        attempts: JUDGE_ATTEMPTS,
        maxNewTokens: JUDGE_MAX_TOKENS,
        ...(constrained ? { constrained } : {}),
        // The first attempt is greedy; a retry samples, so that it can come out differently. Seeds count from 1.
        temperature: (attempt) => (attempt === 0 ? 0 : 0.7),
        seed: (attempt) => hashSeed(`${config.seed}/judge/${item.seed}/${index}/${target}/${attempt + 1}`),
        signal: ctx.signal,
      });
    let asked = await ask();
    let leftOut: LeftOut | undefined;
    // A conversation longer than the judge model's context (a small model's long run) is judged on its opening and
    // as many of its last turns as fit, rather than not at all: the outcome (a deal, a leave) is at the end. The
    // record says how many turns the judge did not see.
    for (let last = history.length - JUDGE_KEEPS_FIRST - 1; !asked.ok && asked.contextOverflow && last >= 1; last--) {
      leftOut = { from: JUDGE_KEEPS_FIRST, to: history.length - last };
      asked = await ask(leftOut);
    }
    const turnsLeftOut = leftOut ? { turnsLeftOut: leftOut.to - leftOut.from } : {};
    out.push(
      asked.ok
        ? { kind: 'judge', target, ok: true, attempts: asked.attempts, scores: asked.value, overall: judgeOverall(asked.value), ...turnsLeftOut }
        : { kind: 'judge', target, ok: false, attempts: JUDGE_ATTEMPTS, error: asked.reason, ...turnsLeftOut },
    );
  }
  return out;
}

/** The Synchrony runner over a scenario source (the bundled library merged with the config's own scenarios). */
export function createSynchronyRunner(source: ScenarioSource): LabRunner<SynchronyConfig, SynchronyRecord, SynchronySummary> {
  return {
    lab: 'synchrony',
    plan(config) {
      const missing = source.ids(config).filter((id) => source.pairings(config, id) === 0);
      if (missing.length)
        return {
          episodes: 0,
          bytesPerEpisode: 0,
          models: modelsOf(config),
          unavailable: `Unknown scenario${missing.length > 1 ? 's' : ''} (or without persona pairings): ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}. Pick scenarios from the library or add them in the editor.`,
        };
      const queue = buildQueue(config, source);
      if (!queue.length) return { episodes: 0, bytesPerEpisode: 0, models: modelsOf(config), unavailable: 'No scenario to run: pick at least one scenario.' };
      // 16 utterances × (L+1)·H floats, sized for a 1B model (17 × 2048), twice with the passive control.
      const perState = 17 * 2048 * 4;
      return {
        episodes: queue.length,
        bytesPerEpisode: 2 * config.maxUtterancesPerAgent * perState * (config.controls.passiveReader ? 2 : 1) + 20_000,
        models: modelsOf(config),
      };
    },
    async runEpisode(config, ctx): Promise<Episode<SynchronyRecord>> {
      const models = requireModels('synchrony', ctx.models);
      const item = buildQueue(config, source)[ctx.index];
      if (!item) throw new Error(`episode ${ctx.index} is outside this run's queue`);
      const { episode: ep, title } = source.episode(config, item.scenarioId, item.pairing);
      const pair = { A: models.get(item.modelA), B: models.get(item.modelB) };
      const cachePrefix = `synchrony-${++episodesRun}`;
      const { turns, taken, contextFullAt } = await runDialogue(config, item, ep, pair, ctx, cachePrefix);
      const records: SynchronyRecord[] = [
        {
          kind: 'meta',
          scenarioId: item.scenarioId,
          scenarioTitle: title,
          pairing: item.pairing,
          seed: item.seed,
          first: item.first,
          relationship: ep.relationship,
          modelA: item.modelA,
          modelB: item.modelB,
          pairIndex: item.pairIndex,
          group: item.group,
          names: { A: ep.agents[0].persona.name, B: ep.agents[1].persona.name },
          ...(contextFullAt !== null ? { contextFullAt } : {}),
        },
        ...turns,
      ];
      const tensors: Episode['tensors'] = {};
      for (const role of ['A', 'B'] as const) {
        const rows = taken.filter((t) => t.role === role).map((t) => t.states);
        const m = pair[role];
        const L1 = m.numLayers + 1;
        const H = m.hiddenSize;
        if (rows.some((r) => r.length !== L1 * H)) throw new Error(`${m.id} returned states of an unexpected size (expected ${L1}×${H}).`);
        tensors[STATE_TENSORS[role]] = { dtype: 'F32', shape: [rows.length, L1, H], data: stack(rows, L1, H) };
        if (config.controls.passiveReader && rows.length) {
          ctx.progress(1, `Passive reader: re-encoding ${m.id}'s ${rows.length} prompts`);
          const data = await passiveStates(ep, taken, role, m, cachePrefix);
          tensors[PASSIVE_TENSORS[role]] = { dtype: 'F32', shape: [rows.length, L1, H], data };
        }
      }
      if (config.judge.enabled) {
        ctx.progress(1, 'Judging the episode');
        records.push(...(await judge(config, item, ctx.index, ep, turns, models.get(config.judge.model), ctx)));
      }
      return { index: ctx.index, records, tensors };
    },
    async summarize(config, episodes, compute) {
      return [{ name: 'synchrony', value: await analyzeSynchrony(config, episodes, undefined, { grids: compute?.grids ?? createInProcessExecutor() }) }];
    },
  };
}

/** The lab's runner: the bundled scenario library merged with the config's own scenarios. */
export const synchronyRunner = createSynchronyRunner(librarySource);
