/**
 * The Opinions lab end to end, as the issue asks (issue 5, part 8): draw a signed graph in the editor with the mouse,
 * switch to the LLM community mode with T = 2 and K = 2, run it on the embedded model, fit the stored run in the Fit
 * panel and see the coefficient and balanced-accuracy tables; then "Copy link" opened in a fresh page shows the same
 * graph and community settings.
 *
 * WASM flavour only: the same test with the SwiftShader/WebGPU flavour (runtime device webgpu) passed, but its
 * community run took 194 s on the shared 2-core machine (against ~10 s here), far past this test's ~90 s budget. The
 * fit runs in the compute worker on the CPU in either flavour, and the editor's mouse actions are covered in both
 * flavours by opinions.test.ts. Measured here: the whole test ~15 s (community run ~10 s, fit ~0.2 s).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, openPage, waitFor } from './setup/browser';

// Five nodes, placed as fractions of the canvas: a row of three above a row of two.
const SPOTS: [number, number][] = [
  [0.2, 0.3],
  [0.5, 0.3],
  [0.8, 0.3],
  [0.35, 0.75],
  [0.65, 0.75],
];
// Six friendly edges by drag; then a click on the middle of 1–4 makes it unfriendly.
const EDGES: [number, number][] = [
  [0, 1],
  [1, 2],
  [0, 3],
  [3, 4],
  [4, 2],
  [1, 4],
];
const UNFRIENDLY: [number, number] = [1, 4];
const RUN_TIMEOUT_MS = 120_000;

async function canvasPoint(page: Page, [fx, fy]: [number, number]): Promise<[number, number]> {
  const box = (await page.getByTestId('graph-canvas').boundingBox())!;
  return [box.x + box.width * fx, box.y + box.height * fy];
}

async function editorCounts(page: Page): Promise<{ nodes: number; edges: number }> {
  const c = page.getByTestId('graph-canvas');
  return { nodes: Number(await c.getAttribute('data-nodes')), edges: Number(await c.getAttribute('data-edges')) };
}

const editorStatus = async (page: Page) => (await page.getByTestId('editor-status').textContent()) ?? '';

async function setField(page: Page, id: string, value: string) {
  const field = page.locator(`#${id}`);
  if ((await field.evaluate((el) => el.tagName)) === 'SELECT') await field.selectOption(value);
  else {
    await field.fill(value);
    await field.press('Tab');
  }
  await expect.poll(() => field.inputValue()).toBe(value);
}

/** The settings the link must carry, read from the form. */
async function communitySettings(page: Page) {
  const v = (id: string) => page.locator(`#${id}`).inputValue();
  return {
    mode: await v('field-mode'),
    rounds: await v('field-community-rounds'),
    votes: await v('field-community-votesPerRound'),
    trajectories: await v('field-community-trajectories'),
    device: await v('field-runtime-device'),
    dtype: await v('field-runtime-dtype'),
  };
}

/** A table's body rows as arrays of cell texts. */
async function tableRows(page: Page, testid: string): Promise<string[][]> {
  return page
    .getByTestId(testid)
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')));
}

async function tableHeader(page: Page, testid: string): Promise<string[]> {
  return page.getByTestId(testid).locator('thead th').allTextContents();
}

const isNumber = (s: string | undefined) => s !== undefined && s !== '' && Number.isFinite(Number(s.replace('−', '-')));

