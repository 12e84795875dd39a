/**
 * End-to-end recovery of the Opinions organism's planted law: the Opinions lab's community run (its own prompts,
 * runner and records) on a model, then the lab's own Glauber fit of the trajectories (the same code as
 * `npm run lab -- ising fit`). Used by the bench (bench/suites/organisms.ts) and the runtime test.
 */
import { validateConfig } from '../../src/core/config';
import { runHeadless } from '../../src/core/runs/headless';
import { computeApi } from '../../src/core/compute-api';
import type { StudyResult } from '../../src/core/ising/study';
import { opinionsLab } from '../../src/labs/opinions/config';
import { opinionsRunner } from '../../src/labs/opinions/runner';
import type { OpinionsConfig } from '../../src/labs/opinions/graph';
import { trajectoriesFromRun } from '../../src/labs/opinions/community-data';
import { studyItems } from '../../src/labs/opinions/fit-data';
import type { OpinionTrajectory } from '../../src/labs/opinions/trajectory';
import type { RunnerModels } from '../../src/core/runs/models';
import { OPINIONS_LAW } from './law';

export interface RecoverySetup {
  model: string;
  seed: number;
  agents: number;
  edgeBudget: number;
  rounds: number;
  questions: string[];
  graphs: number;
}

export interface RecoveryResult {
  setup: RecoverySetup;
  trajectories: number;
  transitions: number;
  planted: { friendly: number; unfriendly: number };
  /** Three-coupling fit on all trajectories. */
  recovered: { friendly: number; unfriendly: number };
  /** Standard error from the spread of the fits on `blocks` disjoint blocks of trajectories. */
  se: { friendly: number; unfriendly: number; blocks: number };
  /** One-step balanced accuracy (%), in-distribution split: the three-coupling model and every baseline. */
  balanced: Record<string, number>;
  seconds: number;
}

export function recoveryConfig(s: RecoverySetup): OpinionsConfig {
  const v = validateConfig(opinionsLab, {
    mode: 'community',
    seed: s.seed,
    graph: { generator: 'random', agents: s.agents, edgeBudget: s.edgeBudget },
    community: {
      model: s.model,
      rounds: s.rounds,
      votesPerRound: OPINIONS_LAW.votesPerRound,
      temperature: OPINIONS_LAW.temperature,
      questions: s.questions,
      graphs: s.graphs,
    },
  });
  if (!v.ok) throw new Error(`recovery config: ${JSON.stringify(v.errors)}`);
  return v.value as OpinionsConfig;
}

async function fit(trajectories: OpinionTrajectory[], seed: string): Promise<StudyResult> {
  return computeApi.fitStudy(studyItems(trajectories), { seed, testFraction: 0.25, rollouts: 2, models: ['one', 'three'] });
}

function threeEffective(r: StudyResult): { friendly: number; unfriendly: number } {
  const f = r.full.find((x) => x.kind === 'three');
  if (!f) throw new Error('no three-coupling fit');
  return { friendly: f.fit.effective.friendly, unfriendly: f.fit.effective.unfriendly };
}

export async function runRecovery(setup: RecoverySetup, models: RunnerModels, blocks = 4): Promise<RecoveryResult> {
  const t0 = performance.now();
  const config = recoveryConfig(setup);
  const bundle = await runHeadless(opinionsLab, opinionsRunner as never, config as never, { models });
  const trajectories = trajectoriesFromRun(config, bundle.episodes);
  const full = await fit(trajectories, `recovery-${setup.seed}`);
  const parts: { friendly: number; unfriendly: number }[] = [];
  for (let b = 0; b < blocks; b++) {
    const part = trajectories.filter((_, i) => i % blocks === b);
    if (part.length >= 2) parts.push(threeEffective(await fit(part, `recovery-${setup.seed}-b${b}`)));
  }
  const se = (xs: number[]) => {
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, xs.length - 1) / xs.length);
  };
  const split = full.splits.find((s) => s.name === 'in-distribution' && !s.skipped);
  const balanced: Record<string, number> = {};
  for (const s of split?.scores ?? []) if (!s.rawOnly) balanced[s.name] = Math.round(s.oneStep.balanced * 1000) / 10;
  return {
    setup,
    trajectories: trajectories.length,
    transitions: full.summary.transitions,
    planted: { ...OPINIONS_LAW.effective },
    recovered: threeEffective(full),
    se: { friendly: se(parts.map((p) => p.friendly)), unfriendly: se(parts.map((p) => p.unfriendly)), blocks: parts.length },
    balanced,
    seconds: (performance.now() - t0) / 1000,
  };
}
