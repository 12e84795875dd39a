/**
 * Linear mixed model with crossed random intercepts, fitted by REML:
 *     y = Xβ + Σ_f Z_f u_f + ε,   u_f ~ N(0, σ²γ_f I),   ε ~ N(0, σ² I).
 * It reproduces statsmodels' MixedLM with one all-ones group, re_formula="0" and one variance component per
 * crossed factor: the same REML criterion, the scale profiled out, and the standard errors from the inverse of the
 * observed Hessian of the REML log-likelihood in (β, γ), as statsmodels computes them.
 *
 * Why so cheap: with V = σ²P and P = I + Z D Zᵀ (D = diag γ per level), Woodbury gives every quadratic form through
 * the q×q matrix M = I + D^½ ZᵀZ D^½ (q = total number of levels), so one evaluation is O(n·p + q³).
 */
import { cholesky, cholSolveRows, spdInverse, spdLogDet, transpose } from './linalg';
import { normalQuantile, normalTwoSided } from './special';

export interface Formula {
  response: string;
  terms: string[];
  intercept: boolean;
}

/** "y ~ a + b", "y ~ 0 + a" or "y ~ a - 1": plain numeric columns only. */
export function parseFormula(f: string): Formula {
  const parts = f.split('~');
  if (parts.length !== 2) throw new Error(`formula "${f}" must look like "y ~ x1 + x2"`);
  const response = parts[0].trim();
  const ident = /^[A-Za-z_.][A-Za-z0-9_.]*$/;
  if (!ident.test(response)) throw new Error(`formula: response "${response}" is not a column name`);
  let intercept = true;
  const rhs = parts[1].replace(/-\s*1\b/g, () => {
    intercept = false;
    return '';
  });
  const terms: string[] = [];
  for (const raw of rhs.split('+')) {
    const t = raw.trim();
    if (t === '') continue;
    if (t === '0') intercept = false;
    else if (t === '1') intercept = true;
    else if (ident.test(t)) terms.push(t);
    else throw new Error(`formula: term "${t}" is not a plain column name`);
  }
  if (!terms.length && !intercept) throw new Error('formula: no fixed effects');
  return { response, terms, intercept };
}

export interface MixedLmInput {
  y: ArrayLike<number>;
  /** Fixed-effect predictors (without the intercept). */
  fixed: { name: string; values: ArrayLike<number> }[];
  intercept?: boolean;
  /** One random intercept per crossed factor. */
  factors: { name: string; labels: ArrayLike<string | number> }[];
  level?: number;
}

export interface MixedLmResult {
  names: string[];
  coef: number[];
  se: number[];
  z: number[];
  p: number[];
  ciLow: number[];
  ciHigh: number[];
  /** Variance of each random intercept (σ²γ_f), and the residual variance σ². */
  vcomp: { name: string; variance: number; levels: number }[];
  scale: number;
  /** REML log-likelihood, as statsmodels reports it. */
  llf: number;
  n: number;
  converged: boolean;
  /**
   * Random-intercept factors whose variance sits at ~0 (a singular fit, on the boundary). The standard errors of the
   * fixed effects then come from the GLS covariance σ²(XᵀP⁻¹X)⁻¹ at the fitted variances, which is what statsmodels'
   * inverse Hessian gives there too (within ~1e-3, the test's boundary case); absent for an interior optimum.
   */
  singular?: string[];
}

interface Moments {
  n: number;
  p: number;
  q: number;
  X: Float64Array; // n × p
  y: Float64Array;
  level: Int32Array[]; // per factor: level index per row, offset into q
  factorOf: Int32Array; // per level: its factor
  ZtZ: Float64Array; // q × q
  ZtX: Float64Array; // q × p
  XtX: Float64Array;
}

