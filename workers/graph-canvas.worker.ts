import * as Comlink from 'comlink';
import { drawGraph, type DrawState } from '../src/labs/opinions/editor/draw';
import { forceLayout } from '../src/core/graphs/force-layout';
import type { Transform } from '../src/labs/opinions/editor/viewport';

/**
 * Draws the graph editor (an OffscreenCanvas from the page) and runs its d3-force layout, so that zooming, panning
 * and laying out 1000 nodes never block the main thread. The page keeps the graph model and does the picking; it
 * sends what changed and gets positions back while a layout runs.
 */
let canvas: OffscreenCanvas | null = null;
let ctx: OffscreenCanvasRenderingContext2D | null = null;
const state: DrawState = {
  xy: new Float64Array(0),
  edges: new Int32Array(0),
  spins: null,
  selected: new Int32Array(0),
  view: { k: 1, x: 0, y: 0 },
  width: 1,
  height: 1,
  dpr: 1,
  overlay: null,
};
let pending = false;
let layoutRun = 0;

const raf: (cb: () => void) => void =
  typeof (self as { requestAnimationFrame?: unknown }).requestAnimationFrame === 'function'
    ? (cb) => (self as unknown as { requestAnimationFrame(cb: () => void): number }).requestAnimationFrame(cb)
    : (cb) => setTimeout(cb, 16);

function request() {
  if (pending) return;
  pending = true;
  raf(() => {
    pending = false;
    if (!canvas || !ctx) return;
    const w = Math.max(1, Math.round(state.width * state.dpr));
    const h = Math.max(1, Math.round(state.height * state.dpr));
    if (canvas.width !== w) canvas.width = w;
    if (canvas.height !== h) canvas.height = h;
    drawGraph(ctx, state);
  });
}

const api = {
  init(offscreen: OffscreenCanvas) {
    canvas = offscreen;
    ctx = offscreen.getContext('2d', { alpha: false }) as OffscreenCanvasRenderingContext2D;
    request();
  },
  setGraph(xy: Float64Array, edges: Int32Array) {
    layoutRun++;
    state.xy = xy;
    state.edges = edges;
    if (state.spins && state.spins.length !== xy.length / 2) state.spins = null;
    request();
  },
  setPositions(xy: Float64Array) {
    if (xy.length === state.xy.length) state.xy = xy;
    request();
  },
  setView(view: Transform, width: number, height: number, dpr: number) {
    Object.assign(state, { view, width, height, dpr });
    request();
  },
  setSpins(spins: Int8Array | null) {
    state.spins = spins;
    request();
  },
  setSelection(selected: Int32Array) {
    state.selected = selected;
    request();
  },
  setOverlay(overlay: DrawState['overlay']) {
    state.overlay = overlay;
    request();
  },
  /** Lays out the current graph, drawing every slice and reporting positions; a new graph or stop() ends it. */
  async layout(seed: string, onPositions: (xy: Float64Array, done: boolean) => void) {
    const run = ++layoutRun;
    const n = state.xy.length / 2;
    const positions: [number, number][] = Array.from({ length: n }, (_, i) => [state.xy[2 * i], state.xy[2 * i + 1]]);
    const edges: [number, number, 1 | -1][] = [];
    for (let e = 0; e < state.edges.length; e += 3) edges.push([state.edges[e], state.edges[e + 1], state.edges[e + 2] > 0 ? 1 : -1]);
    const layout = forceLayout({ positions, edges }, seed);
    let moving = true;
    while (moving) {
      moving = layout.advance(40);
      if (run !== layoutRun) return;
      const xy = new Float64Array(2 * n);
      layout.positions().forEach(([x, y], i) => {
        xy[2 * i] = x;
        xy[2 * i + 1] = y;
      });
      state.xy = xy;
      request();
      onPositions(xy.slice(), !moving);
      // Lets stop(), new graphs and view changes land between slices.
      await new Promise((r) => setTimeout(r, 0));
      if (run !== layoutRun) return;
    }
  },
  stopLayout() {
    layoutRun++;
  },
  ping() {
    return 'pong';
  },
};

export type GraphCanvasWorkerApi = typeof api;
Comlink.expose(api);
