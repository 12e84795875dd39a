/**
 * Paints the editor's graph on a 2D context (an OffscreenCanvas in a worker). Measured in headless Chromium with
 * software raster, 3000 edges at 1.6 px took ~300 ms and dashed ones ~500 ms, while 1 device-pixel lines (the
 * hairline path) took ~35 ms and squares drew ten times faster than circles: so big graphs get hairlines and
 * squares, and small ones get thicker lines, dashes for unfriendly edges, circles and labels.
 */
import type { Transform } from './viewport';

export interface DrawState {
  /** x0, y0, x1, y1, … */
  xy: Float64Array;
  /** i, j, sign triples. */
  edges: Int32Array;
  spins: Int8Array | null;
  /** Continuous opinions in [−1, 1] (the community view's ō_i); when given they colour the nodes instead of spins. */
  values?: Float32Array | null;
  selected: Int32Array;
  view: Transform;
  width: number;
  height: number;
  dpr: number;
  overlay: { line?: [number, number, number, number]; box?: [number, number, number, number] } | null;
}

export const EDGE_COLOURS = { friendly: '#15803d', unfriendly: '#c026d3' } as const;
export const NODE_COLOURS = { up: '#1d4ed8', down: '#ea580c', none: '#374151' } as const;
/** Diverging scale for ō from −1 (orange) through 0 (grey) to +1 (blue), in seven steps. */
export const VALUE_COLOURS = ['#c2410c', '#f97316', '#fdba74', '#d1d5db', '#93c5fd', '#3b82f6', '#1d4ed8'] as const;

export function valueColour(v: number): string {
  const k = Math.round(((Math.max(-1, Math.min(1, v)) + 1) / 2) * (VALUE_COLOURS.length - 1));
  return VALUE_COLOURS[k];
}
const float32 = new Float32Array(1);
const bits32 = new Int32Array(float32.buffer);
/**
 * The width, in world units, of a line one device pixel wide at scale `s` (devicePixelRatio · zoom). Skia draws a
 * stroke as a hairline (its fast path) only when width × scale ≤ 1 in float32, and the float32 of 1/s times that of
 * s rounds to just above 1 at about one zoom level in twenty: there the edges of a big graph went through the general
 * stroker instead (150 ms for each sign's path, 3 frames/s dragging a node in headless Chromium; see
 * bench/suites/editor-browser.ts) and looked unlike the hairlines of every other level. So the width steps down to
 * the widest float32 whose product stays ≤ 1: the same as 1/s where that already holds, a few ulps thinner where not.
 */
export function hairlineWidth(s: number): number {
  const scale = Math.fround(s);
  float32[0] = 1 / s;
  // Positive floats order as their bit patterns: one less is the next float32 down.
  while (float32[0] > 0 && (Math.fround(float32[0] * scale) > 1 || float32[0] * s > 1)) bits32[0]--;
  return float32[0];
}

/** Above these sizes the cheap drawing is used. */
const DETAIL = { edges: 600, nodes: 300, labels: 80 };
export const NODE_RADIUS = 7;

export function drawGraph(ctx: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D, s: DrawState) {
  const { xy, edges, view, dpr } = s;
  const n = xy.length / 2;
  const k = view.k;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, s.width * dpr, s.height * dpr);
  ctx.setTransform(dpr * k, 0, 0, dpr * k, dpr * view.x, dpr * view.y);
  const detailed = edges.length / 3 <= DETAIL.edges;
  const px = hairlineWidth(dpr * k);
  for (const sign of [1, -1]) {
    ctx.beginPath();
    for (let e = 0; e < edges.length; e += 3) {
      if (edges[e + 2] !== sign) continue;
      const i = edges[e];
      const j = edges[e + 1];
      ctx.moveTo(xy[2 * i], xy[2 * i + 1]);
      ctx.lineTo(xy[2 * j], xy[2 * j + 1]);
    }
    ctx.strokeStyle = sign > 0 ? EDGE_COLOURS.friendly : EDGE_COLOURS.unfriendly;
    ctx.lineWidth = detailed ? Math.max(1.6 / Math.max(k, 0.25), px) : px;
    ctx.setLineDash(detailed && sign < 0 ? [5 / k, 4 / k] : []);
    ctx.stroke();
  }
  ctx.setLineDash([]);
  const r = NODE_RADIUS / Math.max(k, 0.5);
  const round = n <= DETAIL.nodes;
  const values = s.values && s.values.length === n ? s.values : null;
  const colour = (i: number) =>
    values ? valueColour(values[i]) : s.spins && s.spins.length === n ? (s.spins[i] > 0 ? NODE_COLOURS.up : NODE_COLOURS.down) : NODE_COLOURS.none;
  for (const c of values ? VALUE_COLOURS : [NODE_COLOURS.up, NODE_COLOURS.down, NODE_COLOURS.none]) {
    ctx.fillStyle = c;
    if (round) ctx.beginPath();
    for (let i = 0; i < n; i++) {
      if (colour(i) !== c) continue;
      const x = xy[2 * i];
      const y = xy[2 * i + 1];
      if (round) {
        ctx.moveTo(x + r, y);
        ctx.arc(x, y, r, 0, 2 * Math.PI);
      } else ctx.fillRect(x - r * 0.85, y - r * 0.85, 1.7 * r, 1.7 * r);
    }
    if (round) ctx.fill();
  }
  if (s.selected.length) {
    ctx.beginPath();
    const rs = r + 3 / k;
    for (const i of s.selected) {
      if (i >= n) continue;
      ctx.moveTo(xy[2 * i] + rs, xy[2 * i + 1]);
      ctx.arc(xy[2 * i], xy[2 * i + 1], rs, 0, 2 * Math.PI);
    }
    ctx.strokeStyle = '#f59e0b';
    ctx.lineWidth = 2.5 / k;
    ctx.stroke();
  }
  if (n <= DETAIL.labels && k > 0.6) {
    ctx.fillStyle = values ? '#111827' : '#ffffff';
    ctx.font = `${9 / k}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (let i = 0; i < n; i++) ctx.fillText(String(i), xy[2 * i], xy[2 * i + 1]);
  }
  if (s.overlay?.line) {
    const [x0, y0, x1, y1] = s.overlay.line;
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.strokeStyle = '#6b7280';
    ctx.lineWidth = 1.5 / k;
    ctx.stroke();
  }
  if (s.overlay?.box) {
    const [x0, y0, x1, y1] = s.overlay.box;
    ctx.strokeStyle = '#f59e0b';
    ctx.lineWidth = 1 / k;
    ctx.strokeRect(x0, y0, x1 - x0, y1 - y0);
  }
}

/** Packs the index form into the typed arrays the worker draws from (cheap to clone across the boundary). */
export function packGraph(positions: readonly (readonly [number, number])[], edges: readonly (readonly [number, number, number])[]) {
  const xy = new Float64Array(2 * positions.length);
  positions.forEach(([x, y], i) => {
    xy[2 * i] = x;
    xy[2 * i + 1] = y;
  });
  const e = new Int32Array(3 * edges.length);
  edges.forEach(([i, j, s], k) => {
    e[3 * k] = i;
    e[3 * k + 1] = j;
    e[3 * k + 2] = s;
  });
  return { xy, edges: e };
}