describe('opinions lab end to end in Chromium (wasm)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch('wasm');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('draws a graph by mouse, runs a T = 2 community on the Opinions organism, fits it, and the copied link reproduces the setup', async () => {
    const started = Date.now();
    const { page, errors } = await openPage(browser, '#/opinions');
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const canvas = page.getByTestId('graph-canvas');
    await canvas.scrollIntoViewIfNeeded();
    await waitFor(page, async () => (await editorStatus(page)).includes('0 nodes'));

    // Nodes by double-click on the background.
    for (const spot of SPOTS) {
      const [x, y] = await canvasPoint(page, spot);
      await page.mouse.dblclick(x, y);
    }
    expect(await editorCounts(page)).toEqual({ nodes: 5, edges: 0 });

    // Edges by dragging from node to node with the Connect tool.
    await page.getByRole('radio', { name: 'Connect' }).check();
    await canvas.scrollIntoViewIfNeeded();
    const at = await Promise.all(SPOTS.map((s) => canvasPoint(page, s)));
    for (const [i, j] of EDGES) {
      const [p, q] = [at[i], at[j]];
      await page.mouse.move(p[0], p[1]);
      await page.mouse.down();
      await page.mouse.move((p[0] + q[0]) / 2, (p[1] + q[1]) / 2, { steps: 4 });
      await page.mouse.move(q[0], q[1], { steps: 4 });
      await page.mouse.up();
    }
    expect(await editorCounts(page)).toEqual({ nodes: 5, edges: 6 });
    await waitFor(page, async () => (await editorStatus(page)).includes('(6 friendly, 0 unfriendly)'));

    // A click on the middle of an edge cycles it + → −.
    const [u, w] = [at[UNFRIENDLY[0]], at[UNFRIENDLY[1]]];
    await page.mouse.click((u[0] + w[0]) / 2, (u[1] + w[1]) / 2);
    await waitFor(page, async () => (await editorStatus(page)).includes('(5 friendly, 1 unfriendly)'));
    expect(await editorCounts(page)).toEqual({ nodes: 5, edges: 6 });

    // The LLM community mode, T = 2, K = 2, two trajectories (a held-out split needs at least two), WASM fp32.
    await setField(page, 'field-mode', 'community');
    await page.getByTestId('personas-panel').waitFor();
    await setField(page, 'field-community-rounds', '2');
    await setField(page, 'field-community-votesPerRound', '2');
    await setField(page, 'field-community-trajectories', '2');
    await setField(page, 'field-runtime-device', 'wasm');
    await setField(page, 'field-runtime-dtype', 'fp32');
    // Switching modes keeps the drawn graph: five agents, one persona each.
    expect(await page.getByTestId('assignment').locator('select').count()).toBe(5);
    expect(await editorCounts(page)).toEqual({ nodes: 5, edges: 6 });
    const settings = await communitySettings(page);

    // 2 trajectories × (T + 1) rounds = 6 episodes.
    const runStarted = Date.now();
    await page.getByRole('button', { name: /^Run \(6 episodes\)/ }).click();
    const runStatus = () => page.locator('[data-run-status]').getAttribute('data-run-status');
    await waitFor(page, async () => ['done', 'failed', 'cancelled', 'interrupted'].includes((await runStatus()) ?? ''), RUN_TIMEOUT_MS).catch(async () => {
      throw new Error(`the community run did not end in ${RUN_TIMEOUT_MS / 1000} s: ${await page.locator('[data-run-status]').innerText()}`);
    });
    // A failed run says why.
    if ((await runStatus()) !== 'done') expect(await page.locator('[data-run-status]').innerText()).toBe('a done run');
    const runSeconds = (Date.now() - runStarted) / 1000;
    const runId = (await page.locator('[data-run-id]').getAttribute('data-run-id'))!;
    expect(await page.getByTestId('vote-parse').textContent()).toMatch(/^\d+\/60 /); // 2 × 3 rounds × 5 agents × 2 votes
    await page.getByTestId('community-view').getByText('Round 2 of 2').waitFor();

    // Fit panel: the run just made is loaded and fitted by itself (the panel held no other data).
    const fitStarted = Date.now();
    const panel = page.getByTestId('fit-panel');
    await panel.scrollIntoViewIfNeeded();
    await page.getByTestId('fit-summary').waitFor();
    expect(await page.getByTestId('fit-summary').innerText()).toMatch(/^2 trajectories, 1 question \(0 objective\), 1 graph, N = 5, T = 2,/);
    expect(await panel.getByText(`run ${runId}`).count()).toBeGreaterThan(0);
    await page.getByTestId('fit-table-accuracy').waitFor({ timeout: 60_000 });
    const fitSeconds = (Date.now() - fitStarted) / 1000;

    // Coefficients: the effective friendly and unfriendly weights, as numbers, for every model fitted on all trajectories.
    const coefHead = await tableHeader(page, 'fit-table-coefficients');
    const fIdx = coefHead.indexOf('friendly (β⁺+β₀)');
    const uIdx = coefHead.indexOf('unfriendly (β₀−β⁻)');
    expect(fIdx).toBeGreaterThan(-1);
    expect(uIdx).toBeGreaterThan(-1);
    const coef = await tableRows(page, 'fit-table-coefficients');
    const all = coef.filter((r) => r[0] === 'all trajectories');
    expect(all.map((r) => r[1])).toEqual(['Glauber, 1 coupling', 'Glauber, 3 couplings', 'Continuous ε form (3 couplings)']);
    for (const r of all) {
      expect(isNumber(r[fIdx]), `friendly weight of ${r[1]}: "${r[fIdx]}"`).toBe(true);
      expect(isNumber(r[uIdx]), `unfriendly weight of ${r[1]}: "${r[uIdx]}"`).toBe(true);
    }
    // The in-distribution split's training fits are listed too.
    expect(coef.some((r) => r[0] === 'in-distribution (train)')).toBe(true);
    // The run is of the default model, the Opinions organism: its planted weights stand beside the 3-coupling fit's.
    const threeRow = all.find((r) => r[1] === 'Glauber, 3 couplings')!;
    const plantedText = (await page.getByTestId('fit-planted').innerText()).replace(/\s+/g, ' ');
    expect(plantedText).toMatch(/organism-opinions is a model organism/);
    expect(plantedText).toMatch(/\(planted \+1\.00\) on a friendly neighbour/);
    const plantedFriendly = Number((await page.getByTestId('fit-planted-friendly').innerText()).replace('−', '-'));
    expect(Math.abs(plantedFriendly - Number(threeRow[fIdx]))).toBeLessThan(0.006);
    // K = 2 here, not the K = 5 the law was planted for: the panel says so.
    expect(plantedText).toMatch(/planted for K = 5 votes at temperature 0\.7; these runs used other settings/);

    // Balanced accuracy: the in-distribution split (one question and one graph, so the held-out splits say why not),
    // every Glauber model and the four baselines, with numbers.
    expect(await tableHeader(page, 'fit-table-accuracy')).toEqual([
      'split',
      'distribution',
      'model',
      'one-step',
      'rollout',
      'raw one-step',
      'raw rollout',
      'transitions',
    ]);
    const acc = await tableRows(page, 'fit-table-accuracy');
    const row = (model: string) => acc.find((r) => r[0] === 'in-distribution' && r[2] === model);
    for (const model of ['Glauber, 1 coupling', 'Glauber, 3 couplings', 'Continuous ε form (3 couplings)', 'Persistence', 'Interaction-Free', 'Mean-Field']) {
      const r = row(model);
      expect(r, `accuracy row for ${model}`).toBeDefined();
      expect(isNumber(r![3]) && isNumber(r![4]), `${model}: ${r!.join(' | ')}`).toBe(true);
      expect(Number(r![3])).toBeGreaterThanOrEqual(0);
      expect(Number(r![3])).toBeLessThanOrEqual(100);
    }
    const majority = row('Majority Class');
    expect(majority, 'accuracy row for Majority Class').toBeDefined();
    expect(isNumber(majority![5])).toBe(true); // raw only
    // Persistence predicts "stay": it scores 100 % on each stay group and 0 % on each flip group, so its one-step
    // balanced accuracy is (stay groups present) / (groups present) — one of these values, whatever the votes were.
    expect([0, 33.3, 50, 66.7, 100]).toContain(Number(row('Persistence')![3]));
    // One test trajectory of T = 2 on five agents: 10 one-step transitions.
    expect(row('Persistence')![7]).toBe('10');
    expect(await page.getByTestId('fit-table-accuracy').innerText()).toMatch(/Not run: held-out questions: .*held-out graphs: /);

    // Copy link → a fresh page shows the same graph and the same community settings.
    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByText(/^(Link copied\.|Copy this link: )/).waitFor();
    const shown = (await page.getByText(/^Copy this link: /).count())
      ? (await page.getByText(/^Copy this link: /).textContent())!.replace('Copy this link: ', '')
      : null;
    const url = shown ?? (await page.evaluate(() => navigator.clipboard.readText()));
    expect(url).toMatch(/#\/opinions\?c=/);
    const fresh = await (await browser.newContext()).newPage();
    const freshErrors: string[] = [];
    fresh.on('pageerror', (e) => freshErrors.push(String(e)));
    fresh.on('console', (m) => m.type() === 'error' && freshErrors.push(m.text()));
    await fresh.goto(url);
    await fresh.getByTestId('personas-panel').waitFor();
    await waitFor(fresh, async () => (await editorCounts(fresh)).nodes === 5);
    expect(await editorCounts(fresh)).toEqual({ nodes: 5, edges: 6 });
    await waitFor(fresh, async () => (await editorStatus(fresh)).includes('(5 friendly, 1 unfriendly)'));
    expect(await communitySettings(fresh)).toEqual(settings);
    expect(settings).toEqual({ mode: 'community', rounds: '2', votes: '2', trajectories: '2', device: 'wasm', dtype: 'fp32' });
    await fresh.getByRole('button', { name: /^Run \(6 episodes\)/ }).waitFor();
    expect(await fresh.getByTestId('assignment').locator('select').count()).toBe(5);

    console.log(
      `opinions e2e (link ${shown ? 'shown' : 'from the clipboard'}): community run ${runSeconds.toFixed(1)} s, fit ${fitSeconds.toFixed(1)} s, whole test ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
        `3-coupling fit: ${all
          .find((r) => r[1] === 'Glauber, 3 couplings')!
          .slice(2, 4)
          .join(' / ')}; in-distribution one-step BA: ` +
        ['Glauber, 3 couplings', 'Persistence', 'Interaction-Free', 'Mean-Field'].map((m) => `${m} ${row(m)![3]}`).join(', '),
    );
    expect(freshErrors).toEqual([]);
    expect(errors).toEqual([]);
    await fresh.context().close();
    await page.context().close();
  }, 180_000);
});
