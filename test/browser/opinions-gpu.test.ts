/**
 * The Opinions lab's Glauber dynamics on the GPU (src/labs/opinions/gpu-ising.ts), in headless Chromium on
 * SwiftShader WebGPU, through the page's test handle (`__socialMindsLab.gpuIsing`) on the BUILT app:
 *  1. bit for bit: the kernel's spins and per-step records equal the TypeScript reference of the same checkerboard
 *     schedule and Philox numbers (src/core/ising/checkerboard.ts), with per-site fields and with ε < 1;
 *  2. statistics: on a 32² lattice (w = β⁺ + β₀ = 1.2, no field), |m| and the energy per spin −Σ_bonds s_i s_j / N of
 *     the GPU's checkerboard sweeps equal those of the CPU path (simulateGlauber, sync mode, read as its two
 *     interleaved checkerboard chains: syncChainSeries) at 0.8, 1.0 and 1.5 × 𝒯_c (𝒯_c = w / (2·0.4407) ≈ 1.36),
 *     within TOLERANCE combined standard errors; each SE from 20 blocks of 400 sweeps after 1000 burn-in sweeps.
 *     Power: with the GPU's 𝒯 off by 20 % (either way) this test failed at every temperature, by ≥ 10 SE on |m|
 *     and ≥ 44 SE on the energy (a 5 % error: ≥ 4 SE on |m| and ≥ 15 SE on the energy), measured 2026-12-05; the
 *     negative control below keeps checking that power on the CPU side (𝒯 × 1.2 must be told apart);
 *  3. the live panel runs on the GPU when asked (Live → backend = gpu), plays a 316² lattice (99 856 spins), steps,
 *     and says where it runs; with backend auto, a software adapter leaves it on the CPU worker, saying so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, openPage, textOf, waitFor } from './setup/browser';
import { opinionsLink } from './setup/opinions';
import { expectSmooth, watchLongTasks } from './setup/smoothness';
import { blockMean, checkerboardLaw, checkerboardSweeps, syncChainSeries } from '../../src/core/ising/checkerboard';
import { simulateGlauber } from '../../src/core/ising/simulate';
import { squareLattice } from '../../src/core/graphs/generators';
import { createRng, hashSeed } from '../../src/core/rng';
import type { GpuSample, GpuSampleOptions } from '../../src/labs/opinions/gpu-ising';

const TOLERANCE = 3;
const SIDE = 32;
const N = SIDE * SIDE;
const BURN = 1000;
const STEPS = 8000;
const BLOCKS = 20;
const COUPLINGS = { kind: 'three' as const, betaPlus: 1, betaMinus: 0.3, beta0: 0.2 };
const TC = 1.2 / (2 * 0.4406868);

type Hook = { __socialMindsLab: { gpuIsing(o: GpuSampleOptions): Promise<GpuSample> } };
async function gpuIsing(page: Page, o: GpuSampleOptions): Promise<GpuSample> {
  // typed arrays do not cross page.evaluate; the handle takes the thresholds as a plain array
  const plain = { ...o, law: { ...o.law, thresholds: Array.from(o.law.thresholds) } };
  return page.evaluate((x) => (window as unknown as Hook).__socialMindsLab.gpuIsing(x), plain);
}

type Stat = ReturnType<typeof blockMean>;
const stat = (xs: ArrayLike<number>, f: (x: number) => number): Stat =>
  blockMean(
    Array.from(xs)
      .slice(BURN, BURN + STEPS)
      .map(f),
    BLOCKS,
  );
const absM = (x: number) => Math.abs(x) / N;
const energy = (x: number) => -x / N;
const z = (a: Stat, b: Stat) => (a.mean - b.mean) / Math.hypot(a.se, b.se);

/** The CPU path's sync chains at 𝒯, from all +1 (one more step than sweeps, for the last pair). */
function cpuSeries(T: number, seed: string) {
  const sim = simulateGlauber(
    squareLattice(SIDE),
    { couplings: COUPLINGS, temperature: T, mode: 'sync' },
    new Int8Array(N).fill(1),
    BURN + STEPS + 1,
    createRng(seed),
  );
  return syncChainSeries(sim.states!, SIDE);
}

const link = opinionsLink;
const text = textOf;

