/**
 * The Polarization mechanism experiments in the page (issue 17, part 6): a link with a small sweep runs on the
 * Polarization organism and the results show P and H per condition with SE, as plots and a table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launch, openPage, runToEnd } from './setup/browser';
import { encodeLinkFragment } from '../../src/core/config/link';
import { polarizationLab } from '../../src/labs/polarization/config';
import { validateConfig } from '../../src/core/config/validate';

const RUN_TIMEOUT_MS = 150_000;

describe('polarization mechanism experiments in Chromium (wasm)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch('wasm');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('runs a sweep of a trait share and an elite stance over two seeds and plots P and H per condition', async () => {
    const v = validateConfig(polarizationLab, {
      seed: 2,
      agents: 6,
      epochs: 2,
      agentKind: 'llm',
      network: { generator: 'ring', degree: 2 },
      llm: { eliteShare: 0.34 },
      mechanisms: { enabled: true, traits: ['confirmationBias'], traitShares: [0.5], eliteStances: ['neutral'], seeds: 2, readFrom: 1 },
    });
    if (!v.ok) throw new Error(JSON.stringify(v.errors));
    const { page, errors } = await openPage(browser, encodeLinkFragment(polarizationLab, v.value));
    expect(await runToEnd(page, /^Run \(8 episodes\)/, RUN_TIMEOUT_MS)).toBe('done');
    const table = page.getByTestId('pol-mechanisms-table');
    await table.waitFor({ timeout: 30_000 });
    const rows = await table
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')));
    expect(rows.map((r) => [r[0], r[1]])).toEqual([
      ['confirmation bias 50 %', '2'],
      ['neutral elite', '2'],
    ]);
    for (const r of rows) expect(Number(r[2])).toBeGreaterThanOrEqual(0);
    await page.getByTestId('pol-mechanisms-P').waitFor();
    await page.getByTestId('pol-mechanisms-H').waitFor();
    expect(errors).toEqual([]);
  }, 200_000);
});
