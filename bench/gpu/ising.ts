/**
 * Browser side of the GPU Ising benchmark: spin updates per second of the Opinions lab's WebGPU Glauber kernel
 * (src/labs/opinions/gpu-ising.ts, checkerboard sweeps) on periodic square lattices, beside the CPU path
 * (simulateGlauber, sync, the lattice kernel) on the page's main thread in the same run. On a real GPU through
 * bench/gpu/run.ts; on SwiftShader in headless Chromium through `npm run bench -- ising-gpu-browser`.
 */
import { GpuIsing, requestGpu } from '../../src/labs/opinions/gpu-ising';
import { checkerboardLaw } from '../../src/core/ising/checkerboard';
import { simulateGlauber } from '../../src/core/ising/simulate';
import { squareLattice } from '../../src/core/graphs/generators';
import { createRng } from '../../src/core/rng';
import type { IsingBenchOptions, IsingBenchResult, IsingBenchRow } from './ising-report';

const COUPLINGS = { kind: 'three' as const, betaPlus: 1, betaMinus: 0.3, beta0: 0.2 };
/** Just above 𝒯_c = 1.2 / (2·0.4407) ≈ 1.36: the spins keep flipping, so no branch is predictable. */
const TEMPERATURE = 1.5;
const MAX_STEPS = 1 << 20;

async function timed(minSeconds: number, run: (steps: number) => Promise<void> | void): Promise<{ steps: number; seconds: number }> {
  for (let steps = 4; ; steps *= 2) {
    const t0 = performance.now();
    await run(steps);
    const seconds = (performance.now() - t0) / 1000;
    if (seconds >= minSeconds || steps >= MAX_STEPS) return { steps, seconds };
  }
}

export async function runIsingBench(o: IsingBenchOptions = {}): Promise<IsingBenchResult> {
  const { sides = [316, 1000], minSeconds = 1, skipCpu = false } = o;
  const ctx = await requestGpu();
  if ('error' in ctx) throw new Error(ctx.error);
  const rows: IsingBenchRow[] = [];
  let step = 0;
  for (const side of sides) {
    const n = side * side;
    const sim = await GpuIsing.create(ctx.device, side);
    sim.setLaw(checkerboardLaw(COUPLINGS, 0, TEMPERATURE, n));
    const rng = createRng(`bench-${side}`);
    sim.setSpins(Array.from({ length: n }, () => (rng.next() < 0.5 ? 1 : -1)));
    await sim.run(4, { firstStep: step, key: 1, readSpins: true }); // warm-up: pipelines, buffers, first map
    step += 4;
    const rate = (t: { steps: number; seconds: number }) => ({ ...t, updatesPerSecond: (n * t.steps) / t.seconds });
    const kernel = rate(
      await timed(minSeconds, async (s) => {
        await sim.run(s, { firstStep: step, key: 1, record: false });
        step += s;
      }),
    );
    const recorded = rate(
      await timed(minSeconds, async (s) => {
        await sim.run(s, { firstStep: step, key: 1 });
        step += s;
      }),
    );
    // one live frame of one sweep, with and without reading the spins back: the difference is the readback
    const frames = 8;
    let t0 = performance.now();
    for (let k = 0; k < frames; k++) await sim.run(1, { firstStep: step++, key: 1, readSpins: true });
    const withSpins = (performance.now() - t0) / frames;
    t0 = performance.now();
    for (let k = 0; k < frames; k++) await sim.run(1, { firstStep: step++, key: 1 });
    const without = (performance.now() - t0) / frames;
    sim.destroy();
    let cpu: IsingBenchRow['cpu'] = null;
    if (!skipCpu) {
      const g = squareLattice(side);
      const s0 = Int8Array.from({ length: n }, () => (rng.next() < 0.5 ? 1 : -1));
      const cpuRng = createRng('bench-cpu');
      const params = { couplings: COUPLINGS, temperature: TEMPERATURE, mode: 'sync' as const };
      simulateGlauber(g, params, s0, 2, cpuRng, { record: false });
      cpu = rate(await timed(minSeconds, (s) => void simulateGlauber(g, params, s0, s, cpuRng, { record: false })));
    }
    rows.push({ side, spins: n, kernel, recorded, readSpinsMs: withSpins - without, cpu });
  }
  ctx.device.destroy();
  return { adapter: ctx.adapter, software: ctx.software, rows };
}

(window as unknown as { runIsingBench: typeof runIsingBench }).runIsingBench = runIsingBench;