describe('Opinions lab: Glauber dynamics on WebGPU (SwiftShader)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch('webgpu');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('gives the TypeScript reference’s spins bit for bit', async () => {
    const { page, errors } = await openPage(browser);
    await page.waitForFunction(() => 'gpuIsing' in ((window as unknown as Partial<Hook>).__socialMindsLab ?? {}));
    for (const [side, eps, perSite] of [
      [18, 1, false],
      [18, 0.5, true],
      [64, 0.3, false],
    ] as const) {
      const n = side * side;
      const fields = perSite ? Array.from({ length: n }, (_, i) => Math.sin(i) / 2) : 0.1;
      const law = checkerboardLaw(COUPLINGS, fields, 1.4, n, eps);
      const start = createRng(`start-${side}`);
      const spins = Array.from({ length: n }, () => (start.next() < 0.5 ? 1 : -1));
      const gpu = await gpuIsing(page, { side, law, key: hashSeed('bitwise'), spins, steps: 9, firstStep: 1000, readSpins: true });
      const ref = Int8Array.from(spins);
      const r = checkerboardSweeps(side, law, hashSeed('bitwise'), ref, 1000, 9);
      expect(gpu.software).toBe(true);
      expect(gpu.spins).toEqual(Array.from(ref));
      expect(gpu.sum).toEqual(Array.from(r.sum));
      expect(gpu.bond).toEqual(Array.from(r.bond));
      expect(gpu.updates).toEqual(Array.from(r.updates));
    }
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('matches the CPU path’s magnetisation and energy below, near and above 𝒯_c', async () => {
    const { page, errors } = await openPage(browser);
    await page.waitForFunction(() => 'gpuIsing' in ((window as unknown as Partial<Hook>).__socialMindsLab ?? {}));
    const lines: string[] = [];
    for (const f of [0.8, 1.0, 1.5]) {
      const T = f * TC;
      const gpu = await gpuIsing(page, { side: SIDE, law: checkerboardLaw(COUPLINGS, 0, T, N), key: hashSeed(`gpu-${f}`), steps: BURN + STEPS });
      const cpu = cpuSeries(T, `cpu-${f}`);
      const g = { m: stat(gpu.sum, absM), e: stat(gpu.bond, energy) };
      const c = { m: stat(cpu.sum, absM), e: stat(cpu.bond, energy) };
      // negative control: the CPU at 𝒯 × 1.2 is what a GPU law with a 20 % temperature error would give
      const wrong = cpuSeries(1.2 * T, `cpu-wrong-${f}`);
      const w = { m: stat(wrong.sum, absM), e: stat(wrong.bond, energy) };
      lines.push(
        `𝒯 = ${f}·𝒯_c: |m| GPU ${g.m.mean.toFixed(4)} ± ${g.m.se.toFixed(4)}, CPU ${c.m.mean.toFixed(4)} ± ${c.m.se.toFixed(4)} (z = ${z(g.m, c.m).toFixed(2)}); ` +
          `e GPU ${g.e.mean.toFixed(4)} ± ${g.e.se.toFixed(4)}, CPU ${c.e.mean.toFixed(4)} ± ${c.e.se.toFixed(4)} (z = ${z(g.e, c.e).toFixed(2)}); ` +
          `CPU at 1.2·𝒯: z = ${z(g.m, w.m).toFixed(1)} (|m|), ${z(g.e, w.e).toFixed(1)} (e); GPU ${gpu.seconds.toFixed(1)} s`,
      );
      expect(Math.abs(z(g.m, c.m)), lines.at(-1)).toBeLessThan(TOLERANCE);
      expect(Math.abs(z(g.e, c.e)), lines.at(-1)).toBeLessThan(TOLERANCE);
      expect(Math.max(Math.abs(z(g.m, w.m)), Math.abs(z(g.e, w.e))), lines.at(-1)).toBeGreaterThan(TOLERANCE);
    }
    console.log(lines.join('\n'));
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('the live panel runs a 316² lattice on the GPU when asked, and says where it runs', async () => {
    const { page, errors } = await openPage(
      browser,
      link((c) => {
        c.graph.side = 316;
        c.dynamics.temperature = 1.5;
        c.live.stepsPerFrame = 4;
        c.live.backend = 'gpu';
      }),
    );
    const note = page.getByTestId('live-backend');
    await waitFor(page, async () => (await note.getAttribute('data-backend')) === 'gpu', 30_000);
    expect(await note.textContent()).toMatch(/Runs on: GPU \(WebGPU\): checkerboard sweeps on google swiftshader/);
    expect(await text(page, 'live-agents')).toBe('99856');
    const stopWatching = await watchLongTasks(page);
    await page.getByTestId('play').click();
    // the rate meter updates once a second
    await waitFor(page, async () => Number(await text(page, 'live-t')) >= 40 && (await text(page, 'ups')) !== '0', 60_000);
    const rate = `${await text(page, 'ups')} spin updates/s, ${await text(page, 'fps')} frames/s`;
    await page.getByTestId('play').click();
    await waitFor(page, async () => (await page.getByTestId('play').textContent())?.trim() === 'Play');
    const longTasks = await stopWatching();
    console.log(`316² on the GPU (SwiftShader): ${rate}`);
    expectSmooth(longTasks);
    const t0 = Number(await text(page, 'live-t'));
    await page.getByTestId('step').click();
    await waitFor(page, async () => Number(await text(page, 'live-t')) === t0 + 4);
    expect(Math.abs(Number(await text(page, 'live-n')))).toBeLessThan(0.2);

    // auto on a software adapter: the CPU worker, and the note says why
    await page.goto(page.url().split('#')[0] + link((c) => (c.graph.side = 64)));
    await waitFor(page, async () => (await note.getAttribute('data-backend')) === 'cpu', 30_000);
    expect(await note.textContent()).toMatch(/Runs on: CPU worker: the WebGPU adapter \(google swiftshader\) is a software one/);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
