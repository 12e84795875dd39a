/**
 * A teacher's first minute: from the home page, each lab's preset is one click; the run starts by itself, its
 * "what to notice" caption is on screen, and the figure that carries the effect appears. The time from the click
 * to that figure is logged (the closing note and docs/benchmarks.md quote it); the limit here only catches a
 * preset that hangs. A teacher link with hidden settings opens in a fresh page on the same numbers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, openPage, waitFor } from './setup/browser';
import { runState, storedResult } from './setup/runs';
import { LAB_NAMES, type LabName } from '../../src/core/config/lab-definition';

/** The figure of each lab that shows its effect once the preset's run is done. */
const EFFECT: Record<LabName, string> = {
  synchrony: 'sync-compare-conditions',
  similarity: 'sim-games',
  opinions: 'fit-results',
  polarization: 'pol-results',
};

async function finished(page: Page, timeoutMs: number) {
  await waitFor(page, async () => ['done', 'failed'].includes((await runState(page)).status ?? ''), timeoutMs);
  const state = await runState(page);
  expect(
    state.status,
    await page
      .locator('[role=alert]')
      .allTextContents()
      .then((t) => t.join(' | ')),
  ).toBe('done');
  return state;
}

/**
 * The Polarization preset's run, read as a researcher would (this replaced a separate LLM-agents test): the lab's
 * stored series, the echo-chamber table, every updating agent's decisions with their CSV, and the organism's planted
 * keep-or-drop law beside the run's own keep shares.
 */
