/**
 * Objectives and the full-batch Adam optimiser for the Glauber fits.
 * Objective = mean Bernoulli NLL over rows + l2 · Σ_{k ∈ penalized} θ_k², with θ in standardised units.
 * Two links: 'logistic' (P(y) = σ(y·η), Glauber) and 'eps' (P(+1) = (1 + m)/2, m = (1−ε)s + ε·tanh η, ε = σ(θ₀)).
 */
export type Link = 'logistic' | 'eps';

export interface Problem {
  rows: number;
  cols: number;
  X: Float64Array;
  y: Int8Array;
  /** s_i(t), needed by the 'eps' link. */
  prev?: Int8Array;
  /** Fixed additive term in η (a coupling fixed by an earlier stage). */
  offset?: Float64Array;
  link: Link;
}

const LOG2 = Math.LN2;

/**
 * NLL (mean) and its gradient at θ (length cols, plus one trailing θ₀ for 'eps'), in the units of X as given.
 * No penalty here; the optimiser adds it.
 */
export function nllAndGradient(p: Problem, theta: ArrayLike<number>): { nll: number; grad: Float64Array } {
  return p.link === 'logistic' ? logisticNll(p, Float64Array.from(theta)) : epsNll(p, Float64Array.from(theta));
}

function logisticNll(p: Problem, theta: Float64Array): { nll: number; grad: Float64Array } {
  const { rows, cols, X, y, offset } = p;
  const grad = new Float64Array(cols);
  let nll = 0;
  for (let r = 0, o = 0; r < rows; r++, o += cols) {
    let eta = offset ? offset[r] : 0;
    for (let k = 0; k < cols; k++) eta += X[o + k] * theta[k];
    // z = −yη; one exp serves both log(1 + e^z) and σ(z).
    const z = y[r] > 0 ? -eta : eta;
    const e = Math.exp(-Math.abs(z));
    nll += (z > 0 ? z : 0) + Math.log1p(e);
    const sg = z >= 0 ? 1 / (1 + e) : e / (1 + e);
    const dEta = y[r] > 0 ? -sg : sg; // d/dη log(1 + e^{−yη}) = −y σ(−yη)
    for (let k = 0; k < cols; k++) grad[k] += dEta * X[o + k];
  }
  for (let k = 0; k < cols; k++) grad[k] /= rows;
  return { nll: nll / rows, grad };
}

function epsNll(p: Problem, theta: Float64Array): { nll: number; grad: Float64Array } {
  const { rows, cols, X, y, offset } = p;
  const prev = p.prev!;
  const grad = new Float64Array(cols + 1);
  const eps = 1 / (1 + Math.exp(-theta[cols]));
  let nll = 0;
  let gEps = 0;
  for (let r = 0, o = 0; r < rows; r++, o += cols) {
    let eta = offset ? offset[r] : 0;
    for (let k = 0; k < cols; k++) eta += X[o + k] * theta[k];
    const yr = y[r];
    const th = Math.tanh(eta);
    const s = prev[r];
    const m = (1 - eps) * s + eps * th;
    const q = Math.max(1 + yr * m, 1e-300);
    nll += LOG2 - Math.log(q);
    const dM = -yr / q;
    const dEta = dM * eps * (1 - th * th);
    gEps += dM * (th - s);
    for (let k = 0; k < cols; k++) grad[k] += dEta * X[o + k];
  }
  for (let k = 0; k < cols; k++) grad[k] /= rows;
  grad[cols] = (gEps / rows) * eps * (1 - eps);
  return { nll: nll / rows, grad };
}

export interface AdamOptions {
  lr?: number;
  beta1?: number;
  beta2?: number;
  maxSteps?: number;
  /** Stop when the objective fell by less than tol·(1 + |f|) over the last plateauEvery steps. */
  plateauEvery?: number;
  tol?: number;
  l2?: number;
  /** Indices (into θ) that carry the ℓ2 penalty. */
  penalized?: readonly number[];
}

export interface AdamResult {
  theta: Float64Array;
  objective: number;
  nll: number;
  steps: number;
  converged: boolean;
}

