/**
 * Force layout with d3-force (the Opinions graph editor and community view, the Polarization opinion map), advanced
 * in small time-boxed slices so that 1000 nodes never block the page for more than a frame. Its random source is the
 * seeded RNG, so the same graph and seed lay out the same.
 */
import { forceCenter, forceLink, forceManyBody, forceSimulation, forceX, forceY, type Simulation, type SimulationNodeDatum } from 'd3-force';
import { createRng } from '../rng';

/** Nodes with starting positions, and links between them (by index; a sign or weight after them is ignored). */
export interface LayoutGraph {
  positions: [number, number][];
  edges: readonly (readonly [number, number, ...unknown[]])[];
}

interface LayoutNode extends SimulationNodeDatum {
  i: number;
}

export interface ForceLayout {
  /** Runs ticks for at most `budgetMs`; returns true while the layout still moves. */
  advance(budgetMs: number): boolean;
  /**
   * Runs at most `ticks` ticks; returns true while the layout still moves. Unlike `advance`, the result does not
   * depend on the machine's speed: the same graph and seed reach the same positions after the same ticks.
   */
  tick(ticks: number): boolean;
  positions(): [number, number][];
}

export function forceLayout(g: LayoutGraph, seed: number | string = 0): ForceLayout {
  const nodes: LayoutNode[] = g.positions.map(([x, y], i) => ({ i, x, y }));
  const links = g.edges.map(([source, target]) => ({ source, target }));
  const rng = createRng(seed);
  const sim: Simulation<LayoutNode, undefined> = forceSimulation(nodes)
    .randomSource(() => rng.next())
    .force('charge', forceManyBody<LayoutNode>().strength(-50).distanceMax(400))
    .force('link', forceLink<LayoutNode, { source: number; target: number }>(links).distance(36).strength(0.4))
    .force('center', forceCenter(0, 0))
    // A weak pull to the middle keeps isolated nodes from drifting off.
    .force('x', forceX<LayoutNode>(0).strength(0.03))
    .force('y', forceY<LayoutNode>(0).strength(0.03))
    .stop();
  return {
    advance(budgetMs: number) {
      const until = performance.now() + budgetMs;
      do {
        if (sim.alpha() < sim.alphaMin()) return false;
        sim.tick();
      } while (performance.now() < until);
      return sim.alpha() >= sim.alphaMin();
    },
    tick(ticks: number) {
      for (let k = 0; k < ticks; k++) {
        if (sim.alpha() < sim.alphaMin()) return false;
        sim.tick();
      }
      return sim.alpha() >= sim.alphaMin();
    },
    positions: () => nodes.map((n) => [n.x ?? 0, n.y ?? 0]),
  };
}
