/**
 * The bench/gpu page, built and served cross-origin isolated by `vite preview`, with headless Chromium open on it:
 * shared by the browser suites (runtime-browser.ts, grids-browser.ts). Needs /usr/bin/chromium (CHROMIUM_PATH).
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { preview } from 'vite';
import { CHROMIUM } from '../test/browser/setup/chromium.ts';

const root = resolve(import.meta.dirname, '..');
const pageDir = resolve(root, 'bench/gpu');

/** Builds the page, serves it, launches Chromium with `flags`, and hands `use` the browser and the page's URL. */
export async function withBenchPage<T>(flags: string[], use: (browser: Browser, url: string) => Promise<T>): Promise<T> {
  execFileSync(
    process.execPath,
    [resolve(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', resolve(pageDir, 'vite.config.ts'), '--logLevel', 'warn'],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
      cwd: root,
    },
  );
  const server = await preview({
    root: pageDir,
    configFile: resolve(pageDir, 'vite.config.ts'),
    preview: { port: 0, host: '127.0.0.1', strictPort: false },
    logLevel: 'warn',
  });
  try {
    const address = server.httpServer.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: flags });
    try {
      return await use(browser, `http://127.0.0.1:${address.port}/`);
    } finally {
      await browser.close().catch(() => {});
    }
  } finally {
    await new Promise<void>((done) => server.httpServer.close(() => done()));
  }
}
