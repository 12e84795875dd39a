/**
 * Label probes (synchrony.md, "Emotion and action decoding"): a linear map from one layer's hidden state to a label
 * (an emotion or an action type that the partner wrote), scored by how well it predicts the label's distribution.
 *
 * The map is ridge regression on the one-hot label with an unpenalised intercept (X and Y centred on the training
 * means), fitted on a training split. Its predictions are made a distribution by clipping at 0, adding a floor to
 * every class and renormalising. A test sample's score is the KL divergence from its observed (one-hot) label to that
 * distribution, which is −log q(true class). The baseline predicts the training label frequencies, made a
 * distribution the same way: it is the ridge map's limit as α → ∞, so probe and baseline differ only by what the
 * states add. Lower is better; a probe that has learnt nothing scores about the baseline.
 *
 * Pure and float64; checked against numpy (test/fixtures/make_label_probe_fixture.py).
 */
import { gemmNT, spdSolve } from './linalg';

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
 * Fits the probe on the samples outside `testMask` (1 = test) and scores it on the others. `X` is n × H row-major,
 * `labels` holds class indices 0..K−1. Ridge in its dual form when there are fewer training samples than features
 * (the same map, computed through an nTr × nTr system instead of H × H).
 */
export function labelProbeScore(
  X: ArrayLike<number>,
  n: number,
  H: number,
  labels: ArrayLike<number>,
  K: number,
  testMask: ArrayLike<number>,
  alpha: number,
  floor = PROBE_FLOOR,
): ProbeScore {
  if (!(alpha > 0)) throw new Error(`label probe: α must be positive (got ${alpha})`);
  if (X.length !== n * H || labels.length !== n || testMask.length !== n) throw new Error('label probe: X, labels and mask sizes do not agree');
  const train: number[] = [];
  const test: number[] = [];
  for (let i = 0; i < n; i++) {
    const y = labels[i];
    if (!Number.isInteger(y) || y < 0 || y >= K) throw new Error(`label probe: label ${y} of sample ${i} is outside 0..${K - 1}`);
    (testMask[i] ? test : train).push(i);
  }
  const nTr = train.length;
  const nTe = test.length;
  if (nTr < 2 || nTe < 1) throw new Error(`label probe: needs 2 training samples and 1 test sample (got ${nTr} and ${nTe})`);

  const xMean = new Float64Array(H);
  const yMean = new Float64Array(K);
  for (const i of train) {
    for (let h = 0; h < H; h++) xMean[h] += X[i * H + h];
    yMean[labels[i]] += 1;
  }
  for (let h = 0; h < H; h++) xMean[h] /= nTr;
  for (let k = 0; k < K; k++) yMean[k] /= nTr;
  const centred = (rows: number[]) => {
    const out = new Float64Array(rows.length * H);
    rows.forEach((i, r) => {
      for (let h = 0; h < H; h++) out[r * H + h] = X[i * H + h] - xMean[h];
    });
    return out;
  };
  const Xtr = centred(train);
  const Xte = centred(test);
  // Yc transposed: K rows of nTr centred one-hot values (spdSolve takes right-hand sides as rows).
  const YcT = new Float64Array(K * nTr);
  train.forEach((i, r) => {
    for (let k = 0; k < K; k++) YcT[k * nTr + r] = (labels[i] === k ? 1 : 0) - yMean[k];
  });

  // pred(test) = ȳ + Xte · W, with W = (XtrᵀXtr + αI)⁻¹ Xtrᵀ Yc = Xtrᵀ (Xtr Xtrᵀ + αI)⁻¹ Yc.
  const deltas = new Float64Array(nTe * K);
  if (nTr < H) {
    const G = gemmNT(Xtr, Xtr, nTr, nTr, H, undefined, true);
    for (let r = 0; r < nTr; r++) G[r * nTr + r] += alpha;
    const AT = spdSolve(G, nTr, YcT, K); // K × nTr
    const cross = gemmNT(Xte, Xtr, nTe, nTr, H); // nTe × nTr
    const D = gemmNT(cross, AT, nTe, K, nTr);
    deltas.set(D);
  } else {
    const XtrT = new Float64Array(H * nTr);
    for (let r = 0; r < nTr; r++) for (let h = 0; h < H; h++) XtrT[h * nTr + r] = Xtr[r * H + h];
    const S = gemmNT(XtrT, XtrT, H, H, nTr, undefined, true);
    for (let h = 0; h < H; h++) S[h * H + h] += alpha;
    const XtY = gemmNT(YcT, XtrT, K, H, nTr); // K × H: (Xtrᵀ Yc)ᵀ
    const WT = spdSolve(S, H, XtY, K); // K × H
    deltas.set(gemmNT(Xte, WT, nTe, K, H));
  }

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
