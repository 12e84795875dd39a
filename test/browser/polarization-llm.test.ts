/**
 * The Polarization lab with LLM agents in Chromium (wasm), on the built app: a link opens the lab, Run loads the
 * embedded model in a worker and runs two epochs; P(t) and H(t) are plotted live, the result holds the series and
 * the echo-chamber table, and the view shows them with each agent's decisions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launch, openPage } from './setup/browser';
import { runAndWait, storedResult } from './setup/runs';
import { encodeLinkFragment } from '../../src/core/config';
import { validateConfig } from '../../src/core/config/validate';
import { polarizationLab } from '../../src/labs/polarization/config';
import type { EpochRow } from '../../src/labs/polarization/llm-runner';

describe('Polarization lab with LLM agents in Chromium (wasm)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch('wasm');
  });
  afterAll(() => browser?.close());

  it('runs two epochs of six agents on the Polarization organism from a link, beside its planted law', async () => {
    const checked = validateConfig(polarizationLab, { seed: 3, agents: 6, epochs: 2, agentKind: 'llm', model: 'organism-polarization', network: { generator: 'ring', degree: 2 }, llm: { initialPostShare: 0.5 }, runtime: { device: 'wasm', dtype: 'fp32' } });
    if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
    const { page, errors } = await openPage(browser, encodeLinkFragment(polarizationLab, checked.value));
    await page.getByRole('heading', { name: 'Polarization', level: 1 }).waitFor();
    const run = await runAndWait(page, 2, 120_000);
    const result = await storedResult<{ series: EpochRow[]; echo: unknown; calls: number }>(page, run.id!, 'polarization');
    expect(result.series.map((r) => r.epoch)).toEqual([0, 1, 2]);
    expect(result.calls).toBeGreaterThan(0);
    expect(result.echo).toBeTruthy();
    expect(await page.evaluate(() => document.querySelector('[data-run-status]')?.textContent ?? '')).toContain('wasm/fp32');
    // the view: the epochs, the echo-chamber table and each updating agent's decisions, with a CSV export
    await page.getByTestId('pol-results').waitFor();
    await expect.poll(() => page.getByTestId('pol-series').locator('tbody tr').count()).toBe(3);
    await page.getByTestId('pol-echo').waitFor();
    const agents = page.getByTestId('pol-agents').locator('tbody tr');
    expect(await agents.count()).toBeGreaterThan(0);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Agents CSV' }).click();
    const stream = await (await download).createReadStream();
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    const csv = Buffer.concat(chunks).toString('utf8');
    expect(csv.split('\n')[0]).toBe('epoch,agent,received,stance_before,stance_after,kept,dropped,wrote_to,failures,reasons');
    expect(csv.trim().split('\n').length).toBeGreaterThan(1);
    // The organism's planted keep-or-drop law beside the run's measured keep shares.
    await page.getByTestId('pol-planted').waitFor();
    expect(await page.getByTestId('pol-planted-keep').locator('tbody tr').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
