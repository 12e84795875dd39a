import { describe, expect, it } from 'vitest';
import { epochStates, linkLevelsCsv, mapCsv, mapLayout, mapLayoutSteps, readEpoch } from '../../src/labs/polarization/network-map';
import { networkToTensors } from '../../src/labs/polarization/network';
import { ringLattice } from '../../src/core/graphs/directed';
import type { Episode } from '../../src/core/runs/types';

/** A stored epoch as the Polarization runner writes it: the opinions and the network after the epoch. */
function episode(index: number, opinions: number[], out: number[][]): Episode {
  return {
    index,
    records: [],
    tensors: { opinions: { dtype: 'F64', shape: [opinions.length], data: Float64Array.from(opinions) }, ...networkToTensors({ n: out.length, out }) },
  };
}

describe('the Polarization opinion map, link-level homophily and distribution', () => {
  const ring = ringLattice(6, 2).out;
  const eps = [
    episode(
      1,
      [2, 1, 0, -1, -2, 1],
      ring.map((r) => [...r]),
    ),
    episode(0, [1, 1, 0, -1, -1, 0], ring),
  ];

  it('reads each stored epoch in order, with its network and opinions', () => {
    const states = epochStates(eps);
    expect(states.map((s) => s.epoch)).toEqual([1, 2]); // episode k holds the state after epoch k + 1
    expect(states[1].opinions).toEqual([2, 1, 0, -1, -2, 1]);
    expect(states[0].graph.out).toEqual(ring);
    // an episode without the tensors (a damaged or foreign one) is skipped, not guessed
    expect(epochStates([{ index: 0, records: [], tensors: {} }])).toEqual([]);
  });

  it('counts links by the stances at both ends, and H as the share of same-side links', () => {
    const r = readEpoch(epochStates(eps)[1]);
    expect(r.agents).toBe(6);
    expect(r.links).toBe(12);
    expect(r.distribution).toEqual([1, 1, 1, 2, 1]);
    const total = r.linkLevels.counts.flat().reduce((a, b) => a + b, 0);
    expect(total).toBe(12);
    // by hand: the ring links i↔i±1; same non-zero sign at both ends: 0–1, 1–0, 3–4, 4–3, 5–0, 0–5 → 6 of 12
    expect(r.H).toBeCloseTo(6 / 12, 12);
  });

  it('lays agents out the same way for the same seed, inside the unit square', () => {
    const first = epochStates(eps)[0];
    const a = mapLayout(first, 'run-1');
    expect(mapLayout(first, 'run-1')).toEqual(a);
    expect(a.every(([x, y]) => x >= 0 && x <= 1 && y >= 0 && y <= 1)).toBe(true);
    expect(new Set(a.map((p) => p.join())).size).toBe(6);
    // Run a few ticks a frame, as the view does: the same end, whatever the slices (no dependence on timing).
    for (const slice of [1, 7, 20]) {
      const steps = mapLayoutSteps(first, 'run-1');
      while (steps.step(slice));
      expect(steps.positions()).toEqual(a);
    }
  });

  it('exports the map and the level tables as CSV', () => {
    const s = epochStates(eps)[1];
    const csv = mapCsv(s, mapLayout(s, 1));
    expect(csv.split('\n')[0]).toBe('epoch,agent,x,y,opinion,links_to');
    expect(csv.trim().split('\n')).toHaveLength(7);
    const levels = linkLevelsCsv(readEpoch(s)).trim().split('\n');
    expect(levels[0]).toBe('epoch,from_level,to_−2,to_−1,to_0,to_+1,to_+2,same_side_share,agents_at_level');
    expect(levels).toHaveLength(6);
  });
});
