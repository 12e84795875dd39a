/** Pearson and partial correlation, and OLS with classical standard errors (float64). */
import { cholesky, cholSolveRows, spdInverse, transpose } from './linalg';
import { tQuantile, tTwoSided } from './special';

export interface Correlation {
  r: number;
  /** Two-sided p-value from the t distribution with `df` degrees of freedom (scipy.stats.pearsonr's). */
  p: number;
  n: number;
  df: number;
}

function correlationP(r: number, df: number): number {
  if (!(df > 0)) return NaN;
  if (Math.abs(r) >= 1) return 0;
  return tTwoSided(r * Math.sqrt(df / (1 - r * r)), df);
}

export function pearson(x: ArrayLike<number>, y: ArrayLike<number>): Correlation {
  const n = x.length;
  if (y.length !== n) throw new Error(`pearson: x has ${n} values, y has ${y.length}`);
  if (n < 3) throw new Error(`pearson: need at least 3 pairs (got ${n})`);
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const a = x[i] - mx;
    const b = y[i] - my;
    sxy += a * b;
    sxx += a * a;
    syy += b * b;
  }
  const r = Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
  return { r, p: correlationP(r, n - 2), n, df: n - 2 };
}

/** Residuals of y after least squares on [1 | covariates]. */
function residualise(y: ArrayLike<number>, covariates: ArrayLike<number>[]): Float64Array {
  const fit = ols(y, covariates, { intercept: true });
  return fit.residuals;
}

/**
 * Partial correlation of x and y controlling for covariates: Pearson r of the residuals of both on [1 | Z];
 * p-value from t with n − 2 − k degrees of freedom.
 */
export function partialCorrelation(x: ArrayLike<number>, y: ArrayLike<number>, covariates: ArrayLike<number>[]): Correlation {
  const n = x.length;
  if (y.length !== n || covariates.some((c) => c.length !== n)) throw new Error('partial correlation: all variables need the same length');
  const k = covariates.length;
  if (n - 2 - k < 1) throw new Error(`partial correlation: need more than ${k + 2} observations (got ${n})`);
  const rx = residualise(x, covariates);
  const ry = residualise(y, covariates);
  const r = pearson(rx, ry).r;
  const df = n - 2 - k;
  return { r, p: correlationP(r, df), n, df };
}

export interface OlsResult {
  names: string[];
  coef: Float64Array;
  se: Float64Array;
  t: Float64Array;
  p: Float64Array;
  ciLow: Float64Array;
  ciHigh: Float64Array;
  residuals: Float64Array;
  sigma2: number;
  dfResid: number;
  r2: number;
  r2Adj: number;
  n: number;
}

/**
 * y = [1 |] X β + ε by least squares. `columns` are the predictors (each of length n). Normal equations with
 * Cholesky in float64, after centring the predictors so that the intercept does not inflate the condition number.
 */
export function ols(
  y: ArrayLike<number>,
  columns: ArrayLike<number>[],
  opts: { intercept?: boolean; /** Predictor names (without the intercept). */ names?: string[]; level?: number } = {},
): OlsResult {
  const n = y.length;
  const intercept = opts.intercept ?? true;
  const k = columns.length;
  const p = k + (intercept ? 1 : 0);
  if (columns.some((c) => c.length !== n)) throw new Error('ols: every predictor needs one value per observation');
  if (n <= p) throw new Error(`ols: need more observations (${n}) than coefficients (${p})`);
  const means = new Float64Array(k);
  if (intercept)
    for (let j = 0; j < k; j++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += columns[j][i];
      means[j] = s / n;
    }
  // Design matrix, row-major n × p, predictors centred when there is an intercept.
  const X = new Float64Array(n * p);
  for (let i = 0; i < n; i++) {
    let c = 0;
    if (intercept) X[i * p + c++] = 1;
    for (let j = 0; j < k; j++) X[i * p + c++] = columns[j][i] - means[j];
  }
  const Xt = transpose(X, n, p);
  const XtX = new Float64Array(p * p);
  const Xty = new Float64Array(p);
  for (let a = 0; a < p; a++) {
    for (let b = a; b < p; b++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += Xt[a * n + i] * Xt[b * n + i];
      XtX[a * p + b] = s;
      XtX[b * p + a] = s;
    }
    let s = 0;
    for (let i = 0; i < n; i++) s += Xt[a * n + i] * y[i];
    Xty[a] = s;
  }
  let L: Float64Array;
  try {
    L = cholesky(Float64Array.from(XtX), p);
  } catch {
    L = new Float64Array(p * p);
  }
  // A pivot that lost almost all of its column's norm means a (numerically) exact linear dependence.
  for (let a = 0; a < p; a++) {
    if (!(L[a * p + a] > 1e-7 * Math.sqrt(XtX[a * p + a]))) throw new Error('ols: predictors are collinear (XᵀX is singular)');
  }
  const beta = cholSolveRows(L, transpose(L, p, p), p, Float64Array.from(Xty), 1);
  const residuals = new Float64Array(n);
  let rss = 0;
  let ym = 0;
  for (let i = 0; i < n; i++) ym += y[i];
  ym /= n;
  let tss = 0;
  for (let i = 0; i < n; i++) {
    let f = 0;
    for (let a = 0; a < p; a++) f += X[i * p + a] * beta[a];
    residuals[i] = y[i] - f;
    rss += residuals[i] ** 2;
    tss += (intercept ? y[i] - ym : y[i]) ** 2;
  }
  const df = n - p;
  const sigma2 = rss / df;
  const inv = spdInverse(XtX, p);
  // Undo the centring: β0 = b0 − Σ b_j mean_j; its variance follows from the same linear map.
  const T = new Float64Array(p * p);
  for (let a = 0; a < p; a++) T[a * p + a] = 1;
  if (intercept) for (let j = 0; j < k; j++) T[j + 1] = -means[j];
  const coef = new Float64Array(p);
  for (let a = 0; a < p; a++) for (let b = 0; b < p; b++) coef[a] += T[a * p + b] * beta[b];
  const cov = new Float64Array(p * p);
  for (let a = 0; a < p; a++)
    for (let b = 0; b < p; b++) {
      let s = 0;
      for (let c = 0; c < p; c++) for (let d = 0; d < p; d++) s += T[a * p + c] * inv[c * p + d] * T[b * p + d];
      cov[a * p + b] = s * sigma2;
    }
  const q = tQuantile(1 - (1 - (opts.level ?? 0.95)) / 2, df);
  const se = new Float64Array(p);
  const t = new Float64Array(p);
  const pv = new Float64Array(p);
  const lo = new Float64Array(p);
  const hi = new Float64Array(p);
  for (let a = 0; a < p; a++) {
    se[a] = Math.sqrt(cov[a * p + a]);
    t[a] = coef[a] / se[a];
    pv[a] = tTwoSided(t[a], df);
    lo[a] = coef[a] - q * se[a];
    hi[a] = coef[a] + q * se[a];
  }
  const names = [...(intercept ? ['Intercept'] : []), ...(opts.names ?? columns.map((_, j) => `x${j + 1}`))];
  const r2 = 1 - rss / tss;
  const r2Adj = 1 - ((1 - r2) * (n - (intercept ? 1 : 0))) / df;
  return { names, coef, se, t, p: pv, ciLow: lo, ciHigh: hi, residuals, sigma2, dfResid: df, r2, r2Adj, n };
}
