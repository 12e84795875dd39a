/**
 * Baselines of opinions.md: Persistence, Interaction-Free σ(g_i), Mean-Field σ(g_i + β s̄(t)) and Majority Class
 * (raw accuracy only). The fitted ones use the same field, objective and optimiser as the Glauber fits.
 */
import { buildDesign, type Episode, type FieldMode } from './design';
import { adamSteps, drain, restandardize, standardize, unstandardize, type AdamOptions } from './optimize';
import { pqColumns } from './fit';
import type { DynamicsModel } from './models';

function* fitColumns(episodes: readonly Episode[], kind: 'meanField' | null, field: FieldMode, o: AdamOptions): Generator<number, Float64Array> {
  const d = buildDesign(episodes, kind, field);
  if (d.cols === 0) return new Float64Array(0);
  const { Z, st } = standardize(d.X, d.rows, d.cols);
  const init = new Float64Array(d.cols);
  if (kind === 'meanField') init[0] = 0.1;
  const r = yield* adamSteps({ rows: d.rows, cols: d.cols, X: Z, y: d.y, link: 'logistic' }, restandardize(init, st), {
    ...o,
    l2: o.l2 ?? 1e-3,
    penalized: pqColumns(d.featureCols, d.couplingCols),
  });
  return unstandardize(r.theta, st);
}

export function fitInteractionFree(episodes: readonly Episode[], field: FieldMode = 'features', o: AdamOptions = {}): DynamicsModel {
  return drain(fitInteractionFreeSteps(episodes, field, o));
}

export function fitMeanField(episodes: readonly Episode[], field: FieldMode = 'features', o: AdamOptions = {}): DynamicsModel {
  return drain(fitMeanFieldSteps(episodes, field, o));
}

/** The same fits as generators that yield at Adam's plateau checks (see adamSteps). */
export function* fitInteractionFreeSteps(episodes: readonly Episode[], field: FieldMode = 'features', o: AdamOptions = {}): Generator<number, DynamicsModel> {
  return { type: 'interactionFree', field, fieldWeights: yield* fitColumns(episodes, null, field, o) };
}

export function* fitMeanFieldSteps(episodes: readonly Episode[], field: FieldMode = 'features', o: AdamOptions = {}): Generator<number, DynamicsModel> {
  const th = yield* fitColumns(episodes, 'meanField', field, o);
  return { type: 'meanField', beta: th[0], field, fieldWeights: th.slice(1) };
}

/** The more frequent next state in the training transitions (ties → +1). */
export function fitMajority(episodes: readonly Episode[]): DynamicsModel {
  let s = 0;
  for (const e of episodes) for (let k = e.graph.n; k < e.states.length; k++) s += e.states[k];
  return { type: 'majority', label: s >= 0 ? 1 : -1 };
}

export const PERSISTENCE: DynamicsModel = { type: 'persistence' };
