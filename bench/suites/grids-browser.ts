/**
 * The SyncR² and CKA grids in headless Chromium, on the app's grid pool (Web Workers nested in the page, shared
 * memory), against the same grids on Node's pool in the same run: issue 16 asks for the page within 1.5× of Node.
 * Reuses the bench/gpu page (window.runGridBench, bench/gpu/grids.ts); /usr/bin/chromium (CHROMIUM_PATH overrides).
 */
import { cpus, loadavg } from 'node:os';
import type { BenchSuite } from '../run.ts';
import { BASE_FLAGS } from '../../test/browser/setup/chromium.ts';
import { withBenchPage } from '../bench-page.ts';
import type { GridBenchResult } from '../gpu/grids.ts';
import { checksum, ckaStack, syncProblem, SYNC_SEEDS } from '../grid-problems.ts';
import { createNodeGridPool } from '../../cli/grid-pool-node.ts';
import { syncR2With } from '../../src/core/synchrony.ts';
import { cka } from '../../src/core/cka.ts';

async function inChromium(): Promise<{ r: GridBenchResult; version: string }> {
  return withBenchPage(BASE_FLAGS, async (browser, url) => {
    const page = await browser.newPage();
    page.on('pageerror', (e) => process.stderr.write(`[page] ${String(e)}\n`));
    await page.goto(url);
    await page.waitForFunction(() => 'runGridBench' in window, undefined, { timeout: 60_000 });
    const r = await page.evaluate(() => (window as unknown as { runGridBench(): Promise<GridBenchResult> }).runGridBench());
    return { r, version: browser.version() };
  });
}

const suite: BenchSuite = {
  title: 'Layer grids in Chromium (the app’s worker pool) against Node',
  async run() {
    const { r, version } = await inChromium();
    const pool = createNodeGridPool(r.workers);
    let syncNode: number;
    let ckaNode: number;
    let sameSync: boolean;
    let sameCka: boolean;
    let syncDiff = NaN;
    let sameProblem = false;
    try {
      const { source, target, group } = syncProblem(1000);
      let t = performance.now();
      const s = await syncR2With(pool, source, target, group, { alpha: 0.1, splitSeeds: SYNC_SEEDS });
      syncNode = (performance.now() - t) / 1000;
      let d = 0;
      s.r2PerSplit.forEach((g, k) => g.forEach((v, i) => (d = Math.max(d, Math.abs(v - r.syncGrids[k][i])))));
      syncDiff = d;
      sameProblem = checksum(source.data) + checksum(target.data) === r.syncChecksum;
      sameSync = d === 0;
      const x = ckaStack('cka-x');
      const y = ckaStack('cka-y');
      t = performance.now();
      const [gramsX, gramsY] = await Promise.all([pool.gramStats(x), pool.gramStats(y)]);
      const c = cka(x, y, { gramsX, gramsY });
      ckaNode = (performance.now() - t) / 1000;
      sameCka = c.linear.grid.every((v, i) => Object.is(v, r.ckaLinear[i])) && c.debiased.grid.every((v, i) => Object.is(v, r.ckaDebiased[i]));
    } finally {
      pool.close();
    }
    return [
      `Headless Chromium ${version}, the bench/gpu page served cross-origin isolated (${r.crossOriginIsolated ? 'yes' : 'NO'}); ${r.pooled ? `a pool of ${r.workers} grid workers` : 'NO pool: the grids ran in process'} (navigator.hardwareConcurrency ${r.cores}); Node's pool with the same number of workers, in the same run. Goal: Chromium within 1.5× of Node.`,
      '',
      '| grid | Chromium | Node | Chromium / Node | same numbers |',
      '|---|---|---|---|---|',
      `| SyncR² 30 × 30, H = 576, n = 1000, 3 splits | ${r.syncSeconds.toFixed(2)} s | ${syncNode.toFixed(2)} s | ${(r.syncSeconds / syncNode).toFixed(2)}× | ${sameSync ? 'bitwise' : `no: max |Δ| ${syncDiff.toExponential(1)}${sameProblem ? '' : ' (the page built different states)'}`} |`,
      `| CKA 28 × 28, m = 1000, H = 1024, linear + debiased | ${r.ckaSeconds.toFixed(2)} s | ${ckaNode.toFixed(2)} s | ${(r.ckaSeconds / ckaNode).toFixed(2)}× | ${sameCka ? 'bitwise' : 'NO'} |`,
      '',
      `Load average after the run: ${loadavg()
        .map((v) => v.toFixed(1))
        .join(' / ')} on ${cpus().length} cores.`,
    ].join('\n');
  },
};

export default suite;
