/**
 * Label probes (synchrony.md, "Emotion and action decoding"): a linear map from one layer's hidden state to a label
 * (an emotion or an action type that the partner wrote), scored by how well it predicts the label's distribution.
 *
 * The map is ridge regression on the one-hot label with an unpenalised intercept (X and Y centred on the training
 * means), fitted on a training split: the SyncR² grid's own ridge operator (ridge.ts), with its primal and dual forms
 * and its moment cache across splits. Its predictions are made a distribution by clipping at 0, adding a floor to
 * every class and renormalising. A test sample's score is the KL divergence from its observed (one-hot) label to that
 * distribution, which is −log q(true class). The baseline predicts the training label frequencies, made a
 * distribution the same way: it is the ridge map's limit as α → ∞, so probe and baseline differ only by what the
 * states add. Lower is better; a probe that has learnt nothing scores about the baseline.
 *
 * Pure and float64; checked against numpy (test/fixtures/make_label_probe_fixture.py).
 */
import { gemmNT } from './linalg';
import { maskToIndices, ridgeOperator, type LayerStack, type MomentCache } from './ridge';

/** Added to every class before renormalising, so that a wrong confident prediction costs about −log(floor), not ∞. */
export const PROBE_FLOOR = 0.01;

/** A prediction as a distribution: clipped at 0, every class raised by `floor`, renormalised. */
export function toDistribution(pred: ArrayLike<number>, floor = PROBE_FLOOR): Float64Array {
  const q = Float64Array.from(pred, (v) => Math.max(v, 0) + floor);
  const s = q.reduce((a, b) => a + b, 0);
  return q.map((v) => v / s);
}

export interface ProbeScore {
  /** Mean over test samples of −log q(true class) for the probe. */
  probe: number;
  /** The same for the training label frequencies. */
  baseline: number;
  nTrain: number;
  nTest: number;
}

/**
 * Fits the probe on layer `layer` of `states` for the samples outside `testMask` (1 = test) and scores it on the
 * others. `labels` holds class indices 0..K−1, one per sample. `cache` (one per stack) shares the full-sample moments
 * across the splits of one layer, as in the SyncR² grid.
 */
export function labelProbeScore(
  states: LayerStack,
  layer: number,
  labels: ArrayLike<number>,
  K: number,
  testMask: Uint8Array,
  alpha: number,
  opts: { floor?: number; cache?: MomentCache } = {},
): ProbeScore {
  const { n } = states;
  if (!(alpha > 0)) throw new Error(`label probe: α must be positive (got ${alpha})`);
  if (labels.length !== n || testMask.length !== n) throw new Error('label probe: states, labels and mask sizes do not agree');
  if (!(layer >= 0 && layer < states.L)) throw new Error(`label probe: layer ${layer} is outside 0..${states.L - 1}`);
  for (let i = 0; i < n; i++) {
    const y = labels[i];
    if (!Number.isInteger(y) || y < 0 || y >= K) throw new Error(`label probe: label ${y} of sample ${i} is outside 0..${K - 1}`);
  }
  const { train, test } = maskToIndices(testMask);
  const nTr = train.length;
  const nTe = test.length;
  if (nTr < 2 || nTe < 1) throw new Error(`label probe: needs 2 training samples and 1 test sample (got ${nTr} and ${nTe})`);

  const yMean = new Float64Array(K);
  for (const i of train) yMean[labels[i]] += 1;
  for (let k = 0; k < K; k++) yMean[k] /= nTr;
  // Yc transposed: K rows of nTr centred one-hot values.
  const YcT = new Float64Array(K * nTr);
  train.forEach((i, r) => {
    for (let k = 0; k < K; k++) YcT[k * nTr + r] = (labels[i] === k ? 1 : 0) - yMean[k];
  });
  // pred(test) = ȳ + A · Yc, with A the ridge map's test operator (n_te × n_tr).
  const A = ridgeOperator(states, layer, train, test, alpha, opts.cache);
  const deltas = gemmNT(A, YcT, nTe, K, nTr);

  const floor = opts.floor ?? PROBE_FLOOR;
  const base = toDistribution(yMean, floor);
  let probe = 0;
  let baseline = 0;
  const row = new Float64Array(K);
  test.forEach((i, r) => {
    for (let k = 0; k < K; k++) row[k] = yMean[k] + deltas[r * K + k];
    const q = toDistribution(row, floor);
    probe -= Math.log(q[labels[i]]);
    baseline -= Math.log(base[labels[i]]);
  });
  return { probe: probe / nTe, baseline: baseline / nTe, nTrain: nTr, nTest: nTe };
}
