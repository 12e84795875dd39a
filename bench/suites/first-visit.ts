/**
 * What a first visit transfers (issue 20): the page, onnxruntime's wasm and the default lab model, as `npm run build`
 * writes them to dist/, raw and compressed the way a static host serves them (gzip; brotli where it can).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import type { BenchSuite } from '../run.ts';
import { BASE_FLAGS, CHROMIUM } from '../../test/browser/setup/chromium.ts';
import { staticHost } from '../../test/browser/setup/static-host.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const DIST = join(ROOT, 'dist');
const MB = (b: number) => (b / 1e6).toFixed(2);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]));
}

function sizes(paths: string[]) {
  let raw = 0;
  let gz = 0;
  let br = 0;
  for (const p of paths) {
    const b = readFileSync(p);
    raw += b.length;
    gz += gzipSync(b, { level: 9 }).length;
    br += brotliCompressSync(b, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }).length;
  }
  return { raw, gz, br };
}

const suite: BenchSuite = {
  title: 'First visit: what the built site transfers',
  async run() {
    execFileSync('npx', ['vite', 'build', '--logLevel', 'error'], { cwd: ROOT, stdio: 'inherit' });
    if (!existsSync(join(DIST, 'index.html'))) throw new Error('vite build wrote no dist/index.html');
    const html = readFileSync(join(DIST, 'index.html'), 'utf8');
    // The page, what it links, and the service worker it registers (src/sw/sw.ts).
    const shell = [join(DIST, 'index.html'), ...[...html.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((m) => join(DIST, m[1])), join(DIST, 'sw.js')];
    const assets = files(join(DIST, 'assets'));
    const ortFiles = files(join(DIST, 'ort'));
    const plain = ortFiles.filter((p) => !p.includes('.asyncify.'));
    const asyncify = ortFiles.filter((p) => p.includes('.asyncify.'));
    const modelDir = join(DIST, 'models', 'organism-dialogue');
    const model = files(modelDir).filter((p) => !p.endsWith('model_q4.onnx') && !/model-card\.md|train_log\.json|planted\.json/.test(p));
    const rows: [string, string[]][] = [
      ['the page (index.html and what it links: the home page renders)', shell],
      ['every script and style of the app (all labs opened)', assets],
      ["onnxruntime-web's plain wasm build (what a worker on the wasm backend loads)", plain],
      ["onnxruntime-web's asyncify build (what a worker on WebGPU loads)", asyncify],
      ['the default model (organism-dialogue, fp32 ONNX with its config and tokenizer)', model],
    ];
    const visits: [string, string[]][] = [
      ['**a first visit that runs a lab on wasm** (page, scripts, plain build, model)', [...shell, ...assets, ...plain, ...model]],
      ['**a first visit that runs a lab on WebGPU** (page, scripts, asyncify build, model)', [...shell, ...assets, ...asyncify, ...model]],
    ];
    const lines = ['| what | files | raw MB | gzip MB | brotli MB |', '|---|---|---|---|---|'];
    for (const [what, p] of [...rows, ...visits]) {
      const unique = [...new Set(p)];
      const s = sizes(unique);
      lines.push(`| ${what} | ${unique.length} | ${MB(s.raw)} | ${MB(s.gz)} | ${MB(s.br)} |`);
    }
    const all = sizes(files(DIST));
    lines.push(
      '',
      `All of dist/ (every embedded model in both dtypes, which a visit only fetches when chosen): ${files(DIST).length} files, ${MB(all.raw)} MB raw, ${MB(all.gz)} MB gzip. Target for a first visit: ≤ 15 MB compressed.`,
    );
    lines.push('', ...(await firstVisitTimes()));
    return lines.join('\n');
  },
};

/**
 * Times of a first visit in headless Chromium, from a plain static host on loopback (no COOP/COEP, a fresh profile,
 * so no cache and no service worker yet): the home page rendered, a lab opened, and the default model loaded on wasm
 * from the Models page. Loopback has no network delay: these are the page's own costs; add the transfer of the
 * bytes above at the visitor's bandwidth.
 */
async function firstVisitTimes(): Promise<string[]> {
  const host = await staticHost('/lab/');
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: BASE_FLAGS });
  const rows: [string, number[]][] = [
    ['home page rendered (its heading visible)', []],
    ['a lab opened from it (Synchrony, its heading visible)', []],
    ['the default model loaded on wasm (Models page, Load → ready)', []],
  ];
  try {
    for (let round = 0; round < 3; round++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const t0 = performance.now();
      await page.goto(`${host.origin}/lab/`);
      await page.getByRole('heading', { name: 'Social Minds Lab', level: 1 }).waitFor();
      rows[0][1].push(performance.now() - t0);
      await page.getByRole('link', { name: 'Synchrony' }).first().click();
      await page.getByRole('heading', { name: 'Synchrony', level: 1 }).waitFor();
      rows[1][1].push(performance.now() - t0);
      await page.goto(`${host.origin}/lab/#/models`);
      const t1 = performance.now();
      await page
        .getByRole('radio', { name: /organism-dialogue|dialogue organism/i })
        .first()
        .check();
      await page.getByTestId('picker-load').click();
      await page
        .getByTestId('models')
        .filter({ hasText: /organism-dialogue \(wasm/ })
        .waitFor({ timeout: 120_000 });
      rows[2][1].push(performance.now() - t1);
      await context.close();
    }
  } finally {
    await browser.close();
    await host.close();
  }
  const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
  return [
    '| first visit, headless Chromium, loopback | median of 3 fresh profiles (s) | runs (s) |',
    '|---|---|---|',
    ...rows.map(([what, v]) => `| ${what} | ${(median(v) / 1000).toFixed(2)} | ${v.map((x) => (x / 1000).toFixed(2)).join(', ')} |`),
  ];
}
export default suite;
