/** The Polarization view's planted panel: keep shares by sides read from a run's agent logs. */
import { describe, expect, it } from 'vitest';
import { keepShares, linkSides } from '../../src/labs/polarization/planted';
import type { AgentLog } from '../../src/labs/polarization/llm-runner';

const log = (epoch: number, agent: number, before: number, after: number, kept: number[], dropped: number[]): AgentLog => ({
  kind: 'agent',
  epoch,
  agent,
  received: 0,
  before,
  after,
  reasons: '',
  kept,
  dropped,
  sentTo: [],
  failures: 0,
});

describe('polarization planted panel', () => {
  it('reads the sides as the planted law does', () => {
    expect(linkSides(2, 1)).toBe('same');
    expect(linkSides(-1, 2)).toBe('opposite');
    expect(linkSides(0, -2)).toBe('neutral');
    expect(linkSides(0, 0)).toBe('same');
  });

  it("counts kept links by the agent's new stance against the other's stance at the epoch's start", () => {
    const logs = [
      // epoch 1: agent 0 moved 1 → 2, kept 1 (at +1: same) and dropped 2 (at −2: opposite); agent 1, now at −1, dropped
      // 0 (at +1: opposite); agent 2 kept 0 (opposite)
      log(1, 0, 1, 2, [1], [2]),
      log(1, 1, 1, -1, [], [0]),
      log(1, 2, -2, -2, [0], []),
      // epoch 2 is under an intervention that rewires by itself: left out
      log(2, 0, 2, 2, [2], [1]),
      log(2, 1, -1, -1, [], []),
      log(2, 2, -2, -2, [], []),
    ];
    const shares = keepShares(logs, (e) => (e === 2 ? 'randomInteractions' : 'none'));
    expect(shares).toEqual([
      { sides: 'same', kept: 1, considered: 1 },
      { sides: 'opposite', kept: 1, considered: 3 },
    ]);
    const diverse = keepShares(logs.slice(0, 3), () => 'noSelectiveExposure');
    expect(diverse).toEqual([{ sides: 'diverse', kept: 2, considered: 4 }]);
  });
});
