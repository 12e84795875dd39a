import * as Comlink from 'comlink';
import { LiveSimulation, gridSide, paintSpins } from '../src/labs/opinions/live-sim';
import { GpuLiveSimulation, chooseLiveBackend, type LiveBackend } from '../src/labs/opinions/live-sim-gpu';
import { requestGpu, type GpuContext } from '../src/labs/opinions/gpu-ising';
import { configGraph, type OpinionsConfig } from '../src/labs/opinions/graph';
import { checkerboardSide } from '../src/core/ising/checkerboard';
import { createRng, hashSeed } from '../src/core/rng';

/**
 * Owns the live simulation and the canvas it draws on (an OffscreenCanvas transferred from the page), so neither
 * the dynamics nor the drawing of a 316×316 field ever runs on the main thread. The page gets small batches of
 * readouts a few times a second through `onStats`. On an even-sided square lattice with a WebGPU adapter the dynamics
 * run on the GPU (GpuLiveSimulation: checkerboard sweeps), else here on the CPU (LiveSimulation); the stats say which.
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
  /** Where the dynamics run ('gpu': WebGPU checkerboard sweeps), and a sentence saying so, or why not on the GPU. */
  backend: LiveBackend;
  backendNote: string;
}

const STATS_EVERY_MS = 100;
const SMALL_GRAPH = 1000;

let canvas: OffscreenCanvas | null = null;
let ctx: OffscreenCanvasRenderingContext2D | null = null;
let image: ImageData | null = null;
let sim: LiveSimulation | GpuLiveSimulation | null = null;
let backend: LiveBackend = 'cpu';
let backendNote = '';
/** The WebGPU device, requested the first time a simulation could use it. */
let gpu: Promise<GpuContext | { error: string }> | null = null;
/** Set when the GPU failed during a run: later rebuilds stay on the CPU, with this as the note. */
let gpuFailure = '';
let lastConfig: OpinionsConfig | null = null;
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
  return JSON.stringify([c.seed, c.custom.nodes > 0 ? null : c.graph, c.custom, c.dynamics.initialUp, c.live.backend]);
}

// Every change of the simulation (rebuild, retune, frame) runs in call order, one at a time: a GPU frame is async.
let queue: Promise<unknown> = Promise.resolve();
function serial<T>(work: () => T | Promise<T>): Promise<T> {
  const next = queue.then(work);
  queue = next.catch(() => {});
  return next;
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
    backend,
    backendNote,
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

/** One frame of whichever simulation runs; a GPU that fails hands the run to the CPU (restarted from the seed). */
async function advance(): Promise<number> {
  const s = sim!;
  const before = s.updates;
  try {
    await s.frame();
  } catch (e) {
    if (!(s instanceof GpuLiveSimulation) || !lastConfig) throw e;
    gpuFailure = `CPU worker: the GPU stopped (${(e as Error).message ?? e}), so the run restarted here`;
    await rebuild(lastConfig);
    return 0;
  }
  return s.updates - before;
}

function tick() {
  if (!playing || !sim) return;
  serial(async () => {
    if (!playing || !sim) return;
    measure(await advance());
    draw();
    flush();
  }).then(
    () => raf(tick),
    (e) => {
      playing = false;
      flush(true);
      throw e;
    },
  );
}

async function rebuild(config: OpinionsConfig) {
  lastConfig = config;
  const graph = configGraph(config, createRng(hashSeed(`${config.seed}/graph`)));
  const side = checkerboardSide(graph);
  const want = gpuFailure ? 'cpu' : config.live.backend;
  const device = want !== 'cpu' && side !== null ? await (gpu ??= requestGpu()) : null;
  let choice = chooseLiveBackend(want, side, device);
  if (gpuFailure && config.live.backend !== 'cpu') choice.note = gpuFailure;
  let next: LiveSimulation | GpuLiveSimulation | null = null;
  if (choice.backend === 'gpu')
    try {
      next = await GpuLiveSimulation.create(config, device as GpuContext, graph);
    } catch (e) {
      choice = { backend: 'cpu', note: `CPU worker: the GPU kernel failed (${(e as Error).message ?? e})` };
    }
  if (sim instanceof GpuLiveSimulation) sim.destroy();
  sim = next ?? new LiveSimulation(config, graph);
  backend = choice.backend;
  backendNote = choice.note;
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
    return serial(() => rebuild(config));
  },
  /**
   * New settings: a new graph, seed, start or backend rebuilds; couplings, fields, 𝒯 and the update rule retune in
   * place.
   */
  configure(config: OpinionsConfig) {
    return serial(async () => {
      if (!sim || keyOf(config) !== graphKey) await rebuild(config);
      else {
        lastConfig = config;
        sim.retune(config);
        flush(true);
      }
    });
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
    // after a frame still in flight (a GPU frame is async), so the page's last readout is the paused state
    return serial(() => flush(true));
  },
  step() {
    playing = false;
    return serial(async () => {
      if (!sim) return;
      await advance();
      draw();
      flush(true);
    });
  },
  /** A fresh start from the seed; playing carries on if it was. */
  reset(config: OpinionsConfig) {
    return serial(() => rebuild(config));
  },
  ping() {
    return 'pong';
  },
};

export type CanvasWorkerApi = typeof api;
Comlink.expose(api);
