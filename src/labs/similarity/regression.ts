import { mixedLM } from '../../core/mixedlm';
import { BINARY_COVARIATES, COVARIATES, type Covariate } from './covariates';
import type { OutcomeRow, SimilarityRegression } from './results';

/** One outcome row of the method's regression, and a regression: inferred from the result schemas (results.ts). */
export type { OutcomeRow, SimilarityRegression };

export { COVARIATES, type Covariate };

export interface ModelInfo {
  params: number | null;
  family: string | null;
  tokenizer?: string | null;
}

export interface RegressionOptions {
  covariates: readonly Covariate[];
  /** User-supplied ability scores (the paper: MMLU), by model id. */
  abilities: Readonly<Record<string, number>>;
  /** Parameter count and family of a model (the registry), and its tokenizer (the run's probe records), where known. */
  modelInfo: (id: string) => ModelInfo;
}

function zscore(xs: number[]): number[] {
  const m = xs.reduce((s, x) => s + x, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / Math.max(1, xs.length - 1));
  return xs.map((x) => (sd > 0 ? (x - m) / sd : 0));
}

function minMax(xs: number[]): number[] {
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  return xs.map((x) => (hi > lo ? (x - lo) / (hi - lo) : 0));
}

/** A covariate's value for a row, or null when it cannot be known (then the row leaves the fit). */
function covariate(c: Covariate, r: OutcomeRow, o: RegressionOptions): number | null {
  const a = o.modelInfo(r.focal);
  const b = o.modelInfo(r.partner);
  switch (c) {
    case 'identical':
      return r.focal === r.partner ? 1 : 0;
    case 'sameFamily':
      return a.family && b.family ? (a.family === b.family ? 1 : 0) : null;
    case 'sameTokenizer':
      return a.tokenizer && b.tokenizer ? (a.tokenizer === b.tokenizer ? 1 : 0) : null;
    case 'sizeDiff':
      return a.params && b.params ? Math.abs(Math.log10(a.params) - Math.log10(b.params)) : null;
    case 'abilityDiff': {
      const x = o.abilities[r.focal];
      const y = o.abilities[r.partner];
      return Number.isFinite(x) && Number.isFinite(y) ? Math.abs(x - y) : null;
    }
    case 'outputDiff':
      return r.partnerScore === null ? null : Math.abs(r.score - r.partnerScore);
  }
}

const NO_COVARIATES: RegressionOptions = { covariates: [], abilities: {}, modelInfo: () => ({ params: null, family: null }) };

/** The method's y ~ sim (+ covariates) with crossed random intercepts for the focal and partner models. */
export function similarityRegression(rows: readonly OutcomeRow[], game: string, options: RegressionOptions = NO_COVARIATES): SimilarityRegression {
  const notes: string[] = [];
  let usable = rows.filter((r) => r.sim !== null);
  const values = new Map<Covariate, (number | null)[]>();
  for (const c of options.covariates)
    values.set(
      c,
      usable.map((r) => covariate(c, r, options)),
    );
  const complete = usable.map((_, i) => [...values.values()].every((v) => v[i] !== null));
  const dropped = complete.filter((k) => !k).length;
  if (dropped) notes.push(`${dropped} rows left out for unknown covariates`);
  usable = usable.filter((_, i) => complete[i]);
  for (const [c, v] of values)
    values.set(
      c,
      v.filter((_, i) => complete[i]),
    );
  const kept = options.covariates.filter((c) => {
    const v = values.get(c)!;
    const varies = v.some((x) => x !== v[0]);
    if (!varies && v.length) notes.push(`${c} is the same in every row, so it is left out`);
    return varies;
  });
  const formula = `score_z ~ sim${kept.map((c) => ` + ${c}`).join('')} + (1 | focal) + (1 | partner)`;
  const models = new Set(usable.flatMap((r) => [r.focal, r.partner]));
  const base = { game, formula, rows: usable.length };
  const withNotes = (r: SimilarityRegression): SimilarityRegression => (notes.length ? { ...r, note: [r.note, ...notes].filter(Boolean).join('; ') } : r);
  if (models.size < 3) return { ...base, result: null, note: `needs at least 3 models with CKA (this run has ${models.size})` };
  const y: number[] = new Array(usable.length);
  for (const g of new Set(usable.map((r) => r.game))) {
    const idx = usable.map((r, i) => (r.game === g ? i : -1)).filter((i) => i >= 0);
    zscore(idx.map((i) => usable[i].score)).forEach((v, k) => (y[idx[k]] = v));
  }
  const sim = minMax(usable.map((r) => r.sim!));
  if (sim.every((s) => s === sim[0])) return withNotes({ ...base, result: null, note: 'the similarity does not vary across these rows' });
  try {
    const result = mixedLM({
      y,
      fixed: [
        { name: 'sim', values: sim },
        ...kept.map((c) => ({ name: c, values: BINARY_COVARIATES.has(c) ? (values.get(c) as number[]) : minMax(values.get(c) as number[]) })),
      ],
      factors: [
        { name: 'focal', labels: usable.map((r) => r.focal) },
        { name: 'partner', labels: usable.map((r) => r.partner) },
      ],
    });
    // A singular fit is a finding, not a failure: the models differ by no more than sim (and the covariates) explain.
    if (result.singular)
      notes.push(
        `the random-intercept variance of ${result.singular.join(' and ')} is 0 (a singular fit: no model stands out beyond what the fixed effects explain)`,
      );
    return withNotes({ ...base, result });
  } catch (e) {
    return withNotes({ ...base, result: null, note: `the fit failed: ${(e as Error).message}` });
  }
}
