/**
 * The built app (dist/) served by nginx with the project's own site config (deploy/nginx/social-minds-lab.conf),
 * started on loopback: the page is cross-origin isolated, so onnxruntime's wasm may run on several threads, and the
 * files come with the types and caching the config promises.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { launch } from './setup/browser';

const ROOT = resolve(import.meta.dirname, '../..');
const DIST = resolve(ROOT, process.env.SML_DIST ?? 'dist');
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => done(port));
    });
    s.on('error', fail);
  });
}

/** nginx in the foreground, with a main config of our own around the project's site config (its root and port set). */
async function startNginx(): Promise<{ proc: ChildProcess; origin: string }> {
  if (!NGINX) throw new Error('nginx is not installed (apt-get install nginx; .ci/run does it)');
  const dir = mkdtempSync(join(tmpdir(), 'sml-nginx-'));
  const port = await freePort();
  const site = readFileSync(resolve(ROOT, 'deploy/nginx/social-minds-lab.conf'), 'utf8')
    .replace(/^(\s*)listen\s+\d+;/m, `$1listen 127.0.0.1:${port};`)
    .replace(/^(\s*)root\s+[^;]+;/m, `$1root ${DIST};`);
  writeFileSync(join(dir, 'site.conf'), site);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${dir}/${t};`).join('\n  ');
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off;\nuser root;\nworker_processes 1;\npid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  include /etc/nginx/mime.types;\n  default_type application/octet-stream;\n  access_log ${dir}/access.log;\n  ${temp}\n  include ${dir}/site.conf;\n}\n`,
  );
  const proc = spawn(NGINX, ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr?.on('data', (d) => (stderr += d));
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (proc.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    const ok = await fetch(`${origin}/`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { proc, origin };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nginx did not answer: ${stderr}`);
}

describe('the built app on nginx with the project config', () => {
  let browser: Browser;
  let nginx: { proc: ChildProcess; origin: string };
  beforeAll(async () => {
    [browser, nginx] = await Promise.all([launch('wasm'), startNginx()]);
  });
  afterAll(async () => {
    await browser?.close();
    nginx?.proc.kill();
  });

  it('serves the files with their types, compression and caching', async () => {
    const index = await fetch(`${nginx.origin}/`);
    expect(index.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(index.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    const wasm = await fetch(`${nginx.origin}/ort/ort-wasm-simd-threaded.asyncify.wasm`, { headers: { 'accept-encoding': 'gzip' } });
    expect(wasm.headers.get('content-type')).toBe('application/wasm');
    expect(wasm.headers.get('content-encoding')).toBe('gzip');
    const mjs = await fetch(`${nginx.origin}/ort/ort-wasm-simd-threaded.asyncify.mjs`);
    expect(mjs.headers.get('content-type')).toBe('application/javascript');
    expect(mjs.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    expect((await fetch(`${nginx.origin}/nothing-here`)).status).toBe(404);
  });

  it('is cross-origin isolated, and a model loads with the wasm threads onnxruntime takes there', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${nginx.origin}/#/models`);
    expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(true);
    await page
      .getByTestId('isolation')
      .filter({ hasText: /\d+ threads? of \d+ cores \(cross-origin isolated\)/ })
      .waitFor();
    // The diagnostics load the embedded model on wasm: onnxruntime reports the threads it settled on, and the hidden
    // states still match PyTorch's.
    await page.getByTestId('diag-device').selectOption('wasm');
    await page.getByTestId('diag-dtype').selectOption('fp32');
    await page.getByTestId('diag-states-only').setChecked(true);
    await page.getByTestId('diag-run').click();
    const status = page.getByTestId('diag-status');
    await expect.poll(async () => status.getAttribute('data-status'), { timeout: 120_000, interval: 500 }).toMatch(/done|error/);
    expect(await status.getAttribute('data-status')).toBe('done');
    // Half the cores, up to four (one on a two-core machine); never the single-thread fallback of a page that is not isolated.
    const expected = await page.evaluate(() => Math.min(4, Math.ceil(navigator.hardwareConcurrency / 2)));
    const reason = (await page.getByTestId('diag-reason').textContent()) ?? '';
    expect(reason).toContain(`${expected} wasm thread`);
    expect(reason).not.toContain('not cross-origin isolated');
    expect(Number(await page.getByTestId('diag-max-abs-diff').getAttribute('data-value'))).toBeLessThan(1e-4);
    expect(errors).toEqual([]);
    await context.close();
  });
});
