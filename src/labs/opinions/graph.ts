import type { Rng } from '../../core/rng';
import { lowRank, randomSigned, squareLattice, triangularLattice } from '../../core/graphs/generators';
import type { SignedGraph } from '../../core/graphs/signed';
import type { ConfigOf } from '../../core/config/lab-definition';
import type { opinionsLab } from './config';

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
