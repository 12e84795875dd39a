import type { SimilarityAnalysis } from './analysis';

export interface PooledRow {
  a: string;
  b: string;
  La: number;
  Lb: number;
  global: number;
  maxAligned: number;
  early: number;
  mid: number;
  late: number;
  pGlobal?: number;
}

/** One row per compared pair: the pooled values of the chosen HSIC estimator. */
export function pooledRows(analysis: SimilarityAnalysis, kind: 'linear' | 'debiased'): PooledRow[] {
  return analysis.pairs.map((p) => {
    const g = p[kind];
    return { a: p.a, b: p.b, La: p.La, Lb: p.Lb, global: g.global, maxAligned: g.maxAligned, ...g.regions, ...(g.p ? { pGlobal: g.p.global } : {}) };
  });
}

const cell = (v: string | number | undefined) => (v === undefined ? '' : typeof v === 'number' ? String(v) : /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

export function pooledCsv(analysis: SimilarityAnalysis, kind: 'linear' | 'debiased'): string {
  const head = ['model_a', 'model_b', 'layers_a', 'layers_b', 'hsic', 'global', 'max_aligned', 'early', 'middle', 'late', 'p_global', 'probes', 'probe_set'];
  const lines = pooledRows(analysis, kind).map((r) =>
    [r.a, r.b, r.La, r.Lb, kind, r.global, r.maxAligned, r.early, r.mid, r.late, r.pGlobal, analysis.m, analysis.probeSet].map(cell).join(','),
  );
  return [head.join(','), ...lines].join('\n') + '\n';
}
