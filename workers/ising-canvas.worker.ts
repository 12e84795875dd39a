import * as Comlink from 'comlink';
import { LiveSimulation, gridSide, paintSpins } from '../src/labs/opinions/live-sim';
import type { OpinionsConfig } from '../src/labs/opinions/graph';

/**
 * Owns the live simulation and the canvas it draws on (an OffscreenCanvas transferred from the page), so neither
 * the dynamics nor the drawing of a 316×316 field ever runs on the main thread. The page gets small batches of
 * readouts a few times a second through `onStats`.
 */
export interface LiveStats {
  t: number;
  /** n(t) of every step since the previous batch, starting at step `t0`. */
  t0: number;
  net: number[];
  sample: { t: number; n: number; c: number };
  playing: boolean;
  framesPerSecond: number;
  updatesPerSecond: number;
  n: number;
  /** The spins themselves, for graphs small enough to colour in the editor (≤ 1000 nodes). */
  spins?: Int8Array;
  /** Bumps when the simulation was rebuilt (new graph, seed or start), so the page clears its plots. */
  epoch: number;
}

const STATS_EVERY_MS = 100;
const SMALL_GRAPH = 1000;

let canvas: OffscreenCanvas | null = null;
let ctx: OffscreenCanvasRenderingContext2D | null = null;
let image: ImageData | null = null;
let sim: LiveSimulation | null = null;
let graphKey = '';
let epoch = 0;
let playing = false;
let onStats: ((s: LiveStats) => void) | null = null;
let sentUpTo = 0;
let lastStats = 0;
let meter = { since: 0, frames: 0, updates: 0, fps: 0, ups: 0 };

const raf: (cb: () => void) => void =
  typeof (self as { requestAnimationFrame?: unknown }).requestAnimationFrame === 'function'
    ? (cb) => (self as unknown as { requestAnimationFrame(cb: () => void): number }).requestAnimationFrame(cb)
    : (cb) => setTimeout(cb, 16);

function keyOf(c: OpinionsConfig): string {
  return JSON.stringify([c.seed, c.custom.nodes > 0 ? null : c.graph, c.custom, c.dynamics.initialUp]);
}

function draw() {
  if (!sim || !canvas || !ctx) return;
  const side = gridSide(sim.graph.n, sim.graph.side);
  if (!image || image.width !== side) {
    canvas.width = side;
    canvas.height = side;
    image = new ImageData(side, side);
  }
  paintSpins(sim.spins, side, image.data);
  ctx.putImageData(image, 0, 0);
}

function flush(force = false) {
  if (!sim || !onStats) return;
  const now = performance.now();
  if (!force && now - lastStats < STATS_EVERY_MS) return;
  lastStats = now;
  const sample = sim.sample();
  // The last n(t) held is that of step sim.t, which fixes the step of every earlier one even after trimming.
  const t0 = sim.t - (sim.net.length - 1 - sentUpTo);
  onStats({
    t: sim.t,
    t0,
    net: sim.net.slice(sentUpTo),
    sample,
    playing,
    framesPerSecond: meter.fps,
    updatesPerSecond: meter.ups,
    n: sim.graph.n,
    spins: sim.graph.n <= SMALL_GRAPH ? sim.spins.slice() : undefined,
    epoch,
  });
  // The full n(t) history lives on the page; the worker keeps only the last value (for the next batch's origin).
  sim.net.splice(0, sim.net.length - 1);
  sim.samples.splice(0);
  sentUpTo = 1;
}

function measure(updates: number) {
  const now = performance.now();
  meter.frames++;
  meter.updates += updates;
  if (now - meter.since >= 1000) {
    meter.fps = (meter.frames * 1000) / (now - meter.since);
    meter.ups = (meter.updates * 1000) / (now - meter.since);
    meter = { since: now, frames: 0, updates: 0, fps: meter.fps, ups: meter.ups };
  }
}

function tick() {
  if (!playing || !sim) return;
  const before = sim.updates;
  sim.frame();
  measure(sim.updates - before);
  draw();
  flush();
  raf(tick);
}

function rebuild(config: OpinionsConfig) {
  sim = new LiveSimulation(config);
  graphKey = keyOf(config);
  epoch++;
  sentUpTo = 0;
  draw();
  flush(true);
}

const api = {
  init(offscreen: OffscreenCanvas, config: OpinionsConfig, stats: (s: LiveStats) => void) {
    canvas = offscreen;
    ctx = offscreen.getContext('2d', { alpha: false }) as OffscreenCanvasRenderingContext2D;
    onStats = stats;
    rebuild(config);
  },
  /** New settings: a new graph, seed or start rebuilds; couplings, fields, 𝒯 and the update rule retune in place. */
  configure(config: OpinionsConfig) {
    if (!sim || keyOf(config) !== graphKey) rebuild(config);
    else {
      sim.retune(config);
      flush(true);
    }
  },
  play() {
    if (playing) return;
    playing = true;
    meter = { since: performance.now(), frames: 0, updates: 0, fps: 0, ups: 0 };
    raf(tick);
  },
  pause() {
    playing = false;
    meter.fps = 0;
    meter.ups = 0;
    flush(true);
  },
  step() {
    if (!sim) return;
    playing = false;
    sim.frame();
    draw();
    flush(true);
  },
  /** A fresh start from the seed; playing carries on if it was. */
  reset(config: OpinionsConfig) {
    rebuild(config);
  },
  ping() {
    return 'pong';
  },
};

export type CanvasWorkerApi = typeof api;
Comlink.expose(api);
