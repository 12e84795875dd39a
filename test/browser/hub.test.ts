/**
 * A hub model in the page, from a loopback server with the hub's URL layout (test/helpers/loopback-hub.ts) named as
 * the hub's address on the Models page: download progress, the model ready on wasm, a second load (after a reload)
 * from the browser's cache with no request, a 404 named plainly, a download cut halfway (a clear error, nothing
 * half-cached: the next load asks for the file again and succeeds), and a slow download cancelled by the user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launch, openPage } from './setup/browser';
import { loopbackHub, type LoopbackHub } from '../helpers/loopback-hub';

const STAND_IN = resolve(import.meta.dirname, '../../models/tiny-social');

async function loadHubModel(page: Page, id: string) {
  await page.getByRole('radio', { name: 'Any hub model' }).check();
  await page.getByTestId('picker-custom').fill(id);
  await page.getByTestId('model-picker').getByLabel('Backend').selectOption('wasm');
  await page.getByTestId('picker-load').click();
}

describe('hub models in the page, from a loopback hub', () => {
  let browser: Browser;
  let hub: LoopbackHub;
  beforeAll(async () => {
    [browser, hub] = await Promise.all([
      launch('wasm'),
      loopbackHub({ 'sml-test/tiny-social-hub': STAND_IN, 'sml-test/cut-model': STAND_IN, 'sml-test/slow-model': STAND_IN }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await hub?.close();
  });

  it('downloads with progress, loads from the cache the second time, and names a 404 and a cut download', async () => {
    const { page, errors } = await openPage(browser, '#/models');
    await page.getByTestId('hub-url').fill('javascript:alert(1)');
    await page.getByTestId('hub-url-save').click();
    await page.getByRole('alert').filter({ hasText: 'is not an http(s) address' }).waitFor();
    await page.getByTestId('hub-url').fill(hub.url);
    await page.getByTestId('hub-url-save').click();
    await page.getByTestId('hub-url-now').filter({ hasText: hub.url }).waitFor();

    await loadHubModel(page, 'sml-test/tiny-social-hub');
    await page.getByTestId('picker-progress').waitFor();
    await page
      .getByTestId('models')
      .filter({ hasText: 'sml-test/tiny-social-hub (wasm, q4)' })
      .waitFor({ timeout: 60_000 })
      .catch(async (e) => {
        const alerts = await page.locator('[role=alert]').allTextContents();
        const bar = await page.getByTestId('models').textContent();
        throw new Error(
          `${(e as Error).message}\nalerts: ${alerts.join(' | ')}\nstatus: ${bar}\nrequests: ${hub.requests.join(', ')}\nerrors: ${errors.join(' | ')}`,
        );
      });
    expect(hub.requests).toContain('GET /sml-test/tiny-social-hub/resolve/main/config.json');
    expect(hub.requests).toContain('GET /sml-test/tiny-social-hub/resolve/main/onnx/model_q4.onnx');

    // A fresh page (the setting is remembered): the second load comes from the browser's cache.
    hub.requests.length = 0;
    await page.reload();
    await page.getByTestId('hub-url-now').filter({ hasText: hub.url }).waitFor();
    await loadHubModel(page, 'sml-test/tiny-social-hub');
    await page.getByTestId('models').filter({ hasText: 'sml-test/tiny-social-hub (wasm, q4)' }).waitFor({ timeout: 60_000 });
    expect(hub.requests).toEqual([]);

    await loadHubModel(page, 'sml-test/nothing-here');
    await page
      .getByRole('alert')
      .filter({ hasText: /sml-test\/nothing-here.*a file is missing \(404\)/ })
      .waitFor({ timeout: 30_000 });

    hub.faults.set('onnx/model_q4.onnx', 'cut');
    await loadHubModel(page, 'sml-test/cut-model');
    await page
      .getByRole('alert')
      .filter({ hasText: /sml-test\/cut-model": a download stopped before its file was complete/ })
      .waitFor({ timeout: 30_000 })
      .catch(async (e) => {
        throw new Error(`${(e as Error).message}\nalerts: ${(await page.locator('[role=alert]').allTextContents()).join(' | ')}`);
      });
    hub.faults.clear();
    hub.requests.length = 0;
    await loadHubModel(page, 'sml-test/cut-model');
    await page.getByTestId('models').filter({ hasText: 'sml-test/cut-model (wasm, q4)' }).waitFor({ timeout: 60_000 });
    expect(hub.requests).toContain('GET /sml-test/cut-model/resolve/main/onnx/model_q4.onnx');
    expect(errors.filter((e) => !/Failed to load resource|404/.test(e))).toEqual([]);
    await page.context().close();
  });

  it('a slow download can be cancelled: its worker stops, nothing is kept, and the next load succeeds', async () => {
    const { page, errors } = await openPage(browser, '#/models');
    await page.getByTestId('hub-url').fill(hub.url);
    await page.getByTestId('hub-url-save').click();
    await page.getByTestId('hub-url-now').filter({ hasText: hub.url }).waitFor();
    hub.faults.set('onnx/model_q4.onnx', 250); // 64 KB every 250 ms: about a minute for the whole file
    await loadHubModel(page, 'sml-test/slow-model');
    await page.getByTestId('picker-progress').filter({ hasText: /of/ }).waitFor({ timeout: 30_000 });
    await page.getByTestId('picker-cancel').click();
    await page.getByTestId('picker-stopped').filter({ hasText: 'Stopped loading sml-test/slow-model' }).waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('picker-progress').count()).toBe(0);
    expect(await page.getByTestId('models').textContent()).not.toContain('slow-model');

    hub.faults.clear();
    hub.requests.length = 0;
    await loadHubModel(page, 'sml-test/slow-model');
    await page.getByTestId('models').filter({ hasText: 'sml-test/slow-model (wasm, q4)' }).waitFor({ timeout: 60_000 });
    // Nothing of the stopped download was cached: the file is fetched again, whole.
    expect(hub.requests).toContain('GET /sml-test/slow-model/resolve/main/onnx/model_q4.onnx');
    expect(errors.filter((e) => !/Failed to load resource/.test(e))).toEqual([]);
    await page.context().close();
  });
});
