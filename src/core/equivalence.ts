/**
 * Text equivalence by embeddings, for the Similarity lab's uniqueness count (the method used a paraphrase classifier):
 * the cosine of two texts' hidden states, a threshold calibrated on labelled pairs, and the method's greedy classes.
 */

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    ab += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
}

export interface Calibration {
  /** Two texts are equivalent when their cosine is at least this. */
  threshold: number;
  /** Mean of the true-positive and true-negative rates on the labelled pairs at that threshold. */
  balancedAccuracy: number;
  pairs: number;
}

/**
 * The threshold that best separates labelled pairs (same: true above it): every midpoint between consecutive distinct
 * scores is tried, and the one with the highest balanced accuracy wins (the lowest such threshold on ties).
 */
export function calibrateThreshold(scores: readonly number[], same: readonly boolean[]): Calibration {
  if (scores.length !== same.length || !scores.length) throw new Error('calibrateThreshold needs one label per score');
  const pos = same.filter(Boolean).length;
  const neg = same.length - pos;
  if (!pos || !neg) throw new Error('calibrateThreshold needs pairs of both kinds');
  const sorted = [...new Set(scores)].sort((a, b) => a - b);
  const candidates = [sorted[0] - 1, ...sorted.slice(1).map((s, i) => (sorted[i] + s) / 2), sorted[sorted.length - 1] + 1];
  let best: Calibration = { threshold: candidates[0], balancedAccuracy: -1, pairs: scores.length };
  for (const t of candidates) {
    let tp = 0;
    let tn = 0;
    scores.forEach((s, i) => {
      if (same[i] && s >= t) tp++;
      if (!same[i] && s < t) tn++;
    });
    const ba = (tp / pos + tn / neg) / 2;
    if (ba > best.balancedAccuracy) best = { threshold: t, balancedAccuracy: ba, pairs: scores.length };
  }
  return best;
}

/**
 * The method's greedy classes: each text joins the first class whose first text it is equivalent to, or opens a new
 * one. `score(i, j)` for i < j; the class count is the uniqueness.
 */
export function greedyClasses(n: number, equivalent: (rep: number, i: number) => boolean): { classes: number; classOf: number[] } {
  const reps: number[] = [];
  const classOf: number[] = [];
  for (let i = 0; i < n; i++) {
    const k = reps.findIndex((r) => equivalent(r, i));
    if (k >= 0) classOf.push(k);
    else {
      classOf.push(reps.length);
      reps.push(i);
    }
  }
  return { classes: reps.length, classOf };
}

/** Index of pair (i, j), i < j, in a row-major upper triangle of an n × n matrix (without the diagonal). */
export const upperIndex = (n: number, i: number, j: number): number => i * n - (i * (i + 1)) / 2 + (j - i - 1);

/** The upper triangle of the cosine matrix of `vectors` (pairs i < j, row-major). */
export function cosineTriangle(vectors: readonly ArrayLike<number>[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < vectors.length; i++) for (let j = i + 1; j < vectors.length; j++) out.push(cosine(vectors[i], vectors[j]));
  return out;
}
