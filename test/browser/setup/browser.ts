import { chromium, type Browser, type Page, type ConsoleMessage } from 'playwright-core';
import { inject, it } from 'vitest';

import { BASE_FLAGS, CHROMIUM, WEBGPU_FLAGS } from './chromium';

export { CHROMIUM };

export type Flavour = 'webgpu' | 'wasm';
/** Browser tests run once per flavour: with --enable-unsafe-webgpu (SwiftShader) and without. */
export const FLAVOURS: Flavour[] = ['webgpu', 'wasm'];

/** `it`, for a test inside a per-flavour block whose code does not depend on the flavour: it runs once, on wasm. */
export const onceOnWasm = (flavour: Flavour) => it.runIf(flavour === 'wasm');

export async function launch(flavour: Flavour): Promise<Browser> {
  const args = flavour === 'webgpu' ? [...BASE_FLAGS, ...WEBGPU_FLAGS, '--use-angle=swiftshader'] : BASE_FLAGS;
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args });
}

export function baseUrl(): string {
  return inject('baseUrl');
}

/** Opens a page that records console errors and uncaught exceptions, so tests can assert there were none. */
export async function openPage(browser: Browser, path = ''): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(baseUrl() + path);
  return { page, errors };
}

/** Polls `check` until it holds, for states a locator cannot express (values inside the page). */
export async function waitFor(page: Page, check: () => Promise<boolean>, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await page.waitForTimeout(100);
  }
  throw new Error('timed out waiting');
}

/** Presses the lab's Run button (its label, e.g. /^Run \(3 episodes\)/) and waits for the run to end; returns its status. */
export async function runToEnd(page: Page, button: RegExp, timeoutMs = 120_000): Promise<string> {
  await page.getByRole('button', { name: button }).click();
  const status = async () => (await page.locator('[data-run-status]').getAttribute('data-run-status')) ?? '';
  await waitFor(page, async () => ['done', 'failed', 'cancelled', 'interrupted'].includes(await status()), timeoutMs);
  return status();
}

/** The trimmed text of the element with data-testid `testid` ('' when it has none). */
export async function textOf(page: Page, testid: string): Promise<string> {
  return (await page.getByTestId(testid).textContent())?.trim() ?? '';
}
