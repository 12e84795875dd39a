/**
 * One line of plain text under each figure, and its text alternative (the svg's aria-label): what a reader who
 * cannot see the drawing needs first. Pure, so that every summary is unit-tested without a page; the numbers
 * behind a figure stay one click away in its CSV.
 */
import { pearson } from '../core/stats';

const finite = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/** Three significant digits, without exponent noise for ordinary values. */
export function fmtValue(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e5 || a < 1e-3) return v.toExponential(2);
  return Number(v.toPrecision(3)).toString();
}

const withErr = (y: number, err: number | null | undefined) => (finite(err) ? `${fmtValue(y)} ± ${fmtValue(err)}` : fmtValue(y));

/** A value per category: the highest and the lowest, and how many categories have no value. */
export function errorBarSummary(points: readonly { label: string; y: number | null; err?: number | null }[]): string {
  const have = points.filter((p): p is { label: string; y: number; err?: number | null } => finite(p.y));
  if (!have.length) return 'No values yet.';
  const missing = points.length - have.length;
  const tail = missing ? ` ${missing} of ${points.length} without a value.` : '';
  if (have.length === 1) return `${have[0].label}: ${withErr(have[0].y, have[0].err)}.${tail}`;
  const hi = have.reduce((a, b) => (b.y > a.y ? b : a));
  const lo = have.reduce((a, b) => (b.y < a.y ? b : a));
  if (hi.y === lo.y) return `All ${have.length} equal: ${fmtValue(hi.y)}.${tail}`;
  return `Highest: ${hi.label}, ${withErr(hi.y, hi.err)}. Lowest: ${lo.label}, ${withErr(lo.y, lo.err)}.${tail}`;
}

/** A row-major grid: its range and where its largest value sits (positions counted from `offset`). */
export function heatmapSummary(values: ArrayLike<number>, rows: number, cols: number, labels: { row: string; col: string; value: string }, offset = 0): string {
  let best = -1;
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < rows * cols && i < values.length; i++) {
    const v = values[i];
    if (!finite(v)) continue;
    if (v > hi) {
      hi = v;
      best = i;
    }
    lo = Math.min(lo, v);
  }
  if (best < 0) return 'No values yet.';
  const r = Math.floor(best / cols) + offset;
  const c = (best % cols) + offset;
  return `${rows} × ${cols} grid of ${labels.value} from ${fmtValue(lo)} to ${fmtValue(hi)}; the highest at ${labels.row} ${r}, ${labels.col} ${c}.`;
}

/** Lines over x: each series from its first to its last value (the first four series, then a count). */
export function seriesSummary(series: readonly { name: string; x: ArrayLike<number>; y: ArrayLike<number> }[], xLabel: string): string {
  const parts: string[] = [];
  for (const s of series.slice(0, 4)) {
    const k = Array.from(s.y, (v, i) => (finite(v) && finite(s.x[i]) ? i : -1)).filter((i) => i >= 0);
    if (!k.length) continue;
    const a = k[0];
    const b = k[k.length - 1];
    parts.push(
      a === b
        ? `${s.name} ${fmtValue(s.y[a])} at ${xLabel} ${fmtValue(s.x[a])}`
        : `${s.name} goes from ${fmtValue(s.y[a])} to ${fmtValue(s.y[b])} as ${xLabel} goes from ${fmtValue(s.x[a])} to ${fmtValue(s.x[b])}`,
    );
  }
  if (!parts.length) return 'No values yet.';
  const more = series.length > 4 ? ` (and ${series.length - 4} more series)` : '';
  return `${parts.join('; ')}${more}.`;
}

/** Points in the plane: how many, and the Pearson correlation where it is defined. */
export function scatterSummary(points: readonly { x: number; y: number }[], xLabel: string, yLabel: string): string {
  const ok = points.filter((p) => finite(p.x) && finite(p.y));
  if (!ok.length) return 'No points yet.';
  const n = `${ok.length} point${ok.length === 1 ? '' : 's'}`;
  const varies = (v: number[]) => v.some((u) => u !== v[0]);
  const xs = ok.map((p) => p.x);
  const ys = ok.map((p) => p.y);
  if (ok.length < 3 || !varies(xs) || !varies(ys)) return `${n} of ${yLabel} against ${xLabel}.`;
  const { r } = pearson(xs, ys);
  return `${n} of ${yLabel} against ${xLabel}; Pearson r = ${r.toFixed(2)}.`;
}
