// The Fit panel in Chromium: import a generated trajectory file, fit in the compute worker, see the tables; a hostile
// file is refused with a message and nothing of it becomes markup.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, openPage, waitFor } from './setup/browser';
import { syntheticTrajectories } from '../../src/labs/opinions/synthetic-trajectories';
import { trajectoriesToJson } from '../../src/labs/opinions/trajectory-io';
import { TRAJECTORY_FORMAT } from '../../src/labs/opinions/trajectory';
import { defaultConfig, encodeLinkFragment } from '../../src/core/config';
import { opinionsLab } from '../../src/labs/opinions/config';

const dir = mkdtempSync(join(tmpdir(), 'fit-'));
const truth = { kind: 'three' as const, betaPlus: 0.5, betaMinus: 0.6, beta0: 0.3 };
const good = join(dir, 'trajectories.json');
writeFileSync(
  good,
  trajectoriesToJson(
    syntheticTrajectories({ couplings: truth, seed: 'browser', graphs: 3, questions: 3, episodes: 2, agents: 24, rounds: 6, objective: true }),
  ),
);
const hostile = join(dir, 'hostile.json');
writeFileSync(
  hostile,
  JSON.stringify({
    format: TRAJECTORY_FORMAT,
    trajectories: [
      {
        id: 't',
        question: { id: 'q', kind: 'subjective', text: '<img src=x onerror="window.__pwned=1">' },
        graphId: 'g',
        graph: { n: 2, edges: [] },
        voteMeans: [
          [1, -1],
          [1, 1],
        ],
      },
    ],
  }),
);

// One flavour: the fit runs in the compute worker on the CPU either way.
describe('opinions Fit panel in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch('wasm');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('imports a trajectory file, fits, and shows the coefficient and accuracy tables', async () => {
    const { page, errors } = await openPage(browser, '#/opinions');
    const panel = page.getByTestId('fit-panel');
    await panel.scrollIntoViewIfNeeded();

    await page.getByTestId('fit-import').setInputFiles(hostile);
    await page
      .getByTestId('fit-message')
      .filter({ hasText: /Import refused: .*question\.text.*markup/ })
      .waitFor();
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

    await page.getByTestId('fit-import').setInputFiles(good);
    await page.getByTestId('fit-summary').waitFor();
    expect(await page.getByTestId('fit-summary').innerText()).toBe('18 trajectories, 3 questions (18 objective), 3 graphs, N = 24, T = 6, 16 field features.');
    const t0 = Date.now();
    await page.getByTestId('fit-run').click();
    await page.getByTestId('fit-table-coefficients').waitFor({ timeout: 180_000 });
    const seconds = (Date.now() - t0) / 1000;
    const coef = await page.getByTestId('fit-table-coefficients').innerText();
    expect(coef).toMatch(/friendly \(β⁺\+β₀\)/);
    expect(coef).toMatch(/Glauber, 5 couplings/);
    expect(coef).toMatch(/Continuous ε form/);
    const rows = await page.getByTestId('fit-table-accuracy').locator('tbody tr').allInnerTexts();
    const ba = (split: string, model: string) => {
      const row = rows.find((r) => r.startsWith(split) && r.includes(model))!;
      return Number(row.split('\t')[3]);
    };
    for (const split of ['in-distribution', 'held-out questions', 'held-out graphs']) {
      expect(ba(split, 'Persistence')).toBe(50);
      expect(ba(split, 'Glauber, 3 couplings')).toBeGreaterThan(60);
    }
    // The friendly weight of the three-coupling fit on all trajectories (true 0.8; small data, so a loose bound).
    const three = (await page.getByTestId('fit-table-coefficients').locator('tbody tr').allInnerTexts()).find(
      (r) => r.startsWith('all trajectories') && r.includes('3 couplings'),
    )!;
    console.log(
      `Fit panel: ${seconds.toFixed(1)} s; ${three.replace(/\t+/g, ' | ')}; in-distribution BA: Glauber-3 ${ba('in-distribution', 'Glauber, 3 couplings')}, Persistence ${ba('in-distribution', 'Persistence')}`,
    );
    await page.getByTestId('fit-table-archetypes-individual').waitFor();
    await page.getByTestId('fit-table-correctness').waitFor();
    await page.getByTestId('fit-plot-accuracy').locator('rect').nth(2).waitFor();
    // The fitted law goes to the simulator's settings.
    await page.getByRole('button', { name: 'Use the 3-coupling fit in the simulator' }).click();
    await page.getByText(/The simulator now uses β⁺ = 0\.53\d+, β⁻ = 0\.52\d+, β₀ = 0\.27\d+, 𝒯 = 1/).waitFor();
    // CSV behind a table.
    const download = page.waitForEvent('download');
    await page.getByTestId('fit-table-accuracy').getByRole('button', { name: 'CSV' }).click();
    expect((await download).suggestedFilename()).toBe('fit-accuracy.csv');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('fits a stored simulation run, replayed from its seed', async () => {
    const c = defaultConfig(opinionsLab);
    c.graph.generator = 'random';
    c.graph.agents = 20;
    c.graph.edgeBudget = 50;
    c.dynamics.steps = 30;
    c.dynamics.replicas = 3;
    const { page, errors } = await openPage(browser, encodeLinkFragment(opinionsLab, c));
    await page.getByRole('button', { name: 'Run (3 episodes)' }).click();
    await page.locator('[data-run-status="done"]').waitFor({ timeout: 60_000 });
    const panel = page.getByTestId('fit-panel');
    await panel
      .getByRole('button', { name: /refresh/i })
      .first()
      .click();
    const runId = await page.locator('[data-run-id]').getAttribute('data-run-id');
    await panel.getByRole('checkbox', { name: new RegExp(runId!) }).check();
    await panel.locator('input[type=number]').first().fill('10');
    await panel.getByRole('button', { name: 'Use selected runs' }).click();
    await page.getByTestId('fit-summary').waitFor();
    expect(await page.getByTestId('fit-summary').innerText()).toBe(
      '3 trajectories, 1 question (0 objective), 1 graph, N = 20, T = 10, no field features (bias-only field).',
    );
    await page.getByTestId('fit-run').click();
    await page.getByTestId('fit-table-accuracy').waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('fit-table-accuracy').innerText()).toMatch(/Not run: held-out questions: needs at least two questions/);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('cancel stops a running fit', async () => {
    const { page, errors } = await openPage(browser, '#/opinions');
    await page.getByTestId('fit-import').setInputFiles(good);
    await page.getByTestId('fit-summary').waitFor();
    await page.getByTestId('fit-run').click();
    await page.getByRole('progressbar').waitFor();
    await page.getByTestId('fit-cancel').click();
    await page.getByTestId('fit-message').filter({ hasText: 'Fit cancelled.' }).waitFor({ timeout: 30_000 });
    await waitFor(page, async () => (await page.getByTestId('fit-run').isEnabled()) && (await page.getByTestId('fit-table-coefficients').count()) === 0);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
