/**
 * The installable app (src/sw/sw.ts) on a plain static host with no COOP/COEP headers, as GitHub Pages serves it:
 *  - after the first visit, the service worker makes the next load cross-origin isolated (wasm threads), and stores
 *    onnxruntime's wasm and the default model when asked (Models page; the page asks by itself when idle);
 *  - with the network off, a reload still opens the lab, and a run on the default model reaches its result;
 *  - a new build on the host is offered as an update ("Reload to use it"), and the stored runs survive it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launch } from './setup/browser';
import { runAndWait } from './setup/runs';
import { DIST, staticHost, type StaticHost } from './setup/static-host';
import { encodeLinkFragment, validateConfig } from '../../src/core/config';
import { synchronyLab } from '../../src/labs/synchrony/config';
import { listScenarios } from '../../src/labs/synchrony/scenarios/index';

const SUB = '/lab/';

/** Two short episodes on the default (precached) model. */
function shortRun(): string {
  const v = validateConfig(synchronyLab, {
    seed: 5,
    scenarios: [listScenarios()[0].id],
    pairingsPerScenario: 1,
    bothOrders: true,
    maxUtterancesPerAgent: 2,
    maxNewTokens: 16,
    runtime: { device: 'wasm', dtype: 'fp32' },
  });
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  return encodeLinkFragment(synchronyLab, v.value);
}

/** Waits until a service worker controls the page and has finished its install (the precache is complete). */
async function serviceWorkerReady(page: Page) {
  await page.waitForFunction(async () => Boolean((await navigator.serviceWorker.ready).active && navigator.serviceWorker.controller), undefined, {
    timeout: 60_000,
  });
}

describe('the installable app: isolated by its service worker, offline after one visit, updated on request', () => {
  let browser: Browser;
  let host: StaticHost;
  beforeAll(async () => {
    [browser, host] = await Promise.all([launch('wasm'), staticHost(SUB)]);
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
  });

  it('isolates the second load, runs a lab with the network off, and offers a new build without losing runs', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const base = `${host.origin}${SUB}`;

    // First visit: the host sends no COOP/COEP, so the page is not isolated yet; the service worker installs.
    await page.goto(base);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(false);
    await page
      .getByTestId('isolation')
      .filter({ hasText: /not cross-origin isolated/ })
      .waitFor();
    await serviceWorkerReady(page);
    // Store what a lab needs offline now (the page would do it by itself after half a minute idle).
    await page.goto(`${base}#/models`);
    await page.getByTestId('store-offline').click();
    await page.getByTestId('offline').filter({ hasText: 'Offline: ready' }).waitFor({ timeout: 60_000 });

    // Second load: served by the service worker with the headers, so isolated, with wasm threads.
    await page.reload();
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(true);
    await page
      .getByTestId('isolation')
      .filter({ hasText: /\d+ threads? of \d+ cores \(cross-origin isolated\)/ })
      .waitFor();

    // Network off: the lab opens from the cache and a run on the default model reaches its result.
    await context.setOffline(true);
    await page.goto(`${base}${shortRun()}`);
    await page.reload();
    await page.getByRole('heading', { name: 'Synchrony', level: 1 }).waitFor();
    const state = await runAndWait(page, 2, 120_000);
    expect(state.status).toBe('done');
    await page.getByTestId('sync-transcript').waitFor();

    // A new build on the host: the page offers it, and the stored run is still there after the reload into it.
    await context.setOffline(false);
    host.overrides.set('sw.js', Buffer.concat([readFileSync(resolve(DIST, 'sw.js')), Buffer.from('\n// a new build\n')]));
    await page.goto(`${base}#/runs`);
    await page.evaluate(async () => (await navigator.serviceWorker.ready).update());
    const banner = page.getByTestId('app-update');
    await banner.waitFor({ timeout: 60_000 });
    expect(await banner.textContent()).toContain('Your stored runs are kept.');
    await banner.getByRole('button', { name: 'Reload to use it' }).click();
    await page.waitForEvent('load');
    await page.getByRole('heading', { name: 'Runs', level: 1 }).waitFor();
    await page.locator(`tr[data-run-id="${state.id}"]`).waitFor();
    expect(await page.getByTestId('app-update').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
