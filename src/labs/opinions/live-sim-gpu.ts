/**
 * The live simulation on the GPU: the same readouts as LiveSimulation (n(t) for every step, c(t) when sampled, the
 * spins for drawing), computed by the WebGPU checkerboard kernel (gpu-ising.ts) on an even-sided square lattice.
 * The law (couplings, fields, 𝒯, ε) is the CPU path's; the schedule is checkerboard sweeps, one sweep per step
 * (src/core/ising/checkerboard.ts says how that differs from the CPU's synchronous step). The random numbers depend
 * on the seed and the step only (Philox, counter-based), so a link replays the same trajectory, on any device and
 * at any speed.
 */
import { createRng, hashSeed } from '../../core/rng';
import { checkerboardLaw, checkerboardSide } from '../../core/ising/checkerboard';
import type { SignedGraph } from '../../core/graphs/signed';
import { configGraph, type OpinionsConfig } from './graph';
import { LiveState } from './live-sim';
import { GpuIsing, type GpuContext } from './gpu-ising';

export type LiveBackend = 'gpu' | 'cpu';

/**
 * Where the live simulation runs, and the note the panel shows. `gpu` is a device from requestGpu (or why there is
 * none); `side` is the lattice side when the kernel can run the graph (checkerboardSide), else null.
 */
export function chooseLiveBackend(
  wanted: OpinionsConfig['live']['backend'],
  side: number | null,
  gpu: GpuContext | { error: string } | null,
): { backend: LiveBackend; note: string } {
  if (wanted === 'cpu') return { backend: 'cpu', note: 'CPU worker (chosen in the settings, Live → backend)' };
  if (side === null) return { backend: 'cpu', note: 'CPU worker: the GPU kernel runs even-sided square lattices only' };
  if (!gpu) return { backend: 'cpu', note: 'CPU worker: no WebGPU here' };
  if ('error' in gpu) return { backend: 'cpu', note: `CPU worker: ${gpu.error}` };
  if (wanted === 'auto' && gpu.software)
    return {
      backend: 'cpu',
      note: `CPU worker: the WebGPU adapter (${gpu.adapter}) is a software one, slower than the CPU; Live → backend = gpu runs it there anyway`,
    };
  return { backend: 'gpu', note: `GPU (WebGPU): checkerboard sweeps on ${gpu.adapter}` };
}

export class GpuLiveSimulation extends LiveState {
  private readonly key: number;

  private constructor(
    config: OpinionsConfig,
    graph: SignedGraph,
    private readonly gpu: GpuIsing,
  ) {
    super(config, graph);
    this.key = hashSeed(`${config.seed}/live-gpu`);
    this.gpu.setSpins(this.spins);
    this.setLaw();
  }

  /** The simulation of `config` on `ctx`'s device; fails when the graph is not an even-sided square lattice. */
  static async create(config: OpinionsConfig, ctx: GpuContext, graph?: SignedGraph): Promise<GpuLiveSimulation> {
    const g = graph ?? configGraph(config, createRng(hashSeed(`${config.seed}/graph`)));
    const side = checkerboardSide(g);
    if (side === null) throw new Error('the GPU kernel runs even-sided square lattices only');
    return new GpuLiveSimulation(config, g, await GpuIsing.create(ctx.device, side));
  }

  private setLaw() {
    const p = this.params;
    this.gpu.setLaw(checkerboardLaw(p.couplings, p.fields, p.temperature ?? 1, this.graph.n, p.mode === 'async' ? (p.eps ?? 0.5) : 1));
  }

  override retune(config: OpinionsConfig) {
    super.retune(config);
    this.setLaw();
  }

  /** Advances one frame (stepsPerFrame sweeps); returns the n(t) of the new steps. */
  async frame(): Promise<Float64Array> {
    const steps = this.stepsPerFrame;
    const r = await this.gpu.run(steps, { firstStep: this.t, key: this.key, readSpins: true });
    this.spins = r.spins!;
    this.t += steps;
    const fresh = new Float64Array(steps);
    const rec = r.records!;
    for (let k = 0; k < steps; k++) {
      fresh[k] = rec.sum[k] / this.graph.n;
      this.net.push(fresh[k]);
      this.updates += rec.updates[k];
    }
    return fresh;
  }

  destroy() {
    this.gpu.destroy();
  }
}