function moments(input: MixedLmInput): Moments {
  const y = Float64Array.from(input.y);
  const n = y.length;
  const intercept = input.intercept ?? true;
  const p = input.fixed.length + (intercept ? 1 : 0);
  const X = new Float64Array(n * p);
  for (let i = 0; i < n; i++) {
    let c = 0;
    if (intercept) X[i * p + c++] = 1;
    for (const f of input.fixed) X[i * p + c++] = f.values[i];
  }
  const level: Int32Array[] = [];
  const factorOf: number[] = [];
  let q = 0;
  input.factors.forEach((f, fi) => {
    const map = new Map<string, number>();
    const idx = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const key = String(f.labels[i]);
      let v = map.get(key);
      if (v === undefined) {
        v = q + map.size;
        map.set(key, v);
        factorOf.push(fi);
      }
      idx[i] = v;
    }
    q += map.size;
    level.push(idx);
  });
  const ZtZ = new Float64Array(q * q);
  const ZtX = new Float64Array(q * p);
  for (let i = 0; i < n; i++) {
    for (const a of level) {
      for (const b of level) ZtZ[a[i] * q + b[i]] += 1;
      for (let c = 0; c < p; c++) ZtX[a[i] * p + c] += X[i * p + c];
    }
  }
  const XtX = new Float64Array(p * p);
  for (let i = 0; i < n; i++) for (let a = 0; a < p; a++) for (let b = 0; b < p; b++) XtX[a * p + b] += X[i * p + a] * X[i * p + b];
  return { n, p, q, X, y, level, factorOf: Int32Array.from(factorOf), ZtZ, ZtX, XtX };
}

/** Everything that depends on γ only. */
interface GammaState {
  s: Float64Array; // √γ per level
  L: Float64Array; // Cholesky of M
  Lt: Float64Array;
  logdetP: number;
  XPX: Float64Array; // XᵀP⁻¹X
}

function gammaState(m: Moments, gamma: ArrayLike<number>): GammaState {
  const { q, p } = m;
  const s = new Float64Array(q);
  for (let j = 0; j < q; j++) s[j] = Math.sqrt(gamma[m.factorOf[j]]);
  const M = new Float64Array(q * q);
  for (let a = 0; a < q; a++) for (let b = 0; b < q; b++) M[a * q + b] = (a === b ? 1 : 0) + s[a] * m.ZtZ[a * q + b] * s[b];
  const L = cholesky(M, q);
  let logdetP = 0;
  for (let a = 0; a < q; a++) logdetP += 2 * Math.log(L[a * q + a]);
  const Lt = transpose(L, q, q);
  // U = D^½ ZᵀX (q × p); XᵀP⁻¹X = XᵀX − Uᵀ M⁻¹ U.
  const Ut = new Float64Array(p * q);
  for (let a = 0; a < q; a++) for (let c = 0; c < p; c++) Ut[c * q + a] = s[a] * m.ZtX[a * p + c];
  const MinvU = cholSolveRows(L, Lt, q, Float64Array.from(Ut), p);
  const XPX = Float64Array.from(m.XtX);
  for (let c = 0; c < p; c++)
    for (let d = 0; d < p; d++) {
      let t = 0;
      for (let a = 0; a < q; a++) t += Ut[c * q + a] * MinvU[d * q + a];
      XPX[c * p + d] -= t;
    }
  return { s, L, Lt, logdetP, XPX };
}

/** aᵀP⁻¹b for n-vectors given Zᵀa, Zᵀb (q-vectors) and aᵀb. */
function quad(g: GammaState, q: number, Zta: Float64Array, Ztb: Float64Array, ab: number): number {
  const u = new Float64Array(q);
  const v = new Float64Array(q);
  for (let j = 0; j < q; j++) {
    u[j] = g.s[j] * Zta[j];
    v[j] = g.s[j] * Ztb[j];
  }
  cholSolveRows(g.L, g.Lt, q, v, 1);
  let t = 0;
  for (let j = 0; j < q; j++) t += u[j] * v[j];
  return ab - t;
}

function Zt(m: Moments, r: Float64Array): Float64Array {
  const out = new Float64Array(m.q);
  for (const lv of m.level) for (let i = 0; i < m.n; i++) out[lv[i]] += r[i];
  return out;
}

function residual(m: Moments, beta: ArrayLike<number>): Float64Array {
  const { n, p, X, y } = m;
  const r = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let f = 0;
    for (let c = 0; c < p; c++) f += X[i * p + c] * beta[c];
    r[i] = y[i] - f;
  }
  return r;
}

function qfOf(m: Moments, g: GammaState, beta: ArrayLike<number>): number {
  const r = residual(m, beta);
  let rr = 0;
  for (let i = 0; i < m.n; i++) rr += r[i] * r[i];
  const zr = Zt(m, r);
  return quad(g, m.q, zr, zr, rr);
}

/** statsmodels' REML log-likelihood with the scale profiled out, at (β, γ). */
function reml(m: Moments, g: GammaState, beta: ArrayLike<number>): number {
  const dfr = m.n - m.p;
  const qf = qfOf(m, g, beta);
  return -0.5 * g.logdetP - (dfr / 2) * Math.log(qf) - 0.5 * spdLogDet(g.XPX, m.p) - (dfr / 2) * Math.log(2 * Math.PI) + (dfr / 2) * Math.log(dfr) - dfr / 2;
}

