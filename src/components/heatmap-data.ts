/**
 * Pure helpers behind Heatmap.svelte: the cells of a row-major grid (source layer = row), their colour class, and
 * the CSV of the cells. Kept apart from the component so that they are unit-tested and reusable (CKA grids too).
 */
import { toCsv } from '../core/csv';

export interface HeatCell {
  /** Index of the source layer (the row of the row-major grid; drawn on x). */
  source: number;
  /** Index of the target layer (drawn on y). */
  target: number;
  value: number;
  /** True for the boxed best target of this source. */
  best: boolean;
}

/** Cells of a rows × cols row-major grid; `best[source]` names the boxed target of each source, when given. */
export function heatCells(values: ArrayLike<number>, rows: number, cols: number, best?: ArrayLike<number> | null): HeatCell[] {
  if (!Number.isInteger(rows) || !Number.isInteger(cols) || rows < 0 || cols < 0) throw new Error(`heatmap: bad size ${rows}×${cols}`);
  if (values.length !== rows * cols) throw new Error(`heatmap: ${values.length} values for a ${rows}×${cols} grid`);
  const cells: HeatCell[] = [];
  for (let s = 0; s < rows; s++) {
    for (let t = 0; t < cols; t++) cells.push({ source: s, target: t, value: values[s * cols + t], best: !!best && best[s] === t });
  }
  return cells;
}

/** 'missing' (NaN / infinite), 'negative' (drawn grey) or 'scaled' (on the colour scale). */
export function cellKind(v: number): 'missing' | 'negative' | 'scaled' {
  if (!Number.isFinite(v)) return 'missing';
  return v < 0 ? 'negative' : 'scaled';
}

/** The colour domain: [0, the largest finite value], or [0, 1] when no value is positive, unless one is given. */
export function heatDomain(values: ArrayLike<number>, given?: [number, number]): [number, number] {
  if (given) return given;
  let hi = 0;
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i]) && values[i] > hi) hi = values[i];
  return [0, hi > 0 ? hi : 1];
}

/** Scales v into [0, 1] within the domain (clamped). */
export function unitOf(v: number, domain: [number, number]): number {
  const [lo, hi] = domain;
  if (!(hi > lo)) return 0;
  return Math.min(1, Math.max(0, (v - lo) / (hi - lo)));
}

/**
 * The cells as long-format CSV: one row per (source, target) with the value and whether it is the boxed best.
 * Layer numbers are shown with `offset` added (e.g. 1 when index 0 is decoder layer 1).
 */
export function gridCsv(
  values: ArrayLike<number>,
  rows: number,
  cols: number,
  opts: { sourceName?: string; targetName?: string; valueName?: string; best?: ArrayLike<number> | null; offset?: number } = {},
): string {
  const off = opts.offset ?? 0;
  const head = [opts.sourceName ?? 'source', opts.targetName ?? 'target', opts.valueName ?? 'value', 'best'];
  return toCsv(
    head,
    heatCells(values, rows, cols, opts.best).map((c) => [c.source + off, c.target + off, c.value, c.best ? 1 : 0]),
  );
}

/** Moves the active cell with the arrow keys (x = source, y = target, up = higher target), Home/End to the edges. */
export function moveCell(
  active: { source: number; target: number } | null,
  key: string,
  rows: number,
  cols: number,
): { source: number; target: number } | null {
  if (rows < 1 || cols < 1) return null;
  const cur = active ?? { source: 0, target: 0 };
  if (!active && ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(key)) return cur;
  const clamp = (v: number, n: number) => Math.max(0, Math.min(n - 1, v));
  switch (key) {
    case 'ArrowLeft':
      return { ...cur, source: clamp(cur.source - 1, rows) };
    case 'ArrowRight':
      return { ...cur, source: clamp(cur.source + 1, rows) };
    case 'ArrowUp':
      return { ...cur, target: clamp(cur.target + 1, cols) };
    case 'ArrowDown':
      return { ...cur, target: clamp(cur.target - 1, cols) };
    case 'Home':
      return { source: 0, target: 0 };
    case 'End':
      return { source: rows - 1, target: cols - 1 };
    default:
      return null;
  }
}
