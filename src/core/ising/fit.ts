/**
 * Glauber fits (opinions.md "Fitting"): minimise the Bernoulli NLL of one-step transitions with full-batch Adam on
 * standardised columns. Three and five couplings are fitted in two stages (β₀ from the unsigned model, then β⁺/β⁻
 * with β₀ fixed), because Σ|J|s = ΣJ⁺s − ΣJ⁻s makes the raw couplings jointly unidentifiable.
 */
import { buildDesign, selectColumns, type Design, type Episode, type FieldMode } from './design';
import { COUPLING_NAMES, couplingsFromVector, effectiveWeights, type CouplingKind, type Couplings } from './couplings';
import { adamSteps, drain, restandardize, standardize, unstandardize, type AdamOptions, type Link, type Problem } from './optimize';

export interface FitOptions extends AdamOptions {
  kind: CouplingKind;
  field?: FieldMode;
  /** 'logistic' = Glauber σ(h); 'eps' = continuous/asynchronous form with fitted ε. */
  link?: Link;
  /** Initial coupling value (original units). */
  init?: number;
}

export interface EffectiveWeights {
  /** β⁺ + β₀ (β for one coupling); for five couplings, the neighbour holding the correct answer. */
  friendly: number;
  /** β₀ − β⁻ (−β for one coupling). */
  unfriendly: number;
  /** Five couplings only: the neighbour holding the wrong answer. */
  friendlyWrong?: number;
  unfriendlyWrong?: number;
}

export interface GlauberFit {
  kind: CouplingKind;
  field: FieldMode;
  link: Link;
  /** Original (unstandardised) units. For the 'eps' link these multiply tanh's argument: σ(h) ⇔ tanh(h/2). */
  couplings: Couplings;
  fieldWeights: Float64Array;
  effective: EffectiveWeights;
  /** ε for the 'eps' link. */
  eps?: number;
  nll: number;
  objective: number;
  steps: number;
  converged: boolean;
  /**
   * Couplings whose covariate is identically zero in the data (e.g. β⁻ when no graph has an unfriendly edge):
   * they are reported as 0 and the effective weights that use them mean nothing.
   */
  unidentified: string[];
  /** Stage-one (unsigned) fit, for three and five couplings. */
  stage1?: { beta0: number; nll: number; steps: number };
}

/** Indices of the persona×question feature columns when the field has the 16 features of fieldFeatures. */
export function pqColumns(featureCols: number, offset: number): number[] {
  return featureCols === 16 ? Array.from({ length: 9 }, (_, k) => offset + 7 + k) : [];
}

interface StageResult {
  theta: Float64Array; // original units, cols (+ θ₀ for eps)
  nll: number;
  objective: number;
  steps: number;
  converged: boolean;
}

/** One Adam run on given columns with an optional fixed offset; handles standardisation both ways. */
function* runStage(
  X: Float64Array,
  cols: number,
  d: Design,
  link: Link,
  init: Float64Array,
  penalized: number[],
  offset: Float64Array | undefined,
  o: AdamOptions,
): Generator<number, StageResult> {
  const { Z, st } = standardize(X, d.rows, cols);
  const th0 = new Float64Array(cols + (link === 'eps' ? 1 : 0));
  th0.set(restandardize(init.subarray(0, cols), st));
  if (link === 'eps') th0[cols] = init[cols] ?? 0;
  const p: Problem = { rows: d.rows, cols, X: Z, y: d.y, prev: d.prev, offset, link };
  const r = yield* adamSteps(p, th0, { ...o, l2: o.l2 ?? 1e-3, penalized });
  const theta = new Float64Array(th0.length);
  theta.set(unstandardize(r.theta.subarray(0, cols), st));
  if (link === 'eps') theta[cols] = r.theta[cols];
  return { theta, nll: r.nll, objective: r.objective, steps: r.steps, converged: r.converged };
}

export function fitGlauber(episodes: readonly Episode[], opts: FitOptions): GlauberFit {
  return drain(fitGlauberSteps(episodes, opts));
}

