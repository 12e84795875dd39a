import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/core/config';
import { polarizationLab } from '../../src/labs/polarization/config';
import { polarizationRunner } from '../../src/labs/polarization/runner';
import { networkFromTensors, networkToTensors } from '../../src/labs/polarization/network';
import { episodeRng } from '../../src/core/runs/runner';
import { ringLattice } from '../../src/core/graphs/directed';
import { polarization } from '../../src/core/polarization/metrics';
import type { Episode } from '../../src/core/runs/types';
import type { PolarizationRecord } from '../../src/labs/polarization/records';
import { polarizationRecord } from '../../src/labs/polarization/records';
import { expectRecordsFit } from '../helpers/records-fit';

/** A classic run's rows: its epoch rows only (they have no kind). */
const epochRows = (e: Episode<PolarizationRecord>) => e.records.filter((r) => r.kind === undefined);

const run = async (config: ReturnType<typeof defaultConfig<typeof polarizationLab>>, upTo: number, start: Episode<PolarizationRecord>[] = []) => {
  const eps = [...start];
  for (let i = eps.length; i < upTo; i++) {
    eps.push(
      await polarizationRunner.runEpisode(config, {
        index: i,
        rng: episodeRng(config.seed, i),
        signal: new AbortController().signal,
        progress: () => {},
        previous: eps[i - 1],
      }),
    );
  }
  return eps;
};

describe('polarization runner (classic models)', () => {
  it('network tensors round-trip', () => {
    const g = ringLattice(10, 4);
    expect(networkFromTensors(networkToTensors(g))).toEqual(g);
  });

  it('one episode per epoch; a resumed run continues exactly where it stopped', async () => {
    const config = { ...defaultConfig(polarizationLab), agents: 40, epochs: 6 };
    const straight = await run(config, 6);
    const firstHalf = await run(config, 3);
    const resumed = await run(config, 6, firstHalf);
    expect(resumed.map((e) => e.records)).toEqual(straight.map((e) => e.records));
    expect(epochRows(straight[0])[0].epoch).toBe(0);
    expect(epochRows(straight[5])[0].epoch).toBe(6);
    const last = straight[5].tensors.opinions.data as Float64Array;
    expect(epochRows(straight[5])[0].P).toBeCloseTo(polarization(last), 12);
  });

  it('writes records that fit the lab record schema (epoch rows), for both classic models', async () => {
    for (const agentKind of ['coevolvingVoter', 'boundedConfidence'] as const) {
      const eps = await run({ ...defaultConfig(polarizationLab), agents: 30, epochs: 3, agentKind }, 3);
      expect(expectRecordsFit(polarizationRecord, eps)).toEqual(['(no kind)']);
    }
  });

  it('the voter model with rewiring raises homophily on a ring', async () => {
    const config = { ...defaultConfig(polarizationLab), agents: 200, epochs: 20 };
    const eps = await run(config, 20);
    const rows = eps.flatMap(epochRows);
    expect(rows[rows.length - 1].H).toBeGreaterThan(rows[0].H);
  });

  it('refuses interventions on the classic models, with a reason (they act on LLM agents)', () => {
    expect(polarizationRunner.plan({ ...defaultConfig(polarizationLab), agentKind: 'llm' }).unavailable).toBeUndefined();
    const withIntervention = defaultConfig(polarizationLab);
    withIntervention.intervention.kind = 'neutralElite';
    expect(polarizationRunner.plan(withIntervention).unavailable).toMatch(/Interventions/);
  });
});
