/**
 * The live simulator behind the Opinions view, free of DOM and workers so it runs (and is tested) anywhere. It
 * advances the core's Glauber dynamics one frame at a time (a frame = `stepsPerFrame` steps in one call), records
 * n(t) for every step and samples c(t) when asked, and paints the spin field into an RGBA pixel buffer.
 * The stream of random numbers depends on the seed and on the frame size only, so a link (which holds both)
 * replays the same trajectory however fast the screen draws it.
 */
import { createRng, hashSeed, type Rng } from '../../core/rng';
import { simulateGlauber, type GlauberParams } from '../../core/ising/simulate';
import type { SignedGraph } from '../../core/graphs/signed';
import { configFields, configGraph, type OpinionsConfig } from './graph';
import { expectedConviction } from './phase';

/** +1 (agree) blue, −1 (disagree) orange: distinguishable with the common colour-vision deficiencies. */
export const SPIN_COLOURS = { up: [29, 78, 216], down: [234, 88, 12] } as const;

export interface LiveSample {
  t: number;
  n: number;
  c: number;
}

export function liveParams(config: OpinionsConfig, graph: SignedGraph): GlauberParams {
  const d = config.dynamics;
  return {
    couplings: { kind: 'three', betaPlus: d.betaFriendly, betaMinus: d.betaUnfriendly, beta0: d.betaUnsigned },
    fields: configFields(d, graph.n, createRng(hashSeed(`${config.seed}/fields`))),
    temperature: d.temperature,
    mode: d.update,
    eps: d.epsilon,
  };
}

/** s(0) of the live simulation: each spin +1 with the initial-up chance, drawn from `${seed}/live-start`. */
export function initialSpins(config: OpinionsConfig, n: number): Int8Array {
  const start = createRng(hashSeed(`${config.seed}/live-start`));
  return Int8Array.from({ length: n }, () => (start.next() < config.dynamics.initialUp ? 1 : -1));
}

/**
 * What every live simulation holds and reads out, on the CPU (LiveSimulation) or the GPU (live-sim-gpu.ts): the
 * graph, the law, the spins, n(t) for every step and c(t) when sampled. Subclasses say how a frame advances.
 */
export abstract class LiveState {
  readonly graph: SignedGraph;
  params: GlauberParams;
  spins: Int8Array;
  t = 0;
  /** n(t) for every step since the start. */
  readonly net: number[] = [];
  readonly samples: LiveSample[] = [];
  updates = 0;
  stepsPerFrame: number;

  constructor(config: OpinionsConfig, graph?: SignedGraph) {
    this.graph = graph ?? configGraph(config, createRng(hashSeed(`${config.seed}/graph`)));
    this.params = liveParams(config, this.graph);
    this.stepsPerFrame = config.live.stepsPerFrame;
    this.spins = initialSpins(config, this.graph.n);
    this.net.push(mean(this.spins));
  }

  /** Changes couplings, temperature, fields or update rule in place: the state carries on from where it is. */
  retune(config: OpinionsConfig) {
    this.params = liveParams(config, this.graph);
    this.stepsPerFrame = config.live.stepsPerFrame;
  }

  /** Advances one frame (stepsPerFrame steps); returns the n(t) of the new steps. */
  abstract frame(): Float64Array | Promise<Float64Array>;

  /** Records (t, n, c) now; c needs a pass over every edge, so callers sample it a few times a second. */
  sample(): LiveSample {
    const c = expectedConviction(this.graph, this.params.couplings, this.params.fields ?? 0, this.spins, this.params.temperature ?? 1);
    const s = { t: this.t, n: this.net[this.net.length - 1], c };
    this.samples.push(s);
    return s;
  }
}

export class LiveSimulation extends LiveState {
  private rng: Rng;

  constructor(config: OpinionsConfig, graph?: SignedGraph) {
    super(config, graph);
    this.rng = createRng(hashSeed(`${config.seed}/live`));
  }

  frame(): Float64Array {
    const r = simulateGlauber(this.graph, this.params, this.spins, this.stepsPerFrame, this.rng, { record: false });
    this.spins = r.final;
    this.t += this.stepsPerFrame;
    this.updates += r.updates;
    const fresh = r.net.subarray(1);
    for (const v of fresh) this.net.push(v);
    return fresh;
  }
}

/** Side of the square pixel grid that shows N spins: the lattice side, else ⌈√N⌉ with agents in index order. */
export function gridSide(n: number, side?: number): number {
  return side && side * side === n ? side : Math.max(1, Math.ceil(Math.sqrt(n)));
}

/** Writes spins into an RGBA buffer of gridSide² pixels; cells without an agent stay light grey. */
export function paintSpins(spins: Int8Array, side: number, rgba: Uint8ClampedArray) {
  const px = new Uint32Array(rgba.buffer, rgba.byteOffset, side * side);
  const pack = ([r, g, b]: readonly number[]) => (255 << 24) | (b << 16) | (g << 8) | r; // little-endian RGBA
  const up = pack(SPIN_COLOURS.up);
  const down = pack(SPIN_COLOURS.down);
  const empty = pack([229, 231, 235]);
  for (let i = 0; i < px.length; i++) px[i] = i < spins.length ? (spins[i] > 0 ? up : down) : empty;
}

function mean(s: Int8Array): number {
  let m = 0;
  for (let i = 0; i < s.length; i++) m += s[i];
  return s.length ? m / s.length : 0;
}
