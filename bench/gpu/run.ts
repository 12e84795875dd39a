/**
 * WebGPU runtime benchmark on a real GPU: tokens/s, the tap overhead (taps ÷ no taps, same run) and the CPU-side
 * memory of each loaded model (performance.measureUserAgentSpecificMemory: page + model workers; GPU buffers are not
 * counted). The page is served cross-origin isolated (bench/gpu/vite.config.ts), which that API needs. Then the
 * Opinions lab's Glauber kernel: spin updates/s at about 10⁵ and 10⁶ spins (316² and 1000² lattices), beside the
 * CPU path in the same page (bench/gpu/ising.ts).
 *
 *   npm run build                                   # once: fills public/ort and public/models
 *   npx tsx bench/gpu/run.ts [--model tiny-social] [--dtype auto] [--rounds 5] [--new-tokens 64] [--headed]
 *   npx tsx bench/gpu/run.ts --ising-only [--ising-sides 316,1000] [--ising-seconds 2]   # the Ising kernel alone
 *   npx tsx bench/gpu/run.ts --grids-only [--cka-m 1000] [--sync-n 1000]   # CKA and SyncR² grids on the GPU vs the grid pool
 *
 * Needs Chromium with a working GPU (NVIDIA: recent driver, Vulkan). CHROMIUM_PATH overrides /usr/bin/chromium.
 * Hub models need network access from the browser (the first run downloads them into the browser cache of a
 * throw-away profile). Prints a markdown table to paste into docs/benchmarks.md. Not run in CI.
 * The same page runs wasm and SwiftShader WebGPU in headless Chromium in `npm run bench -- runtime-browser`
 * (bench/suites/runtime-browser.ts).
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { BASE_FLAGS, CHROMIUM } from '../../test/browser/setup/chromium.ts';
import { preview } from 'vite';
import { isingTable, type IsingBenchOptions, type IsingBenchResult } from './ising-report.ts';

const here = import.meta.dirname;
const repo = resolve(here, '../..');
const { values } = parseArgs({
  options: {
    model: { type: 'string', multiple: true },
    dtype: { type: 'string', default: 'auto' },
    rounds: { type: 'string', default: '5' },
    'new-tokens': { type: 'string', default: '64' },
    headed: { type: 'boolean', default: false },
    'skip-build': { type: 'boolean', default: false },
    'ising-only': { type: 'boolean', default: false },
    'skip-ising': { type: 'boolean', default: false },
    'ising-sides': { type: 'string', default: '316,1000' },
    'ising-seconds': { type: 'string', default: '2' },
    'grids-only': { type: 'boolean', default: false },
    'skip-grids': { type: 'boolean', default: false },
    'cka-m': { type: 'string', default: '1000' },
    'sync-n': { type: 'string', default: '1000' },
  },
});
const only = values['ising-only'] || values['grids-only'];
const models = only ? [] : values.model?.length ? values.model : ['tiny-social', 'smollm2-135m'];

if (!values['skip-build'])
  execFileSync(process.execPath, [resolve(repo, 'node_modules/vite/bin/vite.js'), 'build', '--config', resolve(here, 'vite.config.ts')], {
    stdio: 'inherit',
    cwd: repo,
  });
const server = await preview({ root: here, configFile: resolve(here, 'vite.config.ts'), preview: { port: 0, host: '127.0.0.1' }, logLevel: 'warn' });
const address = server.httpServer.address();
if (!address || typeof address === 'string') throw new Error('no port');
const url = `http://127.0.0.1:${address.port}/`;

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: !values.headed,
  args: [
    ...BASE_FLAGS,
    // measureUserAgentSpecificMemory answers at once instead of at the next GC (≈ 10 s in headless Chromium)
    '--enable-blink-features=ForceEagerMeasureMemory',
    '--enable-unsafe-webgpu',
    '--enable-features=Vulkan,WebGPUService',
    '--use-angle=vulkan',
    '--ignore-gpu-blocklist',
    '--enable-gpu',
  ],
});
const page = await browser.newPage();
page.on('console', (m) => m.type() === 'error' && process.stderr.write(`[page] ${m.text()}\n`));
await page.goto(url);
await page.waitForFunction(() => 'runBench' in window, undefined, { timeout: 60_000 });

const rows: string[] = [];
let adapter = '';
for (const model of models) {
  try {
    const r = await page.evaluate((o) => (window as unknown as { runBench(o: unknown): Promise<Record<string, unknown>> }).runBench(o), {
      model,
      device: 'webgpu',
      dtype: values.dtype,
      rounds: Number(values.rounds),
      newTokens: Number(values['new-tokens']),
    });
    const gpu = r.gpu as { description?: string; shaderF16: boolean } | null;
    adapter = `${gpu?.description ?? 'unknown adapter'}, shader-f16 ${gpu?.shaderF16 ? 'yes' : 'no'}`;
    const n = (k: string, d = 1) => (r[k] as number).toFixed(d);
    const m = r.memory as Record<'before' | 'afterTapped' | 'afterPlain', { bytes?: number; error?: string }>;
    const mib = (a: { bytes?: number; error?: string }, b: { bytes?: number; error?: string }) =>
      a.bytes !== undefined && b.bytes !== undefined ? ((b.bytes - a.bytes) / 2 ** 20).toFixed(1) : `n/a (${a.error ?? b.error})`;
    rows.push(
      `| ${r.model} | ${r.dtype} | ${n('prefillTpsTaps', 0)} | ${n('prefillTpsPlain', 0)} | ${n('decodeTpsTaps')} | ${n('decodeTpsPlain')} | ${n('tapOverhead', 3)} | ${n('prefillOverhead', 3)} | ${((r.loadMs as number) / 1000).toFixed(1)} | ${mib(m.before, m.afterTapped)} | ${mib(m.afterTapped, m.afterPlain)} |`,
    );
    process.stderr.write(`${model}: done\n`);
  } catch (e) {
    rows.push(`| ${model} | – | failed: ${(e as Error).message.split('\n')[0]} | | | | | | | | |`);
  }
}
let ising = '';
let ckaText = '';
if (!values['skip-grids'] && !values['ising-only']) {
  try {
    type R = import('./grids.ts').GpuCkaBenchResult;
    const r = await page.evaluate(
      (m) => (window as unknown as { runGpuCkaBench(o: { ckaM: number }): Promise<R> }).runGpuCkaBench({ ckaM: m }),
      Number(values['cka-m']),
    );
    ckaText = [
      `CKA grid ${r.layers} × ${r.layers} (m = ${r.m}, H = ${r.H}, linear + debiased) with its Gram products on WebGPU (${r.adapter}${r.software ? ', a software adapter' : ''}), float32 products, float64 statistics; the page's grid pool (float64) in the same run:`,
      '',
      '| path | seconds | max abs Δ CKA vs float64 (tolerance 1e-5) |',
      '|---|---|---|',
      `| GPU Gram products | ${r.gpuSeconds.toFixed(2)} | ${r.maxAbsDiff.toExponential(2)} |`,
      `| grid pool, float64 | ${r.cpuSeconds.toFixed(2)} | – |`,
      '',
    ].join('\n');
  } catch (e) {
    ckaText = `CKA on WebGPU: failed: ${(e as Error).message.split('\n')[0]}\n`;
  }
  try {
    type S = import('./grids.ts').GpuSyncBenchResult;
    const r = await page.evaluate(
      (n) => (window as unknown as { runGpuSyncBench(o: { syncN: number }): Promise<S> }).runGpuSyncBench({ syncN: n }),
      Number(values['sync-n']),
    );
    ckaText += [
      '',
      `SyncR² grid 30 × 30 (H = 576, n = ${r.n}, 3 splits) with the target-side products on WebGPU (${r.adapter}), float32; the page's grid pool (float64) in the same run:`,
      '',
      '| path | seconds | max abs Δ R² vs float64 (tolerance 1e-4) |',
      '|---|---|---|',
      `| GPU grids (source side on the CPU) | ${r.gpuSeconds.toFixed(2)} | ${r.maxAbsDiff.toExponential(2)} |`,
      `| grid pool, float64 | ${r.cpuSeconds.toFixed(2)} | – |`,
      '',
    ].join('\n');
  } catch (e) {
    ckaText += `SyncR² on WebGPU: failed: ${(e as Error).message.split('\n')[0]}\n`;
  }
  process.stderr.write('grids: done\n');
}
if (!values['skip-ising'] && !values['grids-only']) {
  try {
    const options: IsingBenchOptions = { sides: values['ising-sides'].split(',').map(Number), minSeconds: Number(values['ising-seconds']) };
    const r = await page.evaluate((o) => (window as unknown as { runIsingBench(o: IsingBenchOptions): Promise<IsingBenchResult> }).runIsingBench(o), options);
    ising = `Glauber (Ising) kernel on WebGPU (${r.adapter}${r.software ? ', a software adapter' : ''}), checkerboard sweeps, Philox numbers; CPU path in the same page:\n\n${isingTable(r)}\n`;
  } catch (e) {
    ising = `Glauber (Ising) kernel: failed: ${(e as Error).message.split('\n')[0]}\n`;
  }
  process.stderr.write('ising: done\n');
}
await browser.close();
await new Promise<void>((done) => server.httpServer.close(() => done()));
if (ckaText) process.stdout.write(ckaText + '\n');
if (ising) process.stdout.write(ising + (rows.length ? '\n' : ''));
if (rows.length)
  process.stdout.write(
    [
      `WebGPU (${adapter}), Chromium ${browser.version()}, ${new Date().toISOString().slice(0, 10)}; greedy, ${values['new-tokens']} new tokens; medians of ${values.rounds} alternating rounds.`,
      '',
      '| model | dtype | prefill tok/s (taps) | prefill tok/s (no taps) | decode tok/s (taps) | decode tok/s (no taps) | tap overhead, generate | tap overhead, prefill | load s | memory, 1st model (MiB, CPU side) | memory, 2nd model (MiB, CPU side) |',
      '|---|---|---|---|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n') + '\n',
  );
