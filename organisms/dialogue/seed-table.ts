/** The figures of seeds.ts's tables: which seeds, one run's row, and the summary over runs. */
import type { StudyResult } from './study';

/** "1-9" or "1,3,5": the run seeds. */
export function seedList(text: string): number[] {
  const range = /^(\d+)-(\d+)$/.exec(text);
  if (range) return Array.from({ length: Number(range[2]) - Number(range[1]) + 1 }, (_, i) => Number(range[1]) + i);
  return text.split(',').map(Number);
}

/** One run's figures, as the model card's tables give them (rates in %). */
export function runRow(r: StudyResult): Record<string, number> {
  const q = r.quality;
  const z = Object.fromEntries(r.contrasts.map((c) => [c.label, c.z]));
  return {
    'foreign names %': 100 * q.foreignNameRate,
    'template text %': 100 * q.templateRate,
    'repeated turns %': 100 * q.repeatRate,
    'content words %': 100 * q.contentWordRate,
    'deals %': 100 * q.dealRate,
    'judge SD': q.judge.sd,
    'judge r': q.judge.r,
    ...Object.fromEntries(Object.entries(z).map(([k, v]) => [`${k} (SE)`, v])),
  };
}

/** Mean ± SE over the runs, and the range, of each figure. */
export function summarise(rows: readonly Record<string, number>[]): string[] {
  return Object.keys(rows[0] ?? {}).map((k) => {
    const xs = rows.map((r) => r[k]);
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = xs.length > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1)) : 0;
    return `${k}: ${mean.toFixed(2)} ± ${(sd / Math.sqrt(xs.length)).toFixed(2)} (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
  });
}