/** GLS β̂(γ) = (XᵀP⁻¹X)⁻¹ XᵀP⁻¹y. */
function betaHat(m: Moments, g: GammaState): Float64Array {
  const { n, p, q, X, y } = m;
  const zy = Zt(m, y);
  const rhs = new Float64Array(p);
  const col = new Float64Array(n);
  for (let c = 0; c < p; c++) {
    let xy = 0;
    for (let i = 0; i < n; i++) {
      col[i] = X[i * p + c];
      xy += col[i] * y[i];
    }
    rhs[c] = quad(g, q, Zt(m, col), zy, xy);
  }
  const L = cholesky(Float64Array.from(g.XPX), p);
  return cholSolveRows(L, transpose(L, p, p), p, rhs, 1);
}

function profiled(m: Moments, logGamma: number[]): number {
  const g = gammaState(m, logGamma.map(Math.exp));
  return reml(m, g, betaHat(m, g));
}

function nelderMead(f: (x: number[]) => number, x0: number[], step: number, iters: number): number[] {
  const k = x0.length;
  let pts = [x0, ...x0.map((_, i) => x0.map((v, j) => (i === j ? v + step : v)))];
  let vals = pts.map(f);
  for (let it = 0; it < iters; it++) {
    const order = vals.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
    pts = order.map(([, i]) => pts[i]);
    vals = order.map(([v]) => v);
    if (
      Math.abs(vals[k] - vals[0]) < 1e-14 * (1 + Math.abs(vals[0])) &&
      Math.max(...pts.map((pt) => Math.max(...pt.map((v, j) => Math.abs(v - pts[0][j]))))) < 1e-10
    )
      break;
    const c = new Array(k).fill(0);
    for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) c[j] += pts[i][j] / k;
    const at = (t: number) => c.map((v, j) => v + t * (pts[k][j] - v));
    const xr = at(-1);
    const fr = f(xr);
    if (fr < vals[0]) {
      const xe = at(-2);
      const fe = f(xe);
      [pts[k], vals[k]] = fe < fr ? [xe, fe] : [xr, fr];
    } else if (fr < vals[k - 1]) {
      [pts[k], vals[k]] = [xr, fr];
    } else {
      const xc = fr < vals[k] ? at(-0.5) : at(0.5);
      const fc = f(xc);
      if (fc < Math.min(fr, vals[k])) [pts[k], vals[k]] = [xc, fc];
      else {
        for (let i = 1; i <= k; i++) {
          pts[i] = pts[i].map((v, j) => pts[0][j] + 0.5 * (v - pts[0][j]));
          vals[i] = f(pts[i]);
        }
      }
    }
  }
  return pts[vals.indexOf(Math.min(...vals))];
}

/** Central-difference Hessian of f at x with per-coordinate steps h. */
function hessian(f: (x: number[]) => number, x: number[], h: number[]): number[][] {
  const k = x.length;
  const H = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  const f0 = f(x);
  const shifted = (d: Array<[number, number]>) => f(x.map((v, i) => v + d.reduce((s, [j, t]) => s + (j === i ? t : 0), 0)));
  for (let i = 0; i < k; i++) {
    H[i][i] = (shifted([[i, h[i]]]) - 2 * f0 + shifted([[i, -h[i]]])) / (h[i] * h[i]);
    for (let j = 0; j < i; j++) {
      const v =
        (shifted([
          [i, h[i]],
          [j, h[j]],
        ]) -
          shifted([
            [i, h[i]],
            [j, -h[j]],
          ]) -
          shifted([
            [i, -h[i]],
            [j, h[j]],
          ]) +
          shifted([
            [i, -h[i]],
            [j, -h[j]],
          ])) /
        (4 * h[i] * h[j]);
      H[i][j] = v;
      H[j][i] = v;
    }
  }
  return H;
}

