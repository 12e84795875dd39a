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
  return evaluate(columnMajor(p), Float64Array.from(theta));
}

/** The problem with X stored column by column: long inner loops over rows are what V8 compiles best. */
interface ColumnProblem {
  rows: number;
  cols: number;
  Xt: Float64Array;
  y: Float64Array;
  prev: Float64Array | null;
  offset: Float64Array | null;
  link: Link;
  eta: Float64Array;
  dEta: Float64Array;
}

function columnMajor(p: Problem): ColumnProblem {
  const { rows, cols, X } = p;
  const Xt = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++) for (let k = 0; k < cols; k++) Xt[k * rows + r] = X[r * cols + k];
  return {
    rows,
    cols,
    Xt,
    y: Float64Array.from(p.y),
    prev: p.prev ? Float64Array.from(p.prev) : null,
    offset: p.offset ?? null,
    link: p.link,
    eta: new Float64Array(rows),
    dEta: new Float64Array(rows),
  };
}

/** The NLL costs a log per row, so Adam asks for it only at its plateau checks (wantNll = false gives NaN). */
function evaluate(p: ColumnProblem, theta: Float64Array, wantNll = true): { nll: number; grad: Float64Array } {
  const { rows, cols, Xt, y, eta, dEta } = p;
  if (p.offset) eta.set(p.offset);
  else eta.fill(0);
  for (let k = 0; k < cols; k++) {
    const th = theta[k];
    if (th === 0) continue;
    const o = k * rows;
    for (let r = 0; r < rows; r++) eta[r] += Xt[o + r] * th;
  }
  let nll = 0;
  const grad = new Float64Array(cols + (p.link === 'eps' ? 1 : 0));
  if (p.link === 'logistic') {
    for (let r = 0; r < rows; r++) {
      // z = −yη; one exp serves both log(1 + e^z) and σ(z); d/dη log(1 + e^{−yη}) = −y σ(−yη).
      const z = -y[r] * eta[r];
      const e = Math.exp(-Math.abs(z));
      if (wantNll) nll += (z > 0 ? z : 0) + Math.log1p(e);
      dEta[r] = (-y[r] * (z >= 0 ? 1 : e)) / (1 + e);
    }
  } else {
    const prev = p.prev!;
    const eps = 1 / (1 + Math.exp(-theta[cols]));
    let gEps = 0;
    for (let r = 0; r < rows; r++) {
      const th = Math.tanh(eta[r]);
      const s = prev[r];
      const q = Math.max(1 + y[r] * ((1 - eps) * s + eps * th), 1e-300);
      if (wantNll) nll += LOG2 - Math.log(q);
      const dM = -y[r] / q;
      dEta[r] = dM * eps * (1 - th * th);
      gEps += dM * (th - s);
    }
    grad[cols] = (gEps / rows) * eps * (1 - eps);
  }
  for (let k = 0; k < cols; k++) {
    const o = k * rows;
    let g = 0;
    for (let r = 0; r < rows; r++) g += dEta[r] * Xt[o + r];
    grad[k] = g / rows;
  }
  return { nll: wantNll ? nll / rows : NaN, grad };
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
  return drain(adamSteps(p, theta0, o));
}

/** Runs a stepped computation to its end (the synchronous form of a *Steps generator). */
export function drain<T>(g: Generator<unknown, T>): T {
  for (;;) {
    const r = g.next();
    if (r.done) return r.value;
  }
}

/**
 * Adam as a generator: it yields the step count after every step, so that a worker can report progress, answer its
 * heartbeat and honour a cancel in the middle of a long fit (a driver decides how often to actually give the event
 * loop a turn). `adam` drains it; the numbers are the same.
 */
export function* adamSteps(p: Problem, theta0: ArrayLike<number>, o: AdamOptions = {}): Generator<number, AdamResult> {
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
  const cp = columnMajor(p);
  for (step = 1; step <= maxSteps; step++) {
    const check = step % every === 1 || every === 1;
    const { nll, grad } = evaluate(cp, theta, check);
    for (const k of pen) grad[k] += 2 * l2 * theta[k];
    if (step > 1) yield step;
    if (check) {
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
  const { nll } = evaluate(cp, theta);
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
