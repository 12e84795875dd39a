/**
 * Question screening in the page (issue 17, part 2): a link in screening mode runs on the Opinions organism, the view
 * ranks the screened questions by vote entropy, and one click turns the kept ones into a community config whose link
 * carries the ranked table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launch, openPage, runToEnd } from './setup/browser';
import { encodeLinkFragment } from '../../src/core/config/link';
import { opinionsLab } from '../../src/labs/opinions/config';
import { validateConfig } from '../../src/core/config/validate';

const RUN_TIMEOUT_MS = 120_000;

describe('opinions question screening in Chromium (wasm)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch('wasm');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('screens three questions, ranks them by entropy and runs the community on the kept two', async () => {
    const v = validateConfig(opinionsLab, {
      mode: 'screening',
      seed: 4,
      community: { questions: ['s01', 's02', 's03'] },
      screening: { agents: 4, samples: 4, keep: 2 },
    });
    if (!v.ok) throw new Error(JSON.stringify(v.errors));
    const { page, errors } = await openPage(browser, encodeLinkFragment(opinionsLab, v.value));
    await page.getByTestId('opinions-screening').waitFor();
    expect(await runToEnd(page, /^Run \(3 episodes\)/, RUN_TIMEOUT_MS)).toBe('done');

    const rows = await page
      .getByTestId('screening-table')
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')));
    expect(rows).toHaveLength(3);
    const entropies = rows.map((r) => Number(r[3]));
    expect(entropies.every((e) => e >= 0 && e <= 1)).toBe(true);
    expect(entropies).toEqual([...entropies].sort((a, b) => b - a));
    const kept = rows.filter((r) => r[6] === 'yes').map((r) => r[1].split(':')[0]);
    expect(kept).toHaveLength(2);
    await page.getByTestId('screening-chart').waitFor();

    await page.getByTestId('screening-use').click();
    await expect.poll(() => page.locator('#field-mode').inputValue()).toBe('community');
    const screened = page.getByTestId('community-screened');
    await screened.waitFor();
    expect(await screened.locator('summary').innerText()).toContain(kept.join(', '));
    // The link now carries the choice and the table.
    expect(page.url()).toContain('#/opinions?c=');
    expect(errors).toEqual([]);
  }, 180_000);
});
