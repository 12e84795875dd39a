import { describe, expect, it } from 'vitest';
import { polarizationLab } from '../../src/labs/polarization/config';
import { validateConfig } from '../../src/core/config/validate';
import { polarizationRunner } from '../../src/labs/polarization/runner';
import type { PolarizationConfig } from '../../src/labs/polarization/network';
import { episodeRng } from '../../src/core/runs/runner';
import type { Episode } from '../../src/core/runs/types';
import { fakePolarizationAgent } from '../helpers/fake-polarization-agent';
import { polarizationRecord, type PolarizationRecord } from '../../src/labs/polarization/records';
import { conditionConfig, mechanismConditions, summarizeMechanisms } from '../../src/labs/polarization/mechanisms';
import { expectRecordsFit } from '../helpers/records-fit';
import type { EpochRow } from '../../src/labs/polarization/llm-runner';

function config(over: Record<string, unknown> = {}): PolarizationConfig {
  const r = validateConfig(polarizationLab, {
    seed: 9,
    agents: 10,
    epochs: 3,
    agentKind: 'llm',
    model: 'fake-agent',
    network: { generator: 'ring', degree: 4 },
    llm: { initialPostShare: 0.5, eliteShare: 0.2 },
    mechanisms: { enabled: true, traits: ['confirmationBias'], traitShares: [0.5], eliteStances: ['neutral'], seeds: 2, readFrom: 2 },
    ...over,
  });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value as PolarizationConfig;
}

/** Runs every episode as a host does: each reads the one before it within its chain. */
async function runAll(c: PolarizationConfig): Promise<Episode<PolarizationRecord>[]> {
  const plan = polarizationRunner.plan(c);
  expect(plan.unavailable).toBeUndefined();
  const models = { get: () => fakePolarizationAgent() };
  const out: Episode<PolarizationRecord>[] = [];
  for (let index = 0; index < plan.episodes; index++) {
    const previous = plan.chainLength && index % plan.chainLength ? out[index - 1] : undefined;
    out.push(
      await polarizationRunner.runEpisode(c, {
        index,
        rng: episodeRng(c.seed, index),
        signal: new AbortController().signal,
        progress: () => {},
        previous,
        models,
      }),
    );
  }
  return out;
}

const rows = (eps: readonly Episode<PolarizationRecord>[]) => eps.flatMap((e) => e.records).filter((r): r is EpochRow => r.kind === undefined);

describe('Polarization mechanism experiments', () => {
  it('plans every condition × seed as a chain of epochs; classic agents are refused with a fix', () => {
    const c = config({ mechanisms: { enabled: true, seeds: 3 } });
    expect(mechanismConditions(c).map((x) => x.id)).toEqual([
      'confirmationBias@0',
      'confirmationBias@0.25',
      'confirmationBias@0.5',
      'confirmationBias@0.75',
      'selectiveExposure@0',
      'selectiveExposure@0.25',
      'selectiveExposure@0.5',
      'selectiveExposure@0.75',
      'elite:original',
      'elite:neutral',
      'elite:moderate',
      'elite:radical',
    ]);
    expect(polarizationRunner.plan(c)).toMatchObject({ episodes: 12 * 3 * 3, chainLength: 3 });
    const classic = polarizationRunner.plan({ ...c, agentKind: 'coevolvingVoter' });
    expect(classic.unavailable).toMatch(/LLM agents/);
    expect(classic.fix?.config.agentKind).toBe('llm');
  });

  it('runs each cell exactly as the plain run of its condition with seed + s, and reads P and H late, ± SE over seeds', async () => {
    const c = config();
    const sweep = await runAll(c);
    expect(sweep).toHaveLength(2 * 2 * 3);
    expectRecordsFit(polarizationRecord, sweep);
    const [trait, elite] = mechanismConditions(c);
    // Cell (elite, s = 1) is the last chain: the plain run of its config.
    const cell = conditionConfig(c, elite, 1);
    expect(cell).toMatchObject({ seed: 10, intervention: { kind: 'neutralElite', fromEpoch: 0 }, llm: { eliteStance: 'neutral', confirmationBiasShare: 0 } });
    expect(conditionConfig(c, trait, 0)).toMatchObject({ seed: 9, intervention: { kind: 'none' }, llm: { confirmationBiasShare: 0.5 } });
    const plain = await runAll(cell);
    const strip = (eps: Episode<PolarizationRecord>[]) => JSON.stringify(eps.map((e) => ({ records: e.records, tensors: e.tensors })));
    expect(strip(sweep.slice(9))).toBe(strip(plain));
    const summary = summarizeMechanisms(c, sweep);
    const late = (eps: Episode<PolarizationRecord>[], k: 'P' | 'H') => {
      const rs = rows(eps).filter((r) => r.epoch >= 2);
      return rs.reduce((a, r) => a + r[k], 0) / rs.length;
    };
    for (const [ci, cond] of summary.conditions.entries()) {
      const runs = [0, 1].map((s) => sweep.slice((ci * 2 + s) * 3, (ci * 2 + s + 1) * 3));
      const Ps = runs.map((r) => late(r, 'P'));
      const m = (Ps[0] + Ps[1]) / 2;
      expect(cond.runs).toBe(2);
      expect(cond.P).toBeCloseTo(m, 12);
      expect(cond.Pse).toBeCloseTo(Math.sqrt(((Ps[0] - m) ** 2 + (Ps[1] - m) ** 2) / 1 / 2), 12);
      expect(cond.H).toBeCloseTo((late(runs[0], 'H') + late(runs[1], 'H')) / 2, 12);
    }
    // A run cut before its last epoch does not count.
    expect(summarizeMechanisms(c, sweep.slice(0, 5)).conditions[0].runs).toBe(1);
  });
});
