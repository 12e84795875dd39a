/**
 * The temperature sweep of the live view, built on the core's `temperatureSweep`: it is called once per 𝒯 (a
 * one-point grid), so a worker can report progress and be stopped between temperatures, and then 𝒯_c is located
 * on the whole grid by the core's rule. Starts are ordered (all +1, all −1, in turn: a random start coarsens too
 * slowly below 𝒯_c for χ to mean anything) or seeded random; per-node fields enter as one feature column.
 * Each temperature is also labelled with the phase a short run from the first start reaches.
 */
import { createRng, hashSeed } from '../../core/rng';
import { logSpace, temperatureSweep } from '../../core/ising/sweep';
import type { Episode } from '../../core/ising/design';
import type { DynamicsModel } from '../../core/ising/models';
import { configGraph, type OpinionsConfig } from './graph';
import { liveParams } from './live-sim';
import { expectedConviction, locateTc, phaseLabel, type Phase } from './phase';
import { simulateGlauber, type GlauberParams } from '../../core/ising/simulate';

export interface SweepOutcome {
  temperatures: number[];
  chi: number[];
  tc: number;
  atEdge: boolean;
  peakIndex: number;
  /** The 𝒯 of the live settings, to mark on the plot. */
  current: number;
  /** Phase reached at each 𝒯 from the first start (the live view's thresholds), with its n and c. */
  phases: Phase[];
  finalN: number[];
  finalC: number[];
}

/** Steps of the extra run that labels each temperature's phase (it needs the final state, which χ does not keep). */
const PHASE_STEPS = 200;

export function sweepSetup(config: OpinionsConfig): { model: DynamicsModel; params: GlauberParams; starts: Episode[]; temperatures: Float64Array } {
  const graph = configGraph(config, createRng(hashSeed(`${config.seed}/graph`)));
  const p = liveParams(config, graph);
  const perNode = typeof p.fields !== 'number' && p.fields !== undefined;
  const model: DynamicsModel = {
    type: 'glauber',
    couplings: p.couplings,
    field: perNode ? 'features' : 'bias',
    fieldWeights: perNode ? [1] : [typeof p.fields === 'number' ? p.fields : 0],
  };
  const features = perNode ? Float64Array.from(p.fields as ArrayLike<number>) : undefined;
  const starts: Episode[] = Array.from({ length: config.sweep.starts }, (_, k) => {
    const rng = createRng(hashSeed(`${config.seed}/sweep-start/${k}`));
    const ordered = k % 2 === 0 ? 1 : -1;
    const states = Int8Array.from({ length: graph.n }, () => (config.sweep.start === 'ordered' ? ordered : rng.next() < config.dynamics.initialUp ? 1 : -1));
    return { graph, states, features, featureCount: features ? 1 : undefined };
  });
  return { model, params: p, starts, temperatures: logSpace(config.sweep.tMin, config.sweep.tMax, config.sweep.points) };
}

/** Runs the sweep, calling `progress(done, total)` after each temperature and yielding so a cancel can land. */
export async function runSweep(
  config: OpinionsConfig,
  progress: (done: number, total: number, chi: number[]) => void,
  pause: () => Promise<void>,
): Promise<SweepOutcome> {
  const { model, params, starts, temperatures } = sweepSetup(config);
  const s = config.sweep;
  const chi: number[] = [];
  const phases: Phase[] = [];
  const finalN: number[] = [];
  const finalC: number[] = [];
  const graph = starts[0].graph;
  const fields = params.fields ?? 0;
  const thresholds = { conviction: config.live.convictionThreshold, consensus: config.live.consensusThreshold };
  for (let k = 0; k < temperatures.length; k++) {
    const T = temperatures[k];
    const r = temperatureSweep(model, starts, { count: 1, tMin: T, tMax: T, steps: s.steps, burn: s.burn, seed: `${config.seed}/sweep/${k}` });
    chi.push(r.chi[0]);
    const probe = simulateGlauber(
      graph,
      { couplings: params.couplings, fields, temperature: T, mode: 'sync' },
      starts[0].states,
      Math.min(s.steps, PHASE_STEPS),
      createRng(`${config.seed}/sweep-phase/${k}`),
      { record: false },
    );
    const n = probe.net[probe.net.length - 1];
    const c = expectedConviction(graph, params.couplings, fields, probe.final, T);
    finalN.push(n);
    finalC.push(c);
    phases.push(phaseLabel(n, c, thresholds));
    progress(k + 1, temperatures.length, chi);
    await pause();
  }
  const located = locateTc(temperatures, chi);
  return { temperatures: Array.from(temperatures), chi, ...located, current: config.dynamics.temperature, phases, finalN, finalC };
}
