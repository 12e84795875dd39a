/**
 * The numbers behind each figure as CSV (its "CSV" button), written by the one CSV writer (src/core/csv.ts), which
 * quotes and neutralises formula-like text. Pure, so that the exports are unit-tested without a page.
 */
import { toCsv } from '../core/csv';

/** The numbers behind an XY plot, one column per series, aligned on x. */
export function seriesCsv(xName: string, series: readonly { name: string; x: number[]; y: number[] }[]): string {
  const xs = [...new Set(series.flatMap((s) => s.x))].sort((a, b) => a - b);
  const maps = series.map((s) => new Map(s.x.map((x, k) => [x, s.y[k]])));
  return toCsv(
    [xName, ...series.map((s) => s.name)],
    xs.map((x) => [x, ...maps.map((m) => m.get(x))]),
  );
}

/** An error-bar plot: one row per category with its value, its error (se) and its note. */
export function errorBarCsv(
  xLabel: string,
  yLabel: string,
  points: readonly { label: string; y: number | null; err?: number | null; note?: string }[],
): string {
  return toCsv(
    [xLabel, yLabel, 'se', 'note'],
    points.map((p) => [p.label, p.y, p.err, p.note ?? '']),
  );
}

/** A scatter plot: one row per labelled point. */
export function scatterCsv(xLabel: string, yLabel: string, points: readonly { label: string; x: number; y: number }[]): string {
  return toCsv(
    ['label', xLabel, yLabel],
    points.map((p) => [p.label, p.x, p.y]),
  );
}

/** A grouped bar chart: one row per category, one column per series (missing values empty). */
export function barChartCsv(categories: readonly string[], series: readonly { name: string; values: readonly (number | null)[] }[]): string {
  return toCsv(
    ['category', ...series.map((s) => s.name)],
    categories.map((c, k) => [c, ...series.map((s) => s.values[k])]),
  );
}