async function polarizationResults(page: Page) {
  const run = await runState(page);
  const result = await storedResult<{ series: { epoch: number }[]; echo: unknown; calls: number }>(page, run.id!, 'polarization');
  expect(result.series.map((r) => r.epoch)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  expect(result.calls).toBeGreaterThan(0);
  expect(result.echo).toBeTruthy();
  expect(await page.evaluate(() => document.querySelector('[data-run-status]')?.textContent ?? '')).toContain('wasm/fp32');
  await expect.poll(() => page.getByTestId('pol-series').locator('tbody tr').count()).toBe(7);
  await page.getByTestId('pol-echo').waitFor();
  expect(await page.getByTestId('pol-agents').locator('tbody tr').count()).toBeGreaterThan(0);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Agents CSV' }).click();
  const stream = await (await download).createReadStream();
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  const csv = Buffer.concat(chunks).toString('utf8');
  expect(csv.split('\n')[0]).toBe('epoch,agent,received,stance_before,stance_after,kept,dropped,wrote_to,failures,reasons');
  expect(csv.trim().split('\n').length).toBeGreaterThan(1);
  // The opinion map over the network, the distribution and link-level homophily, at the last epoch and then the first.
  await page.getByTestId('pol-map').waitFor();
  expect(await page.getByTestId('pol-map').locator('circle').count()).toBeGreaterThan(5);
  expect(await page.getByTestId('pol-link-levels').locator('tbody tr').count()).toBe(5);
  const mapSummary = () => page.getByTestId('pol-map').getByTestId('figure-summary').textContent();
  expect(await mapSummary()).toMatch(/^Epoch 6: \d+ agents, \d+ links, H = /);
  await page.getByTestId('pol-map-epoch').fill('1');
  await expect.poll(mapSummary).toMatch(/^Epoch 1: /);
  await page.getByTestId('pol-distribution').waitFor();
  await page.getByTestId('pol-planted').waitFor();
  expect(await page.getByTestId('pol-planted-keep').locator('tbody tr').count()).toBeGreaterThan(0);
}

describe('presets from the home page (Chromium, wasm)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch('wasm');
  });
  afterAll(() => browser?.close());

  it.each(LAB_NAMES.map((n) => [n]))('%s: one click shows the effect and says what to notice', { timeout: 480_000 }, async (lab) => {
    const { page, errors } = await openPage(browser, '');
    const show = page.getByTestId(`preset-${lab}`);
    await show.waitFor();
    const t0 = Date.now();
    await show.click();
    await page.getByTestId('preset-caption').waitFor();
    expect((await page.getByTestId('preset-caption').textContent())?.length).toBeGreaterThan(80);
    // The guided tour walks its steps and ends.
    await page.getByRole('button', { name: /^Take the guided tour/ }).click();
    await expect.poll(() => page.getByTestId('preset-tour').textContent()).toMatch(/^Step 1 of \d/);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => page.getByTestId('preset-tour').textContent()).toMatch(/^Step 2 of/);
    const run = await finished(page, 420_000);
    await page.getByTestId(EFFECT[lab]).waitFor({ timeout: 60_000 });
    // Synchrony's view draws its own analysis as episodes land; the effect is shown once it covers every episode.
    if (lab === 'synchrony') {
      await page.locator(`[data-testid=sync-analysis-status][data-analyzing=false][data-episodes="${run.done}"]`).waitFor({ timeout: 120_000 });
    }
    console.log(`preset ${lab}: effect figure after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    if (lab === 'polarization') await polarizationResults(page);
    if (lab === 'synchrony') {
      // The dialogue organism's planted synchrony: real above the passive reader and each lag (tiny-social: 0 = 0).
      const table = page.getByTestId('sync-planted-table');
      await table.waitFor();
      const diffs = await table.locator('tbody tr[data-condition] td:nth-child(3)').allTextContents();
      console.log(
        `preset synchrony: real − control ${diffs.join(', ')}; in SEs ${(await table.locator('tbody tr[data-condition] td:nth-child(4)').allTextContents()).join(', ')}`,
      );
      expect(diffs.length).toBeGreaterThanOrEqual(2);
      for (const d of diffs) expect(Number(d)).toBeGreaterThan(0);
      // The run's status line says the sampling the organism asked for itself, which every turn got.
      expect(await page.getByTestId('run-sampling').textContent()).toMatch(
        /organism-dialogue at prompt boost 1\.2 and min-p 0\.2, with 22 token sequences banned/,
      );
    }
    if (lab === 'similarity') {
      // The Similarity population's planted lexicons: pairs on one lexicon guess each other's words, pairs across do not.
      const words = page.getByTestId('sim-planted-words');
      await words.waitFor();
      const cells = await words.locator('td').allTextContents();
      const slopes = await page.getByTestId('sim-planted-slopes').locator('tbody tr').allTextContents();
      console.log(`preset similarity: words matched within / across ${cells[3]} / ${cells[4]}; ${slopes.join(' | ')}`);
      expect(Number(cells[3])).toBeGreaterThan(Number(cells[4]) + 2);
      // The lab's regressions find both planted signs (checked here, on the run a class sees, instead of on a second,
      // headless run of nearly the same study): CKA higher within a lexicon, stories less unique there.
      const cka = await page.getByTestId('sim-planted-table').locator('tbody tr').first().locator('td').allTextContents();
      expect(Number(cka[3])).toBeGreaterThan(Number(cka[4]));
      const stories = await page.getByTestId('sim-planted-stories').locator('td').allTextContents();
      expect(Number(stories[4])).toBeGreaterThan(Number(stories[3]));
      const recovered = await page.getByTestId('sim-planted-slopes').locator('tbody tr td:nth-child(5)').allTextContents();
      expect(recovered).toEqual(['yes', 'yes']);
    }
    // Every figure carries a one-line summary (its text alternative); after a run, at least one states numbers.
    const summaries = await page.getByTestId('figure-summary').allTextContents();
    expect(summaries.length).toBeGreaterThan(0);
    expect(
      summaries.some((t) => /\d/.test(t) && !/^No (values|points) yet/.test(t)),
      summaries.join(' | '),
    ).toBe(true);
    // SCREENSHOTS=<folder>: the README's pictures of each preset's result (the caption and the effect figure).
    if (process.env.SCREENSHOTS) {
      // The run bar (sticky) and the status bar (fixed) would lie across an element's picture.
      await page.addStyleTag({ content: '.runbar { position: static !important } footer.status { display: none !important }' });
      await page.getByTestId('preset-caption').screenshot({ path: `${process.env.SCREENSHOTS}/preset-${lab}-caption.png` });
      // The last analysis may still be redrawing the figure: let it settle before its picture.
      await page.getByTestId(EFFECT[lab]).scrollIntoViewIfNeeded();
      await page.waitForTimeout(2_000);
      await page.getByTestId(EFFECT[lab]).screenshot({ path: `${process.env.SCREENSHOTS}/preset-${lab}.png` });
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('the Synchrony lab’s second preset, "Hidden feelings", shows A’s state predicting B’s next feeling', { timeout: 480_000 }, async () => {
    const { page, errors } = await openPage(browser, '#/synchrony');
    const t0 = Date.now();
    await page.getByRole('region', { name: 'Presets' }).getByRole('button', { name: 'Hidden feelings' }).click();
    await page.getByTestId('preset-caption').waitFor();
    if ((await runState(page)).status === null) await page.getByRole('button', { name: /^Run \(/ }).click();
    const run = await finished(page, 420_000);
    await page.locator(`[data-testid=sync-analysis-status][data-analyzing=false][data-episodes="${run.done}"]`).waitFor({ timeout: 120_000 });
    const next = page.getByTestId('sync-decoding-table').locator('tr[data-curve="ab-emotion-next"] td');
    const [gain, z] = [await next.nth(7).textContent(), await next.nth(8).textContent()];
    console.log(`preset hidden feelings: decoding after ${((Date.now() - t0) / 1000).toFixed(1)} s; A→B next feeling gain ${gain}, ${z} SE`);
    // The organism's planted emotion law: the first speaker's state holds its partner's coming feeling.
    expect(Number(gain?.split(' ± ')[0])).toBeGreaterThan(0);
    expect(Number(z)).toBeGreaterThanOrEqual(2);
    await page.getByTestId('sync-decoding-planted').waitFor();
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a teacher link can lock the settings and hide chosen groups; an unknown group is reported, not obeyed', async () => {
    const { page } = await openPage(browser, '#/opinions');
    await page.getByLabel('the settings locked (read-only)').check();
    await page.getByRole('checkbox', { name: 'runtime', exact: true }).check();
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'])
      .catch(() => undefined);
    await page.getByRole('button', { name: 'Copy link' }).click();
    const link = await page
      .evaluate(() => navigator.clipboard.readText())
      .catch(async () => (await page.getByText('Copy this link:').textContent())!.replace('Copy this link: ', ''));
    expect(link).toMatch(/&hide=runtime&lock=1$/);
    const fresh = await browser.newContext();
    const student = await fresh.newPage();
    await student.goto(link);
    await student.getByTestId('settings-locked').waitFor();
    const form = student.locator('form.schema-form');
    expect(await form.locator('input, select, textarea').count()).toBeGreaterThan(3);
    expect(await form.locator('input:enabled, select:enabled, textarea:enabled').count()).toBe(0);
    expect(await form.locator('legend', { hasText: /^Runtime$/ }).count()).toBe(0);
    expect(await form.locator('legend', { hasText: /^General$/ }).count()).toBe(1);
    expect(await student.getByRole('region', { name: 'Presets' }).count()).toBe(0);
    expect(await student.getByRole('button', { name: 'Reset to defaults' }).count()).toBe(0);
    await student.goto(link.replace('hide=runtime', 'hide=runtime,nosuchgroup'));
    await student.getByText('this lab has no settings group named "nosuchgroup"').waitFor();
    await fresh.close();
    await page.close();
  });

  it('a teacher link hides the settings, starts the run, and gives the same numbers in a fresh page', async () => {
    // The classic coevolving-voter model (no language model): the link's mechanics, not a model's speed, are tested.
    const { page } = await openPage(browser, '#/polarization');
    await page.getByRole('button', { name: /^Run \(/ }).click();
    const first = await finished(page, 120_000);
    await page.getByLabel('the settings hidden').check();
    await page.getByLabel('the run started on opening').check();
    await page
      .context()
      .grantPermissions(['clipboard-read', 'clipboard-write'])
      .catch(() => undefined);
    await page.getByRole('button', { name: 'Copy link' }).click();
    const link = await page
      .evaluate(() => navigator.clipboard.readText())
      .catch(async () => (await page.getByText('Copy this link:').textContent())!.replace('Copy this link: ', ''));
    expect(link).toMatch(/&hide=settings&run=1$/);
    const firstResult = await storedResult<{ series: unknown[] }>(page, first.id!, 'polarization');
    expect(firstResult.series.length).toBeGreaterThan(2);

    const fresh = await browser.newContext();
    const student = await fresh.newPage();
    await student.goto(link);
    await student.getByRole('heading', { name: 'Polarization', level: 1 }).waitFor();
    const second = await finished(student, 120_000);
    expect(await student.locator('#settings-title').count()).toBe(0);
    expect(await student.getByRole('button', { name: 'Show the settings' }).count()).toBe(1);
    const secondResult = await storedResult<{ series: unknown[] }>(student, second.id!, 'polarization');
    expect(secondResult.series).toEqual(firstResult.series);
    await fresh.close();
    await page.close();
  });
});
