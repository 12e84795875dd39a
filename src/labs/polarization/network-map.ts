/**
 * The method's last three metrics (polarization.md, "Metrics"), from a run's stored episodes: the opinion map over
 * the network layout, link-level homophily, and the distribution of opinions, at any epoch. Episode k holds the
 * opinions and the network after epoch k + 1 (tensors `opinions`, `outPtr`/`outIdx`); the starting state (epoch 0)
 * is not stored as tensors, only as the first row of the series.
 */
import type { DirectedGraph } from '../../core/graphs/directed';
import { homophily, linkHomophily, opinionDistribution } from '../../core/polarization/metrics';
import type { Episode } from '../../core/runs/types';
import { toCsv } from '../../core/csv';
import { forceLayout } from '../../core/graphs/force-layout';
import { networkFromTensors } from './network';

export interface EpochState {
  epoch: number;
  graph: DirectedGraph;
  opinions: number[];
}

/** The opinions and network after each stored epoch (episode k is epoch k + 1), in order. */
export function epochStates(episodes: readonly Episode[]): EpochState[] {
  return [...episodes]
    .sort((a, b) => a.index - b.index)
    .flatMap((e) => {
      const x = e.tensors.opinions?.data;
      if (!(x instanceof Float64Array) || !e.tensors.outPtr) return [];
      return [{ epoch: e.index + 1, graph: networkFromTensors(e.tensors), opinions: Array.from(x) }];
    });
}

/** Positions scaled into [0, 1]², keeping the aspect. */
function normalise(pos: [number, number][]): [number, number][] {
  const xs = pos.map((p) => p[0]);
  const ys = pos.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const span = Math.max(x1 - x0, y1 - y0) || 1;
  return pos.map(([x, y]) => [(x - x0) / span, (y - y0) / span]);
}

/** Ticks of the map's layout: d3's default cooling reaches its end in about 300; past this it stops anyway. */
export const MAP_LAYOUT_TICKS = 400;

/**
 * The opinion map's layout, laid out once from the first epoch's network with the seeded force layout, so that the
 * agents stay where they are while their links and opinions change from epoch to epoch. `step(ticks)` advances it by
 * a fixed number of ticks (a view runs a few per frame, so a large network never blocks the page), and the
 * positions, in [0, 1]², depend only on the network, the seed and the ticks run, never on the machine's speed.
 */
export function mapLayoutSteps(first: EpochState, seed: number | string): { step(ticks: number): boolean; positions(): [number, number][] } {
  const n = first.graph.n;
  const circle: [number, number][] = Array.from({ length: n }, (_, i) => [
    100 * Math.cos((2 * Math.PI * i) / Math.max(1, n)),
    100 * Math.sin((2 * Math.PI * i) / Math.max(1, n)),
  ]);
  const edges = first.graph.out.flatMap((row, i) => row.map((j) => [i, j] as [number, number]));
  const layout = forceLayout({ positions: circle, edges }, seed);
  let done = 0;
  return {
    step(ticks: number) {
      const k = Math.min(ticks, MAP_LAYOUT_TICKS - done);
      done += k;
      return layout.tick(k) && done < MAP_LAYOUT_TICKS;
    },
    positions: () => normalise(layout.positions()),
  };
}

/** The finished layout at once (the CSV export, tests): every tick, no frames. */
export function mapLayout(first: EpochState, seed: number | string): [number, number][] {
  const steps = mapLayoutSteps(first, seed);
  while (steps.step(MAP_LAYOUT_TICKS));
  return steps.positions();
}

export interface EpochReadout {
  epoch: number;
  agents: number;
  links: number;
  /** H: the share of links whose two ends have the same non-zero sign. */
  H: number;
  /** Agents at levels −2..+2. */
  distribution: number[];
  /** counts[a][b]: links from an agent at level a−2 to one at level b−2; sameSideShare[a]: of level a's out-links. */
  linkLevels: { counts: number[][]; sameSideShare: number[] };
}

export function readEpoch(s: EpochState): EpochReadout {
  return {
    epoch: s.epoch,
    agents: s.graph.n,
    links: s.graph.out.reduce((k, row) => k + row.length, 0),
    H: homophily(s.graph, s.opinions),
    distribution: opinionDistribution(s.opinions),
    linkLevels: linkHomophily(s.graph, s.opinions),
  };
}

export const LEVEL_LABELS = ['−2', '−1', '0', '+1', '+2'] as const;

/** The map's numbers: one row per agent (position, opinion, out-links) at one epoch. */
export function mapCsv(s: EpochState, positions: readonly [number, number][]): string {
  return toCsv(
    ['epoch', 'agent', 'x', 'y', 'opinion', 'links_to'],
    s.opinions.map((o, i) => [s.epoch, i + 1, positions[i]?.[0] ?? '', positions[i]?.[1] ?? '', o, s.graph.out[i].map((j) => j + 1).join(' ')]),
  );
}

/** Link-level homophily and the distribution at one epoch, as the tables show them. */
export function linkLevelsCsv(r: EpochReadout): string {
  return toCsv(
    ['epoch', 'from_level', ...LEVEL_LABELS.map((l) => `to_${l}`), 'same_side_share', 'agents_at_level'],
    r.linkLevels.counts.map((row, a) => [
      r.epoch,
      LEVEL_LABELS[a],
      ...row,
      Number.isFinite(r.linkLevels.sameSideShare[a]) ? r.linkLevels.sameSideShare[a] : '',
      r.distribution[a],
    ]),
  );
}
