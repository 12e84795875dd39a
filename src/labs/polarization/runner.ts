import { createRng, hashSeed } from '../../core/rng';
import type { LabRunner } from '../../core/runs/runner';
import { throwIfCancelled } from '../../core/runs/runner';
import { boundedConfidence, coevolvingVoter, initialOpinions } from '../../core/polarization/classic';
import { homophily, opinionDistribution, polarization } from '../../core/polarization/metrics';
import { buildNetwork, networkFromTensors, networkToTensors, type PolarizationConfig } from './network';

/**
 * Classic no-LLM models (coevolving voter, bounded confidence) on the lab's network. One episode is one epoch; the
 * opinions and the rewired network pass from each episode to the next, so a resumed run continues exactly.
 */
export const polarizationRunner: LabRunner<PolarizationConfig> = {
  lab: 'polarization',
  plan(config) {
    if (config.agentKind === 'llm') {
      return { episodes: 0, bytesPerEpisode: 0, models: [config.model], unavailable: 'LLM agents are not available in this build yet; choose the coevolving voter or bounded-confidence model.' };
    }
    if (config.intervention.kind !== 'none') {
      return { episodes: 0, bytesPerEpisode: 0, models: [], unavailable: 'Interventions act on LLM agents (their prompts and links); the classic models run without them. Set the intervention to "none".' };
    }
    return { episodes: config.epochs, bytesPerEpisode: 8 * config.agents + 4 * config.agents * (config.network.degree + 1) + 200, models: [] };
  },
  async runEpisode(config, ctx) {
    throwIfCancelled(ctx.cancel);
    let graph;
    let x: number[];
    const rows: Record<string, unknown>[] = [];
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
        : boundedConfidence(graph, x, { confidence: config.boundedConfidence.threshold, mu: config.boundedConfidence.convergence, rewire: 0, epochs: 1 }, ctx.rng);
    ctx.progress(1);
    rows.push({ epoch: ctx.index + 1, P: result.P[1], H: result.H[1], distribution: opinionDistribution(result.final), rewires: result.rewires });
    return {
      index: ctx.index,
      records: rows,
      tensors: { opinions: { dtype: 'F64', shape: [config.agents], data: Float64Array.from(result.final) }, ...networkToTensors(result.graph) },
    };
  },
  livePlot(_config, episodes) {
    const rows = episodes.flatMap((e) => e.records);
    if (!rows.length) return null;
    return {
      title: 'Polarization P(t) and homophily H(t)',
      xLabel: 'epoch',
      yLabel: 'value',
      yDomain: [0, 2],
      series: [
        { name: 'P(t)', values: rows.map((r) => Number(r.P)) },
        { name: 'H(t)', values: rows.map((r) => Number(r.H)) },
      ],
    };
  },
  summarize(_config, episodes) {
    const rows = episodes.flatMap((e) => e.records);
    const first = rows[0];
    const last = rows[rows.length - 1];
    if (!first || !last) return [];
    return [{ name: 'polarization', value: { P0: first.P, PT: last.P, H0: first.H, HT: last.H, finalDistribution: last.distribution, epochs: rows.length - 1 } }];
  },
};