/** fitGlauber as a generator that yields Adam's step count at each plateau check (see adamSteps). */
export function* fitGlauberSteps(episodes: readonly Episode[], opts: FitOptions): Generator<number, GlauberFit> {
  const field = opts.field ?? 'features';
  const link = opts.link ?? 'logistic';
  const init = opts.init ?? 0.1;
  const kind = opts.kind;
  const adamOpts: AdamOptions = { ...opts };
  if (kind === 'one') {
    const d = buildDesign(episodes, 'one', field);
    const th = new Float64Array(d.cols + 1);
    th[0] = init;
    const r = yield* runStage(d.X, d.cols, d, link, th, pqColumns(d.featureCols, 1), undefined, adamOpts);
    return finish(kind, field, link, r, d.featureCols, 1, zeroColumns(d));
  }
  // Stage 1: unsigned model h = β₀ Σ|J|s + g.
  const d = buildDesign(episodes, kind, field);
  const K = d.couplingCols;
  const F = d.featureCols;
  const absCol = K - 1;
  const featIdx = Array.from({ length: F }, (_, f) => K + f);
  const X1 = selectColumns(d, [absCol, ...featIdx]);
  const th1 = new Float64Array(1 + F + 1);
  th1[0] = init;
  const s1 = yield* runStage(X1, 1 + F, d, link, th1, pqColumns(F, 1), undefined, adamOpts);
  const beta0 = s1.theta[0];
  // Stage 2: β₀ fixed as an offset; fit the signed couplings and the field again.
  const offset = new Float64Array(d.rows);
  for (let r = 0; r < d.rows; r++) offset[r] = beta0 * d.X[r * d.cols + absCol];
  const signedIdx = Array.from({ length: K - 1 }, (_, k) => k);
  const X2 = selectColumns(d, [...signedIdx, ...featIdx]);
  const th2 = new Float64Array(K - 1 + F + 1);
  th2.fill(init, 0, K - 1);
  th2.set(s1.theta.subarray(1, 1 + F), K - 1);
  if (link === 'eps') th2[K - 1 + F] = s1.theta[1 + F];
  const s2 = yield* runStage(X2, K - 1 + F, d, link, th2, pqColumns(F, K - 1), offset, adamOpts);
  const full = new Float64Array(K + F + 1);
  full.set(s2.theta.subarray(0, K - 1), 0);
  full[absCol] = beta0;
  full.set(s2.theta.subarray(K - 1), K);
  const fit = finish(kind, field, link, { ...s2, theta: full }, F, K, zeroColumns(d));
  fit.stage1 = { beta0, nll: s1.nll, steps: s1.steps };
  return fit;
}

/** Coupling columns that are zero on every row carry no information; their θ would stay at its initial value. */
function zeroColumns(d: Design): number[] {
  const out: number[] = [];
  for (let k = 0; k < d.couplingCols; k++) {
    let any = false;
    for (let r = 0; r < d.rows && !any; r++) any = d.X[r * d.cols + k] !== 0;
    if (!any) out.push(k);
  }
  return out;
}

function finish(kind: CouplingKind, field: FieldMode, link: Link, r: StageResult, F: number, K: number, zero: number[]): GlauberFit {
  const theta = Float64Array.from(r.theta);
  for (const k of zero) theta[k] = 0;
  const couplings = couplingsFromVector(kind, theta.subarray(0, K));
  const [fT, fF, uT, uF] = effectiveWeights(couplings);
  const effective: EffectiveWeights = { friendly: fT, unfriendly: uT };
  if (kind === 'five') {
    effective.friendlyWrong = fF;
    effective.unfriendlyWrong = uF;
  }
  const out: GlauberFit = {
    kind,
    field,
    link,
    couplings,
    fieldWeights: Float64Array.from(r.theta.subarray(K, K + F)),
    effective,
    unidentified: zero.map((k) => COUPLING_NAMES[kind][k]),
    nll: r.nll,
    objective: r.objective,
    steps: r.steps,
    converged: r.converged,
  };
  if (link === 'eps') out.eps = 1 / (1 + Math.exp(-r.theta[K + F]));
  return out;
}

/** g_i = wᵀφ_i for one episode (bias-only: the single weight; none: 0). */
export function fieldsFor(e: Episode, field: FieldMode, w: ArrayLike<number>): Float64Array {
  const n = e.graph.n;
  const g = new Float64Array(n);
  if (field === 'none') return g;
  if (field === 'bias') return g.fill(w[0] ?? 0);
  const F = e.featureCount ?? 0;
  for (let i = 0; i < n; i++) {
    let a = 0;
    for (let f = 0; f < F; f++) a += w[f] * e.features![i * F + f];
    g[i] = a;
  }
  return g;
}
