/**
 * PCA and the intrinsic-field features φ_i = [1 | p_i | q | p_i ⊗ q] (1 + 3 + 3 + 9 = 16).
 * PCA runs on whichever of the Gram (rows×rows) or covariance (cols×cols) matrix is smaller, with a cyclic
 * Jacobi eigensolver, so a few dozen personas with 1000-d embeddings cost a 32×32 problem.
 */
export interface PcaModel {
  k: number;
  cols: number;
  mean: Float64Array;
  /** k·cols, row-major; unit-norm principal axes. */
  components: Float64Array;
  /** rows·k scores of the fitted data. */
  scores: Float64Array;
  explainedVariance: Float64Array;
  explainedVarianceRatio: Float64Array;
}

/** Symmetric eigendecomposition (cyclic Jacobi). Returns eigenvalues descending and eigenvectors as columns of V. */
export function symmetricEigen(A: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(A);
  const V = new Float64Array(n * n);
  for (let i = 0; i < n; i++) V[i * n + i] = 1;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    let diag = 0;
    for (let i = 0; i < n; i++) {
      diag += a[i * n + i] * a[i * n + i];
      for (let j = i + 1; j < n; j++) off += a[i * n + j] * a[i * n + j];
    }
    if (off <= 1e-30 * Math.max(diag, 1e-300)) break;
    for (let p = 0; p < n; p++)
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q];
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p];
          const akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k];
          const aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = V[k * n + p];
          const vkq = V[k * n + q];
          V[k * n + p] = c * vkp - s * vkq;
          V[k * n + q] = s * vkp + c * vkq;
        }
      }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => a[y * n + y] - a[x * n + x]);
  const values = new Float64Array(n);
  const vectors = new Float64Array(n * n);
  order.forEach((src, dst) => {
    values[dst] = a[src * n + src];
    for (let k = 0; k < n; k++) vectors[k * n + dst] = V[k * n + src];
  });
  return { values, vectors };
}

/**
 * Top-k PCA of X (rows·cols). Signs follow scikit-learn's svd_flip (u-based): the largest-|·| score of each
 * component is positive, so fixtures from sklearn.decomposition.PCA match exactly.
 */
export function pca(X: ArrayLike<number>, rows: number, cols: number, k: number): PcaModel {
  const kk = Math.min(k, rows, cols);
  const mean = new Float64Array(cols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) mean[c] += X[r * cols + c] / rows;
  const Xc = new Float64Array(rows * cols);
  let total = 0;
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) {
      const v = X[r * cols + c] - mean[c];
      Xc[r * cols + c] = v;
      total += v * v;
    }
  const components = new Float64Array(kk * cols);
  const scores = new Float64Array(rows * kk);
  const ev = new Float64Array(kk);
  if (rows <= cols) {
    const G = new Float64Array(rows * rows);
    for (let i = 0; i < rows; i++)
      for (let j = i; j < rows; j++) {
        let s = 0;
        for (let c = 0; c < cols; c++) s += Xc[i * cols + c] * Xc[j * cols + c];
        G[i * rows + j] = s;
        G[j * rows + i] = s;
      }
    const { values, vectors } = symmetricEigen(G, rows);
    for (let q = 0; q < kk; q++) {
      const sv = Math.sqrt(Math.max(values[q], 0));
      ev[q] = Math.max(values[q], 0) / (rows - 1);
      for (let r = 0; r < rows; r++) scores[r * kk + q] = vectors[r * rows + q] * sv;
      for (let c = 0; c < cols; c++) {
        let s = 0;
        for (let r = 0; r < rows; r++) s += Xc[r * cols + c] * vectors[r * rows + q];
        components[q * cols + c] = sv > 0 ? s / sv : 0;
      }
    }
  } else {
    const C = new Float64Array(cols * cols);
    for (let i = 0; i < cols; i++)
      for (let j = i; j < cols; j++) {
        let s = 0;
        for (let r = 0; r < rows; r++) s += Xc[r * cols + i] * Xc[r * cols + j];
        C[i * cols + j] = s;
        C[j * cols + i] = s;
      }
    const { values, vectors } = symmetricEigen(C, cols);
    for (let q = 0; q < kk; q++) {
      ev[q] = Math.max(values[q], 0) / (rows - 1);
      for (let c = 0; c < cols; c++) components[q * cols + c] = vectors[c * cols + q];
      for (let r = 0; r < rows; r++) {
        let s = 0;
        for (let c = 0; c < cols; c++) s += Xc[r * cols + c] * components[q * cols + c];
        scores[r * kk + q] = s;
      }
    }
  }
  for (let q = 0; q < kk; q++) {
    let best = 0;
    for (let r = 0; r < rows; r++) if (Math.abs(scores[r * kk + q]) > Math.abs(best)) best = scores[r * kk + q];
    if (best < 0) {
      for (let r = 0; r < rows; r++) scores[r * kk + q] *= -1;
      for (let c = 0; c < cols; c++) components[q * cols + c] *= -1;
    }
  }
  const tv = total / (rows - 1);
  return {
    k: kk,
    cols,
    mean,
    components,
    scores,
    explainedVariance: ev,
    explainedVarianceRatio: ev.map((v) => (tv > 0 ? v / tv : 0)),
  };
}

