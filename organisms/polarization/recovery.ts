/**
 * End to end on the Polarization organism: the Polarization lab's LLM agents (its own prompts, runner and records)
 * without an intervention and with each of the five, over several seeds; P(t) read from the lab's own series. Used
 * by the bench (bench/suites/organisms.ts) and the runtime test.
 */
import { validateConfig } from '../../src/core/config';
import { runHeadless } from '../../src/core/runs/headless';
import { polarizationLab } from '../../src/labs/polarization/config';
import { LAB_MODULE_BY_NAME } from '../../src/labs/registry';
import type { EpochRow } from '../../src/labs/polarization/llm-runner';
import type { RunnerModels } from '../../src/core/runs/models';
import { resultOf } from '../../src/core/runs/results';
import { polarizationResults } from '../../src/labs/polarization/results';

export const INTERVENTIONS = ['none', 'randomInteractions', 'moderateOpposing', 'noSelectiveExposure', 'noConfirmationBias', 'neutralElite'] as const;
export type Intervention = (typeof INTERVENTIONS)[number];

export interface PolarizationSetup {
  model: string;
  agents: number;
  epochs: number;
  fromEpoch: number;
  seeds: number[];
  topic: string;
  /** The last `window` epochs are averaged into one P per run. */
  window: number;
  /** The neutral-elite share (the lab's default, 5 %, is a single leader among 16 agents). */
  eliteShare?: number;
}

// Six seeds: with three, no intervention but one moved P by 2 SE. Elite share 0.2 (3 leaders of 16): the lab's default
// 5 % is a single neutral leader here, who sends with the neutral chance (0.25) and moved P by +0.04 ± 0.11.
/** The setup of the bench (bench/suites/organisms-polarization.ts) and of the law's simulation (simulate-law.ts). */
export const POLARIZATION_SETUP: PolarizationSetup = {
  model: 'organism-polarization',
  agents: 16,
  epochs: 10,
  fromEpoch: 3,
  seeds: [1, 2, 3, 4, 5, 6],
  topic: 'gunControl',
  window: 3,
  eliteShare: 0.2,
};

export interface ConditionSummary {
  intervention: Intervention;
  /** Mean over seeds of the run's final P (mean of its last `window` epochs), and its standard error over seeds. */
  P: number;
  se: number;
  H: number;
  /** Mean P(t) over seeds, per epoch. */
  series: number[];
  /** P − P(none) and its standard error (paired by seed). */
  delta: number | null;
  deltaSe: number | null;
  /**
   * H − H(none) and its standard error (paired by seed), H averaged over the same last epochs: the echo chamber.
   * The seed's random interactions moved H (0.48 → 0.28) and left P "barely moved" (the method note).
   */
  deltaH: number | null;
  deltaHSe: number | null;
  failures: number;
  calls: number;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const se = (xs: readonly number[]) => {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, xs.length - 1) / xs.length);
};

async function runOne(s: PolarizationSetup, kind: Intervention, seed: number, models: RunnerModels): Promise<EpochRow[]> {
  const v = validateConfig(polarizationLab, {
    seed,
    agents: s.agents,
    epochs: s.epochs,
    topic: s.topic,
    agentKind: 'llm',
    model: s.model,
    network: { generator: 'smallWorld', degree: 4 },
    intervention: { kind, fromEpoch: s.fromEpoch },
    ...(s.eliteShare !== undefined ? { llm: { eliteShare: s.eliteShare } } : {}),
  });
  if (!v.ok) throw new Error(`polarization setup: ${JSON.stringify(v.errors)}`);
  const bundle = await runHeadless(polarizationLab, LAB_MODULE_BY_NAME.polarization.runner, v.value, { models });
  const result = resultOf(polarizationResults, bundle.results, 'polarization');
  if (!result) throw new Error('the Polarization run has no summary');
  return result.series;
}

export async function runInterventions(s: PolarizationSetup, models: RunnerModels, only: readonly Intervention[] = INTERVENTIONS): Promise<ConditionSummary[]> {
  const finals = new Map<Intervention, number[]>();
  const finalsH = new Map<Intervention, number[]>();
  const out: ConditionSummary[] = [];
  for (const kind of only) {
    const runs: EpochRow[][] = [];
    for (const seed of s.seeds) runs.push(await runOne(s, kind, seed, models));
    const final = runs.map((series) => mean(series.slice(-s.window).map((r) => r.P)));
    const finalH = runs.map((series) => mean(series.slice(-s.window).map((r) => r.H)));
    finals.set(kind, final);
    finalsH.set(kind, finalH);
    const paired = (xs: number[], base: number[] | undefined) => (base && kind !== 'none' ? xs.map((x, i) => x - base[i]) : null);
    const diffs = paired(final, finals.get('none'));
    const diffsH = paired(finalH, finalsH.get('none'));
    out.push({
      intervention: kind,
      P: mean(final),
      se: se(final),
      H: mean(finalH),
      series: runs[0].map((_, e) => mean(runs.map((series) => series[e]?.P ?? NaN))),
      delta: diffs ? mean(diffs) : null,
      deltaSe: diffs ? se(diffs) : null,
      deltaH: diffsH ? mean(diffsH) : null,
      deltaHSe: diffsH ? se(diffsH) : null,
      failures: runs.flat().reduce((n, r) => n + (r.failures ?? 0), 0),
      calls: runs.flat().reduce((n, r) => n + (r.calls ?? 0), 0),
    });
  }
  return out;
}
