/**
 * The built app from a sub-path of a plain static host (as GitHub Pages serves a project site: /<repo>/, no
 * COOP/COEP headers): the home page renders, a lab loads the embedded model through its worker and runs, a copied
 * link reopens the same config, and no request leaves the sub-path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launch } from './setup/browser';
import { runAndWait, storedResult } from './setup/runs';
import { staticHost, type StaticHost } from './setup/static-host';
import { encodeLinkFragment, validateConfig } from '../../src/core/config';
import { similarityLab } from '../../src/labs/similarity/config';

const SUB = '/lab/';

describe('the built app from a sub-path of a plain static host', () => {
  let browser: Browser;
  let host: StaticHost;
  beforeAll(async () => {
    [browser, host] = await Promise.all([launch('wasm'), staticHost(SUB)]);
  });
  afterAll(async () => {
    await browser?.close();
    await host?.close();
  });

  it('renders, runs a lab on the embedded model, reopens a copied link, and asks nothing outside the sub-path', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const requests: string[] = [];
    const failed: string[] = [];
    context.on('request', (r) => requests.push(r.url()));
    context.on('response', (r) => void (r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`)));
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));

    await page.goto(`${host.origin}${SUB}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.getByTestId('preset-synchrony').count()).toBe(1);

    // One model's CKA on a few probes: the model worker fetches the embedded model and onnxruntime's wasm.
    const checked = validateConfig(similarityLab, { seed: 3, models: ['tiny-social'], probes: { count: 8 }, runtime: { device: 'wasm', dtype: 'fp32' } });
    if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
    const link = `${host.origin}${SUB}${encodeLinkFragment(similarityLab, checked.value)}`;
    await page.goto(link);
    await page.getByRole('heading', { name: 'Similarity', level: 1 }).waitFor();
    const state = await runAndWait(page, 1, 120_000);
    expect(await page.evaluate(() => document.querySelector('[data-run-status]')?.textContent ?? '')).toContain('wasm/fp32');
    const result = await storedResult<unknown>(page, state.id!, 'similarity');
    expect(result).toBeTruthy();

    await context.grantPermissions(['clipboard-read', 'clipboard-write']).catch(() => undefined);
    await page.getByRole('button', { name: 'Copy link' }).click();
    const copied = await page
      .evaluate(() => navigator.clipboard.readText())
      .catch(async () => (await page.getByText('Copy this link:').textContent())!.replace('Copy this link: ', ''));
    expect(copied.startsWith(`${host.origin}${SUB}#/similarity?c=`)).toBe(true);
    const again = await context.newPage();
    await again.goto(copied);
    await again.getByRole('heading', { name: 'Similarity', level: 1 }).waitFor();
    expect(await again.getByRole('button', { name: /^Run \(1 episode\)/ }).count()).toBe(1);

    const outside = requests.filter((u) => !u.startsWith(`${host.origin}${SUB}`) && !u.startsWith('blob:') && !u.startsWith('data:'));
    expect(outside).toEqual([]);
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