/** Scores of new rows under a fitted PCA (e.g. a held-out question's embedding). */
export function pcaTransform(m: PcaModel, X: ArrayLike<number>, rows: number): Float64Array {
  const out = new Float64Array(rows * m.k);
  for (let r = 0; r < rows; r++)
    for (let q = 0; q < m.k; q++) {
      let s = 0;
      for (let c = 0; c < m.cols; c++) s += (X[r * m.cols + c] - m.mean[c]) * m.components[q * m.cols + c];
      out[r * m.k + q] = s;
    }
  return out;
}

/**
 * φ_i = [1 | p_i | q | p_i ⊗ q] for N personas with d-dim scores p (N·d) and one question's scores q (d).
 * With d = 3 this is the method's 16 features; ⊗ is row-major (p_a·q_b at 1 + 2d + a·d + b).
 */
export function fieldFeatures(p: ArrayLike<number>, n: number, q: ArrayLike<number>): { features: Float64Array; featureCount: number } {
  const d = q.length;
  if (p.length !== n * d) throw new Error(`fieldFeatures: p has ${p.length} values, expected ${n}×${d}`);
  const F = 1 + 2 * d + d * d;
  const out = new Float64Array(n * F);
  for (let i = 0; i < n; i++) {
    const o = i * F;
    out[o] = 1;
    for (let a = 0; a < d; a++) {
      out[o + 1 + a] = p[i * d + a];
      out[o + 1 + d + a] = q[a];
      for (let b = 0; b < d; b++) out[o + 1 + 2 * d + a * d + b] = p[i * d + a] * q[b];
    }
  }
  return { features: out, featureCount: F };
}

export const FIELD_FEATURE_NAMES = ['bias', 'p1', 'p2', 'p3', 'q1', 'q2', 'q3', 'p1q1', 'p1q2', 'p1q3', 'p2q1', 'p2q2', 'p2q3', 'p3q1', 'p3q2', 'p3q3'];

export interface EmbeddingFeatures {
  personaPca: PcaModel;
  questionPca: PcaModel;
  /** features[q] = φ for every persona on question q (nPersonas·F). */
  features: Float64Array[];
  featureCount: number;
}

/**
 * The method's field features from raw embeddings: PCA (top k) fitted over the personas and, separately, over the
 * questions; then φ_i = [1 | p_i | q | p_i ⊗ q] per question. Embeddings are row-major (count·dim).
 */
export function embeddingFieldFeatures(
  personas: ArrayLike<number>,
  nPersonas: number,
  questions: ArrayLike<number>,
  nQuestions: number,
  dim: number,
  k = 3,
): EmbeddingFeatures {
  const personaPca = pca(personas, nPersonas, dim, k);
  const questionPca = pca(questions, nQuestions, dim, k);
  // With fewer than k personas or questions PCA has fewer components; pad with zero scores so φ keeps its layout.
  const pad = (m: PcaModel, rows: number): Float64Array => {
    const out = new Float64Array(rows * k);
    for (let r = 0; r < rows; r++) for (let c = 0; c < m.k; c++) out[r * k + c] = m.scores[r * m.k + c];
    return out;
  };
  const p = pad(personaPca, nPersonas);
  const qs = pad(questionPca, nQuestions);
  const features: Float64Array[] = [];
  const featureCount = 1 + 2 * k + k * k;
  for (let q = 0; q < nQuestions; q++) features.push(fieldFeatures(p, nPersonas, qs.subarray(q * k, (q + 1) * k)).features);
  return { personaPca, questionPca, features, featureCount };
}