export function adam(p: Problem, theta0: ArrayLike<number>, o: AdamOptions = {}): AdamResult {
  const lr = o.lr ?? 0.05;
  const b1 = o.beta1 ?? 0.9;
  const b2 = o.beta2 ?? 0.999;
  const maxSteps = o.maxSteps ?? 1500;
  const every = o.plateauEvery ?? 100;
  const tol = o.tol ?? 1e-7;
  const l2 = o.l2 ?? 0;
  const pen = o.penalized ?? [];
  const theta = Float64Array.from(theta0);
  const m = new Float64Array(theta.length);
  const v = new Float64Array(theta.length);
  const objective = (nll: number) => nll + l2 * pen.reduce((a, k) => a + theta[k] * theta[k], 0);
  let last = Infinity;
  let step = 0;
  let converged = false;
  for (step = 1; step <= maxSteps; step++) {
    const { nll, grad } = nllAndGradient(p, theta);
    for (const k of pen) grad[k] += 2 * l2 * theta[k];
    if (step % every === 1 || every === 1) {
      const f = objective(nll);
      if (last - f < tol * (1 + Math.abs(f)) && last !== Infinity) {
        converged = true;
        break;
      }
      last = f;
    }
    const c1 = 1 - Math.pow(b1, step);
    const c2 = 1 - Math.pow(b2, step);
    for (let k = 0; k < theta.length; k++) {
      m[k] = b1 * m[k] + (1 - b1) * grad[k];
      v[k] = b2 * v[k] + (1 - b2) * grad[k] * grad[k];
      theta[k] -= (lr * (m[k] / c1)) / (Math.sqrt(v[k] / c2) + 1e-8);
    }
  }
  const { nll } = nllAndGradient(p, theta);
  return { theta, objective: objective(nll), nll, steps: Math.min(step, maxSteps), converged };
}

export interface Standardizer {
  mean: Float64Array;
  sd: Float64Array;
  /** Index of a constant column that plays the intercept, or −1. */
  intercept: number;
}

/**
 * z = (x − μ)/sd per column. Constant columns are left alone; one constant column is taken as the intercept, and
 * only when it exists are the other columns centred (centring without an intercept would change the model).
 */
export function standardize(X: Float64Array, rows: number, cols: number): { Z: Float64Array; st: Standardizer } {
  const mean = new Float64Array(cols);
  const sd = new Float64Array(cols);
  for (let r = 0; r < rows; r++) for (let k = 0; k < cols; k++) mean[k] += X[r * cols + k];
  for (let k = 0; k < cols; k++) mean[k] /= Math.max(rows, 1);
  for (let r = 0; r < rows; r++)
    for (let k = 0; k < cols; k++) {
      const d = X[r * cols + k] - mean[k];
      sd[k] += d * d;
    }
  let intercept = -1;
  for (let k = 0; k < cols; k++) {
    sd[k] = Math.sqrt(sd[k] / Math.max(rows, 1));
    if (sd[k] < 1e-12 * (1 + Math.abs(mean[k]))) {
      if (intercept < 0 && mean[k] !== 0) intercept = k;
      sd[k] = 0;
    }
  }
  const Z = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++)
    for (let k = 0; k < cols; k++) {
      const x = X[r * cols + k];
      Z[r * cols + k] = sd[k] === 0 ? x : (x - (intercept >= 0 ? mean[k] : 0)) / sd[k];
    }
  return { Z, st: { mean, sd, intercept } };
}

/** θ in standardised units → θ in the units of X. */
export function unstandardize(theta: ArrayLike<number>, st: Standardizer): Float64Array {
  const cols = st.mean.length;
  const out = Float64Array.from(theta);
  let shift = 0;
  for (let k = 0; k < cols; k++) {
    if (st.sd[k] === 0) continue;
    out[k] = theta[k] / st.sd[k];
    if (st.intercept >= 0) shift += (theta[k] * st.mean[k]) / st.sd[k];
  }
  if (st.intercept >= 0) out[st.intercept] = theta[st.intercept] - shift / st.mean[st.intercept];
  return out;
}

/** θ in the units of X → standardised units (for initial values). */
export function restandardize(theta: ArrayLike<number>, st: Standardizer): Float64Array {
  const cols = st.mean.length;
  const out = Float64Array.from(theta);
  let shift = 0;
  for (let k = 0; k < cols; k++) {
    if (st.sd[k] === 0) continue;
    out[k] = theta[k] * st.sd[k];
    if (st.intercept >= 0) shift += theta[k] * st.mean[k];
  }
  if (st.intercept >= 0) out[st.intercept] = theta[st.intercept] + shift / st.mean[st.intercept];
  return out;
}
