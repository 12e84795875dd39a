import { createRng, hashSeed } from '../../core/rng';
import type { LabRunner } from '../../core/runs/runner';
import { throwIfAborted } from '../../core/cancel';
import { boundedConfidence, coevolvingVoter, initialOpinions } from '../../core/polarization/classic';
import { homophily, opinionDistribution, polarization } from '../../core/polarization/metrics';
import { buildNetwork, networkFromTensors, networkToTensors, type PolarizationConfig } from './network';
import { runLlmEpoch } from './llm-runner';
import { mechanismSlot, planMechanisms, runMechanismEpisode, summarizeMechanisms } from './mechanisms';
import type { EpochRow, PolarizationRecord } from './records';
import type { PolarizationSummary } from './results';
import { echoChamberTable } from '../../core/polarization/metrics';
import type { Episode } from '../../core/runs/types';

/** The per-epoch rows (P, H, distribution, …), without the agent logs and states of LLM runs. */
function epochRows(episodes: readonly Episode<PolarizationRecord>[]): EpochRow[] {
  return episodes.flatMap((e) => e.records).filter((r) => r.kind === undefined);
}

/** LLM runs: echo chamber and backfire over 5-epoch windows, and the counts of calls and failures. */
function llmSummary(episodes: readonly Episode<PolarizationRecord>[]) {
  const inter = episodes.flatMap((e) => e.records.filter((r) => r.kind === 'interactions'));
  if (!inter.length) return {};
  const last = episodes[episodes.length - 1].tensors.opinions?.data;
  const history = [...inter.map((r) => r.before), ...(last ? [Array.from(last as Float64Array)] : [])];
  const rows = epochRows(episodes);
  const sum = (k: 'calls' | 'failures' | 'messagesSent') => rows.reduce((s, r) => s + (r[k] ?? 0), 0);
  const table = echoChamberTable(
    history,
    inter.map((r) => r.pairs),
    { window: Math.min(5, inter.length) },
  );
  const { records: _records, ...echo } = table; // the per-agent records stay out of the stored result (recomputable)
  return { echo, calls: sum('calls'), failures: sum('failures'), messages: sum('messagesSent') };
}

/**
 * Classic no-LLM models (coevolving voter, bounded confidence) on the lab's network. One episode is one epoch; the
 * opinions and the rewired network pass from each episode to the next, so a resumed run continues exactly.
 */
export const polarizationRunner: LabRunner<PolarizationConfig, PolarizationRecord, PolarizationSummary> = {
  lab: 'polarization',
  plan(config) {
    if (config.agentKind === 'llm') {
      // per epoch: the opinions, the network, every agent's reasons and the messages in flight (~300 bytes each)
      const bytesPerEpisode = 8 * config.agents + 4 * config.agents * (config.network.degree + 1) + 700 * config.agents * (config.network.degree + 1) + 2_000;
      if (config.mechanisms.enabled) return planMechanisms(config, bytesPerEpisode);
      return { episodes: config.epochs, chainLength: config.epochs, bytesPerEpisode, models: [config.model] };
    }
    if (config.mechanisms.enabled)
      return {
        episodes: 0,
        bytesPerEpisode: 0,
        models: [],
        unavailable: 'The mechanism experiments give traits and leaders to LLM agents; the classic models have neither.',
        fix: { label: 'Use LLM agents', config: { ...config, agentKind: 'llm' as const } },
      };
    if (config.intervention.kind !== 'none') {
      return {
        episodes: 0,
        bytesPerEpisode: 0,
        models: [],
        unavailable: 'Interventions act on LLM agents (their prompts and links); the classic models run without them. Set the intervention to "none".',
        fix: { label: 'Set the intervention to none', config: { ...config, intervention: { ...config.intervention, kind: 'none' as const } } },
      };
    }
    return {
      episodes: config.epochs,
      chainLength: config.epochs,
      bytesPerEpisode: 8 * config.agents + 4 * config.agents * (config.network.degree + 1) + 200,
      models: [],
    };
  },
  async runEpisode(config, ctx) {
    throwIfAborted(ctx.signal);
    if (config.agentKind === 'llm') return config.mechanisms.enabled ? runMechanismEpisode(config, ctx) : runLlmEpoch(config, ctx);
    let graph;
    let x: number[];
    const rows: EpochRow[] = [];
    if (ctx.previous) {
      graph = networkFromTensors(ctx.previous.tensors);
      x = Array.from(ctx.previous.tensors.opinions.data as Float64Array);
    } else {
      graph = buildNetwork(config, createRng(hashSeed(`${config.seed}/network`)));
      x = initialOpinions(config.agents, createRng(hashSeed(`${config.seed}/opinions`)));
      rows.push({ epoch: 0, P: polarization(x), H: homophily(graph, x), distribution: opinionDistribution(x), rewires: 0 });
    }
    const result =
      config.agentKind === 'coevolvingVoter'
        ? coevolvingVoter(graph, x, { phi: config.voter.rewireToLikeMinded, epochs: 1 }, ctx.rng)
        : boundedConfidence(
            graph,
            x,
            { confidence: config.boundedConfidence.threshold, mu: config.boundedConfidence.convergence, rewire: 0, epochs: 1 },
            ctx.rng,
          );
    ctx.progress(1);
    rows.push({ epoch: ctx.index + 1, P: result.P[1], H: result.H[1], distribution: opinionDistribution(result.final), rewires: result.rewires });
    return {
      index: ctx.index,
      records: rows,
      tensors: { opinions: { dtype: 'F64', shape: [config.agents], data: Float64Array.from(result.final) }, ...networkToTensors(result.graph) },
    };
  },
  livePlot(config, episodes) {
    // A mechanism sweep draws the run in progress (its last condition and seed), not every chain end to end.
    const sweep = config.agentKind === 'llm' && config.mechanisms.enabled;
    const chain = (e: Episode<PolarizationRecord>) => Math.floor(e.index / config.epochs);
    const last = episodes[episodes.length - 1];
    const rows = epochRows(sweep && last ? episodes.filter((e) => chain(e) === chain(last)) : episodes);
    if (!rows.length) return null;
    return {
      title: sweep && last ? `P(t) and H(t): ${mechanismSlot(config, last.index).condition.label}` : 'Polarization P(t) and homophily H(t)',
      xLabel: 'epoch',
      yLabel: 'value',
      yDomain: [0, 2],
      series: [
        { name: 'P(t)', values: rows.map((r) => r.P) },
        { name: 'H(t)', values: rows.map((r) => r.H) },
      ],
    };
  },
  summarize(config, episodes) {
    if (config.agentKind === 'llm' && config.mechanisms.enabled) return [{ name: 'mechanisms', value: summarizeMechanisms(config, episodes) }];
    const rows = epochRows(episodes);
    const first = rows[0];
    const last = rows[rows.length - 1];
    if (!first || !last) return [];
    const base = { P0: first.P, PT: last.P, H0: first.H, HT: last.H, finalDistribution: last.distribution, epochs: rows.length - 1, series: rows };
    const decoding = config.agentKind === 'llm' ? { decoding: config.llm.decoding } : {};
    return [{ name: 'polarization', value: { ...base, ...llmSummary(episodes), ...decoding } }];
  },
};
