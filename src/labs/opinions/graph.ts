import { createRng, hashSeed, type Rng } from '../../core/rng';
import { lowRank, randomSigned, squareLattice, triangularLattice } from '../../core/graphs/generators';
import { fromEdges, type SignedGraph } from '../../core/graphs/signed';
import type { ConfigOf } from '../../core/config/lab-definition';
import type { opinionsLab } from './config';
import { decodeEdges } from './edge-code';

export type OpinionsConfig = ConfigOf<typeof opinionsLab>;

/** The signed graph a config describes; random generators draw from `rng`, so a seed fixes the graph. */
export function buildGraph(graph: OpinionsConfig['graph'], rng: Rng): SignedGraph {
  switch (graph.generator) {
    case 'square':
      return squareLattice(graph.side);
    case 'triangular':
      return triangularLattice(graph.side);
    case 'random':
      return randomSigned(graph.agents, { budget: graph.edgeBudget, positiveFraction: graph.friendlyShare }, rng);
    case 'lowRank':
      return lowRank(graph.agents, { rank: graph.rank, frustration: graph.frustration, budget: graph.edgeBudget || undefined }, rng);
  }
}

/** True when the config carries a graph drawn in the editor, which then replaces the generator. */
export function usesCustomGraph(config: Pick<OpinionsConfig, 'custom'>): boolean {
  return config.custom.nodes > 0;
}

/** The graph of a config: the custom one when present, else the generator's (seeded by `${seed}/graph`). */
export function configGraph(config: Pick<OpinionsConfig, 'custom' | 'graph'>, rng: Rng): SignedGraph {
  if (usesCustomGraph(config)) return fromEdges(config.custom.nodes, decodeEdges(config.custom.edges), 'custom');
  return buildGraph(config.graph, rng);
}

/** Node count without building the graph. */
export function configNodeCount(config: Pick<OpinionsConfig, 'custom' | 'graph'>): number {
  if (usesCustomGraph(config)) return config.custom.nodes;
  const g = config.graph;
  return g.generator === 'square' || g.generator === 'triangular' ? g.side ** 2 : g.agents;
}

/**
 * Fields g_i of a config: explicit per-node values when given (they must match N), else none/uniform/random.
 * Random fields are quenched disorder, drawn once from `${seed}/fields`, so every replica shares them.
 */
export function configFields(d: OpinionsConfig['dynamics'], n: number, rng: Rng): number | Float64Array {
  if (d.nodeFields.length) {
    if (d.nodeFields.length !== n) throw new Error(`Per-node fields hold ${d.nodeFields.length} values, but the graph has ${n} nodes.`);
    return Float64Array.from(d.nodeFields);
  }
  if (d.field === 'none') return 0;
  if (d.field === 'uniform') return d.fieldStrength;
  return Float64Array.from({ length: n }, () => d.fieldStrength * rng.normal());
}

/** Why a config cannot be simulated (e.g. per-node fields of the wrong length), or null. */
export function simulationProblem(config: OpinionsConfig): string | null {
  const n = configNodeCount(config);
  if (config.dynamics.nodeFields.length && config.dynamics.nodeFields.length !== n)
    return `Per-node fields hold ${config.dynamics.nodeFields.length} values, but the graph has ${n} nodes.`;
  return null;
}

/**
 * What a pure-simulation run simulates: the graph (seeded by `${seed}/graph`), the quenched fields (by
 * `${seed}/fields`) and the Glauber parameters. The runner and the fit's replay of a stored run both use this, so a
 * replay draws exactly what the run drew.
 */
export function simulationSetup(config: OpinionsConfig) {
  const graph = configGraph(config, createRng(hashSeed(`${config.seed}/graph`)));
  const d = config.dynamics;
  const fields = configFields(d, graph.n, createRng(hashSeed(`${config.seed}/fields`)));
  const params = {
    couplings: { kind: 'three' as const, betaPlus: d.betaFriendly, betaMinus: d.betaUnfriendly, beta0: d.betaUnsigned },
    fields,
    temperature: d.temperature,
    mode: d.update,
    eps: d.epsilon,
  };
  return { graph, params };
}