export function mixedLM(input: MixedLmInput): MixedLmResult {
  const n = input.y.length;
  if (input.fixed.some((f) => f.values.length !== n) || input.factors.some((f) => f.labels.length !== n)) {
    throw new Error('mixedLM: every column needs one value per row');
  }
  if (!input.factors.length) throw new Error('mixedLM: at least one random-intercept factor is needed');
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(input.y[i]) || input.fixed.some((f) => !Number.isFinite(f.values[i])))
      throw new Error(`mixedLM: row ${i + 1} has a missing or non-numeric value`);
  }
  const m = moments(input);
  if (n <= m.p + 1) throw new Error(`mixedLM: ${n} rows are too few for ${m.p} fixed effects`);
  const k = input.factors.length;
  // Profiled REML over log γ: a coarse simplex search, then Newton steps polish the optimum.
  const negProf = (t: number[]) => {
    try {
      return -profiled(m, t);
    } catch {
      return Infinity;
    }
  };
  let t = nelderMead(negProf, new Array(k).fill(0), 1, 2000);
  t = t.map((v) => Math.max(v, -30));
  const gradient = (x: number[]) =>
    x.map((_, i) => (negProf(x.map((v, j) => (j === i ? v + 1e-4 : v))) - negProf(x.map((v, j) => (j === i ? v - 1e-4 : v)))) / 2e-4);
  for (let it = 0; it < 50; it++) {
    const grad = gradient(t);
    if (Math.max(...grad.map(Math.abs)) < 1e-9) break;
    const Hm = hessian(negProf, t, new Array(k).fill(1e-3));
    let step: number[];
    try {
      const inv = spdInverse(Hm.flat(), k);
      step = grad.map((_, i) => -grad.reduce((s, g, j) => s + inv[i * k + j] * g, 0));
    } catch {
      break; // not locally convex (a boundary optimum): keep the simplex result
    }
    let lam = 1;
    const f0 = negProf(t);
    while (lam > 1e-6 && !(negProf(t.map((v, i) => v + lam * step[i])) <= f0)) lam /= 2;
    if (lam <= 1e-6) break;
    t = t.map((v, i) => v + lam * step[i]);
  }
  // Converged: stationary in log γ, or a component pinned at ~0 (statsmodels would report a boundary fit too).
  const converged = gradient(t).every((gr, i) => Math.abs(gr) < 1e-5 || t[i] <= -25);
  const gamma = t.map(Math.exp);
  const g = gammaState(m, gamma);
  const beta = betaHat(m, g);
  const dfr = n - m.p;
  const scale = qfOf(m, g, beta) / dfr;
  const llf = reml(m, g, beta);
  // Observed Hessian of the REML log-likelihood in (β, γ); steps scaled to each parameter's rough size.
  const XPXinv = spdInverse(g.XPX, m.p);
  const hs = [...beta.map((_, c) => 1e-2 * Math.sqrt(scale * XPXinv[c * m.p + c])), ...gamma.map((v) => Math.min(1e-3 * Math.max(v, 1e-3), v / 2))];
  const full = (th: number[]) => {
    const gs = gammaState(m, th.slice(m.p));
    return reml(m, gs, th.slice(0, m.p));
  };
  const H = hessian(full, [...beta, ...gamma], hs);
  const P = m.p + k;
  const neg = H.flat().map((v) => -v);
  // A variance at ~0 (an outcome the fixed effects explain fully, say) puts the optimum on the boundary, where the
  // Hessian in γ need not be negative definite; the fixed effects' covariance is then the GLS one at the fitted γ.
  const singular = input.factors.filter((_, i) => gamma[i] < 1e-6).map((f) => f.name);
  let cov: Float64Array;
  let coefVar: (c: number) => number;
  try {
    cov = spdInverse(neg, P);
    coefVar = (c) => cov[c * P + c];
  } catch {
    if (!singular.length) throw new Error('mixedLM: the REML Hessian is not negative definite at an interior optimum (the fit is unstable)');
    coefVar = (c) => scale * XPXinv[c * m.p + c];
  }
  const q = normalQuantile(1 - (1 - (input.level ?? 0.95)) / 2);
  const names = [...((input.intercept ?? true) ? ['Intercept'] : []), ...input.fixed.map((f) => f.name)];
  const coef = Array.from(beta);
  const se = coef.map((_, c) => Math.sqrt(coefVar(c)));
  const z = coef.map((b, c) => b / se[c]);
  const levelsOf = (fi: number) => m.factorOf.reduce((s, f) => s + (f === fi ? 1 : 0), 0);
  return {
    names,
    coef,
    se,
    z,
    p: z.map(normalTwoSided),
    ciLow: coef.map((b, c) => b - q * se[c]),
    ciHigh: coef.map((b, c) => b + q * se[c]),
    vcomp: input.factors.map((f, fi) => ({ name: f.name, variance: gamma[fi] * scale, levels: levelsOf(fi) })),
    scale,
    llf,
    n,
    converged,
    ...(singular.length ? { singular } : {}),
  };
}
