/**
 * The LLM community run in the page, on the default model organism-opinions (wasm): N = 4, T = 1, K = 2 on a drawn graph. The run is
 * stored round by round, the live view shows the parse counts and the inspector, and the personas panel refuses a
 * hostile import.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baseUrl, launch, openPage, waitFor } from './setup/browser';
import { controllerEpisodes } from './setup/runs';
import { defaultConfig, encodeLinkFragment } from '../../src/core/config';
import { opinionsLab } from '../../src/labs/opinions/config';

function communityLink(): string {
  const c = defaultConfig(opinionsLab);
  c.mode = 'community';
  c.seed = 3;
  c.custom = { nodes: 4, edges: '0+1,1+2,2-3,0+3' };
  c.community.rounds = 1;
  c.community.votesPerRound = 2;
  c.community.questionId = 'o03';
  c.runtime.device = 'wasm';
  c.runtime.dtype = 'fp32';
  return encodeLinkFragment(opinionsLab, c);
}

describe('opinions community run in Chromium (wasm)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch('wasm');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('runs N=4, T=1, K=2 on the Opinions organism, shows parse counts, the planted law and the inspector, and refuses a hostile persona file', async () => {
    const { page, errors } = await openPage(browser, communityLink());
    await page.getByTestId('personas-panel').waitFor();
    expect(await page.getByTestId('q-o03').isChecked()).toBe(true);
    expect(await page.getByTestId('assignment').locator('select').count()).toBe(4);

    await page.getByRole('button', { name: /^Run \(2 episodes\)/ }).click();
    await waitFor(page, async () => (await page.locator('[data-run-status]').getAttribute('data-run-status')) === 'done', 180_000);
    const votes = (await page.getByTestId('vote-parse').textContent()) ?? '';
    expect(votes).toMatch(/^\d+\/16 /);
    expect((await page.getByTestId('message-parse').textContent()) ?? '').toMatch(/\d+\/\d+ attempts; \d+ undelivered/);
    // The default model is the organism: the view states its planted law, and says it was planted for K = 5.
    const plantedBox = ((await page.getByTestId('community-planted').textContent()) ?? '').replace(/\s+/g, ' ');
    expect(plantedBox).toMatch(/organism-opinions was trained so that/);
    expect(plantedBox).toMatch(/\+1\.0 × \(friends' stances\) −0\.5 × \(rivals' stances\)/);
    expect(plantedBox).toMatch(/planted for K = 5 at temperature 0\.7/);

    await page.getByTestId('inspect-agent').selectOption('1');
    const inspector = page.getByTestId('community-inspector');
    await expect.poll(async () => (await inspector.textContent()) ?? '').toMatch(/Agent 1/);
    const text = (await inspector.textContent()) ?? '';
    expect(text).toMatch(/Votes \(\d unparsed\)/);
    expect(text).toMatch(/Friendly inbox \(\d\)/);
    expect(text).toMatch(/You are an expert who has solved this other problem/);
    expect(await inspector.locator('ol.votes li').count()).toBe(2);

    const dir = mkdtempSync(join(tmpdir(), 'sets-'));
    const file = join(dir, 'hostile.json');
    writeFileSync(file, JSON.stringify({ personas: [{ id: 'x', text: '<img src=x onerror=alert(1)>' }] }));
    await page.getByTestId('sets-import').setInputFiles(file);
    await expect.poll(async () => (await page.getByTestId('sets-message').textContent()) ?? '').toMatch(/Import refused/);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('switching to community on the default 64×64 lattice says why it cannot run, and one click gives a graph that can', async () => {
    const c = defaultConfig(opinionsLab);
    c.mode = 'community';
    const { page, errors } = await openPage(browser, encodeLinkFragment(opinionsLab, c));
    await page.getByText('4096 agents is too large').first().waitFor();
    await page.getByTestId('small-graph').click();
    await page.getByRole('button', { name: 'Run (9 episodes)' }).waitFor();
    expect(await page.getByTestId('assignment').locator('select').count()).toBe(16);
    expect(errors).toEqual([]);
  });

  it('a community run reloaded mid-trajectory resumes at the next round and repeats the uninterrupted run exactly', async () => {
    const c = defaultConfig(opinionsLab);
    c.mode = 'community';
    c.seed = 9;
    c.custom = { nodes: 4, edges: '0+1,1-2,2+3' };
    c.community.rounds = 4;
    c.community.votesPerRound = 2;
    c.community.questionId = 's02';
    c.runtime.device = 'wasm';
    c.runtime.dtype = 'fp32';
    const link = encodeLinkFragment(opinionsLab, c);
    const status = (page: Page) =>
      page.evaluate(() => {
        const el = document.querySelector('[data-run-status]');
        const text = el?.querySelector('[role=progressbar]')?.getAttribute('aria-label') ?? '';
        return { status: el?.getAttribute('data-run-status') ?? null, done: Number(/^(\d+)/.exec(text)?.[1] ?? 0) };
      });
    const records = async (page: Page) => JSON.stringify((await controllerEpisodes(page)).map((e) => [e.index, e.records.map((r) => ({ ...r, seconds: 0 }))]));

    const { page, errors } = await openPage(browser, link);
    await page.getByRole('button', { name: /^Run \(5 episodes\)/ }).click();
    await waitFor(page, async () => (await status(page)).done >= 2, 120_000);
    await page.reload();
    await page.goto(`${baseUrl()}#/runs`);
    const row = page.locator('tr[data-run-id]').first();
    await row.getByText('interrupted').waitFor();
    const storedBefore = Number((await row.locator('td').nth(3).textContent())!.split('/')[0]);
    expect(storedBefore).toBeGreaterThanOrEqual(2);
    expect(storedBefore).toBeLessThan(5);
    await row.getByRole('button', { name: 'Resume' }).click();
    await waitFor(page, async () => (await status(page)).status === 'done', 180_000);
    // The community view follows the resumed run even though the runs page opened the lab's default config.
    await page.getByTestId('community-view').getByText('Round 4 of 4').waitFor();
    const resumed = await records(page);

    const firstId = await page.locator('[data-run-id]').getAttribute('data-run-id');
    await page.goto(`${baseUrl()}${link}`);
    await page.getByRole('button', { name: /^Run \(5 episodes\)/ }).click();
    const runId = () => page.locator('[data-run-id]').getAttribute('data-run-id');
    await waitFor(page, async () => (await runId()) !== firstId && (await status(page)).status === 'done', 180_000);
    const fresh = await records(page);
    expect(JSON.parse(resumed).length).toBe(5);
    expect(resumed).toBe(fresh);
    expect(errors).toEqual([]);
  });
});
