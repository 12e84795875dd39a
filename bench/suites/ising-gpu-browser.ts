/**
 * The Opinions lab's WebGPU Glauber kernel in headless Chromium, where WebGPU is SwiftShader (a CPU emulating a GPU):
 * the bench/gpu page's runIsingBench, the same measurement that bench/gpu/run.ts makes on a real GPU. These numbers
 * say what the kernel costs when emulated, not what a GPU does. BENCH_ISING_SECONDS (default 2) sets how long each
 * timing runs at least. Needs /usr/bin/chromium (CHROMIUM_PATH overrides it).
 */
import type { BenchSuite } from '../run.ts';
import { BASE_FLAGS, WEBGPU_FLAGS } from '../../test/browser/setup/chromium.ts';
import { withBenchPage } from '../bench-page.ts';
import { isingTable, type IsingBenchOptions, type IsingBenchResult } from '../gpu/ising-report.ts';

const FLAGS = [...BASE_FLAGS, ...WEBGPU_FLAGS, '--use-angle=swiftshader'];

const suite: BenchSuite = {
  title: 'Ising / Glauber on WebGPU (SwiftShader, headless Chromium)',
  async run() {
    const options: IsingBenchOptions = { sides: [316, 1000], minSeconds: Number(process.env.BENCH_ISING_SECONDS ?? 2) };
    const { r, version } = await withBenchPage(FLAGS, async (browser, url) => {
      const page = await browser.newPage();
      page.on('console', (m) => m.type() === 'error' && process.stderr.write(`[page] ${m.text()}\n`));
      page.on('pageerror', (e) => process.stderr.write(`[page] ${String(e)}\n`));
      await page.goto(url);
      await page.waitForFunction(() => 'runIsingBench' in window, undefined, { timeout: 60_000 });
      const r = await page.evaluate((o) => (window as unknown as { runIsingBench(o: IsingBenchOptions): Promise<IsingBenchResult> }).runIsingBench(o), options);
      return { r, version: browser.version() };
    });
    if (!r.software) process.stderr.write(`bench: the adapter is ${r.adapter}, not SwiftShader\n`);
    return [
      `Chromium ${version}, WebGPU adapter: ${r.adapter}${r.software ? ' (software)' : ''}. The Opinions lab's Glauber kernel (src/labs/opinions/gpu-ising.ts: checkerboard sweeps, Philox-2×32-10 numbers, 4 sites per thread), 𝒯 = 1.5 with w = 1.2 (just above 𝒯_c), from random spins; each timing doubles its sweeps until a run takes ${options.minSeconds} s. "Kernel" reads nothing back; "with per-step records" adds the atomics and the readback of Σ s, the bond sum and the redrawn count for every sweep (what the live view reads); the readback column is one live frame's extra cost of packing and reading the spins. The CPU path is simulateGlauber (sync, the square-lattice kernel) on the same page's main thread in the same run.`,
      '',
      isingTable(r),
      '',
      'SwiftShader runs the shader on the CPU (here 2 cores), so the GPU column is an emulation cost, below the CPU path itself: the live view therefore stays on the CPU worker when the only adapter is a software one (Live → backend = auto), and the browser test (test/browser/opinions-gpu.test.ts) runs the kernel here for correctness, not speed. The figure for a real GPU (target ≥ 10⁸ updates/s at 10⁶ spins) is `npx tsx bench/gpu/run.ts --ising-only` on a GPU machine; it prints the same table.',
    ].join('\n');
  },
};

export default suite;
