/** The planted truth of the Opinions organism as the views read it, and the no-fit calibration table. */
import { describe, expect, it } from 'vitest';
import { plantedCalibration, plantedOpinions, runCommunitySettings } from '../../src/labs/opinions/planted';
import type { AgentRow } from '../../src/labs/opinions/community-data';

function agent(over: Partial<AgentRow>): AgentRow {
  return {
    kind: 'agent',
    question: 's01',
    questionKind: 'subjective',
    graph: 0,
    graphId: 'g',
    trajectory: 0,
    t: 0,
    agent: 0,
    persona: 'p01',
    updated: true,
    votes: ['Agree'],
    rawVotes: ['Agree'],
    voteFailures: 0,
    obar: 1,
    spin: 1,
    message: null,
    messageStance: null,
    rawMessages: [],
    messageFailures: 0,
    friendlyFrom: [],
    unfriendlyFrom: [],
    escaped: 0,
    ...over,
  };
}

describe('planted truth of the Opinions organism', () => {
  it("is known for organism-opinions only, in the fit's names", () => {
    expect(plantedOpinions('organism-opinions')).toEqual({ model: 'organism-opinions', friendly: 1, unfriendly: -0.5, votesPerRound: 5, temperature: 0.7 });
    expect(plantedOpinions('tiny-social')).toBeNull();
    expect(plantedOpinions('HuggingFaceTB/SmolLM2-135M-Instruct')).toBeNull();
    expect(plantedOpinions(undefined)).toBeNull();
  });

  it("reads a stored run's community settings through the schema, and refuses a config that does not validate", () => {
    expect(runCommunitySettings({ mode: 'community', community: { model: 'tiny-social', votesPerRound: 3 } })?.votesPerRound).toBe(3);
    expect(runCommunitySettings({ community: { votesPerRound: 'five' } })).toBeNull();
    expect(runCommunitySettings(null)).toBeNull();
  });

  it('bins every agent-round at t ≥ 1 by the planted h of the messages it read (hand arithmetic)', () => {
    const p = plantedOpinions('organism-opinions')!;
    const key = { question: 's01', graph: 0, trajectory: 0 };
    // Round 0: agents 0, 1 at +1, agent 2 at −1.
    const r0 = { round: { ...key, t: 0 }, agents: [agent({ agent: 0, spin: 1 }), agent({ agent: 1, spin: 1 }), agent({ agent: 2, spin: -1 })] };
    // Round 1: agent 0 read friends 1 (+1) and rival 2 (−1): h = 1 + 0.5 = 1.5, ended at −1.
    // Agent 1 read friend 0 (+1) and friend 2 (−1): h = 0, ended at +1. Agent 2 read rival 0 (+1): h = −0.5, ended at −1.
    // Agent 3 sat out (async): not counted.
    const r1 = {
      round: { ...key, t: 1 },
      agents: [
        agent({ agent: 0, t: 1, spin: -1, friendlyFrom: [1], unfriendlyFrom: [2] }),
        agent({ agent: 1, t: 1, spin: 1, friendlyFrom: [0, 2] }),
        agent({ agent: 2, t: 1, spin: -1, unfriendlyFrom: [0] }),
        agent({ agent: 3, t: 1, spin: 1, updated: false, friendlyFrom: [0] }),
      ],
    };
    const bins = plantedCalibration(p, [r0, r1]);
    const byLabel = Object.fromEntries(bins.map((b) => [b.label, b]));
    expect(byLabel['0.25 … 1.75']).toMatchObject({ n: 1, observed: 0 });
    expect(byLabel['0.25 … 1.75'].planted).toBeCloseTo(1 / (1 + Math.exp(-1.5)), 12);
    expect(byLabel['−0.25 … 0.25']).toMatchObject({ n: 1, planted: 0.5, observed: 1 });
    expect(byLabel['−1.75 … −0.25']).toMatchObject({ n: 1, observed: 0 });
    expect(byLabel['−1.75 … −0.25'].planted).toBeCloseTo(1 / (1 + Math.exp(0.5)), 12);
    expect(bins.reduce((s, b) => s + b.n, 0)).toBe(3);
  });
});
