/**
 * The Synchrony view on synthetic episodes (no model): stored records and states are handed to the page's run
 * controller, and the view must show the transcript, analyse in the compute worker, draw both heatmaps and the
 * comparison, export JSONL, and import states (a good file and a corrupt one). The end-to-end run on the embedded
 * model is a separate test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, openPage } from './setup/browser';
import { defaultConfig } from '../../src/core/config';
import { synchronyLab } from '../../src/labs/synchrony/config';
import { createRng } from '../../src/core/rng';
import { syncR2 } from '../../src/core/synchrony';

/**
 * Hands synthetic stored episodes to the page's run controller as a finished Synchrony run: a latent walk makes the
 * partner's next state predictable from the speaker's. Episode g belongs to model pair g mod pairs and group g.
 */
async function inject(
  page: Page,
  config: Record<string, unknown>,
  opts: { episodes: number; pairs: Array<[string, string]>; judge?: boolean; labels?: boolean },
) {
  await page.evaluate(
    ({ config, opts }) => {
      let s = 12345;
      const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
      const L = 4;
      const H = 8;
      const episodes = [];
      for (let g = 0; g < opts.episodes; g++) {
        const turns = 8;
        const pairIndex = g % opts.pairs.length;
        const [modelA, modelB] = opts.pairs[pairIndex];
        let z = Array.from({ length: H }, rand);
        const states: Record<'A' | 'B', number[]> = { A: [], B: [] };
        const records: Record<string, unknown>[] = [
          {
            kind: 'meta',
            scenarioId: `s${g}`,
            scenarioTitle: `Scenario ${g}`,
            pairing: 0,
            seed: 0,
            first: 'A',
            relationship: g % 2 ? 3 : 0,
            modelA,
            modelB,
            pairIndex,
            group: g,
            names: { A: 'Ana', B: 'Ben' },
          },
        ];
        for (let t = 0; t < turns; t++) {
          const speaker = t % 2 ? 'B' : 'A';
          for (let l = 0; l <= L; l++) for (let h = 0; h < H; h++) states[speaker].push(z[h] * (1 + 0.2 * l) + 0.05 * rand());
          records.push({
            kind: 'turn',
            turn: t,
            speaker,
            text: t === 2 ? '' : `line ${t} <b>not markup</b>`,
            parsed: t !== 2,
            ...(t === 2 ? { parseError: 'empty reply' } : {}),
            leaves: t === turns - 1,
            // Hidden labels read off the latent: the speaker's strongest of the first six coordinates names its
            // feeling, the sign of the seventh its action, so the partner's state (a noisy copy) predicts them.
            ...(opts.labels
              ? {
                  emotion: ['calm', 'happy', 'hopeful', 'worried', 'annoyed', 'sad'][z.slice(0, 6).reduce((best, v, i, xs) => (v > xs[best] ? i : best), 0)],
                  action: z[6] > 0 ? 'propose' : 'ask',
                }
              : {}),
            promptTokens: 10,
            newTokens: 5,
            ms: 3,
          });
          z = z.map((_, h) => 0.8 * z[(h + 1) % H] + (0.3 + 0.1 * pairIndex) * rand());
        }
        if (opts.judge) for (const target of ['A', 'B']) records.push({ kind: 'judge', target, ok: true, attempts: 1, overall: 2 + pairIndex + 0.5 * rand() });
        const tensor = (xs: number[]) => ({ dtype: 'F32', shape: [xs.length / ((L + 1) * H), L + 1, H], data: Float32Array.from(xs) });
        episodes.push({ index: g, records, tensors: { statesA: tensor(states.A), statesB: tensor(states.B) } });
      }
      const rc = (globalThis as unknown as { __socialMindsLab: { runController: Record<string, unknown> } }).__socialMindsLab.runController;
      const now = new Date().toISOString();
      rc.active = {
        id: 'run-synthetic',
        lab: 'synchrony',
        schemaVersion: 2,
        config,
        seed: 0,
        backend: 'none',
        dtype: null,
        status: 'done',
        episodesDone: opts.episodes,
        episodesTotal: opts.episodes,
        createdAt: now,
        updatedAt: now,
      };
      rc.episodes = episodes;
    },
    { config, opts },
  );
}

describe('synchrony view in Chromium (synthetic episodes)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch('wasm');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the transcript, both heatmaps, SyncR² and the comparison, exports JSONL and imports states', async () => {
    const { page, errors } = await openPage(browser, '#/synchrony');
    await page.getByTestId('sync-transcript').waitFor();
    const config = { ...defaultConfig(synchronyLab), controls: { passiveReader: false, byRelationship: true } };
    await inject(page, config, { episodes: 10, pairs: [['tiny-social', 'tiny-social']] });

    const transcript = page.getByTestId('sync-transcript');
    await expect.poll(() => transcript.getAttribute('data-episodes')).toBe('10');
    expect(await transcript.textContent()).toContain('line 1 <b>not markup</b>');
    expect(await transcript.locator('li[data-parsed="false"]').count()).toBe(1);
    expect(await transcript.textContent()).toContain('leaves');

    await page.getByTestId('sync-heatmap-ab').waitFor({ timeout: 60_000 });
    await page.getByTestId('sync-heatmap-ba').waitFor();
    expect(await page.getByTestId('sync-heatmap-ab').getAttribute('data-rows')).toBe('4');
    expect(await page.getByTestId('sync-heatmap-ab').locator('rect.best').count()).toBe(4);
    const r2 = Number(await page.getByTestId('sync-r2').getAttribute('data-value'));
    expect(r2).toBeGreaterThan(0.3);
    expect(await page.getByTestId('sync-toy-note').first().isVisible()).toBe(true);
    expect(await page.getByTestId('sync-compare').getAttribute('data-conditions')).toContain('real');
    await page.getByTestId('sync-compare-relationship').waitFor();
    await page.getByTestId('sync-judge-needs').waitFor();

    // Keyboard: the heatmap reads out the focused cell.
    await page.getByTestId('sync-heatmap-ab').locator('.plot').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await page.getByTestId('sync-heatmap-ab').locator('.readout').textContent()).toMatch(/source\) 2, .*target\) 1: test R²/);

    const dir = mkdtempSync(join(tmpdir(), 'sync-'));
    const download = page.waitForEvent('download');
    await page.getByTestId('sync-export-jsonl').click();
    const file = join(dir, 'episodes.jsonl');
    await (await download).saveAs(file);
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(90);
    expect(lines[0]).toMatchObject({ episode: 0, kind: 'meta' });

    // Bring your own data: a corrupt file gives a message; a good one a heatmap and SyncR².
    const input = page.getByTestId('sync-byod-file');
    await input.setInputFiles({
      name: 'bad.safetensors',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from([255, 255, 255, 255, 255, 255, 255, 255, 1, 2]),
    });
    await expect.poll(async () => (await page.getByTestId('sync-byod-error').textContent()) ?? '').toMatch(/bad\.safetensors: safetensors: header length/);
    // Round trip: the A→B samples exported in the sync format give the analysis's own A→B SyncR² when imported.
    const samples = page.waitForEvent('download');
    await page.getByTestId('sync-export-samples-ab').click();
    const samplesFile = join(dir, 'ab.safetensors');
    await (await samples).saveAs(samplesFile);
    await input.setInputFiles(samplesFile);
    await page.getByTestId('sync-byod-result').waitFor({ timeout: 60_000 });
    const imported = Number(await page.getByTestId('sync-byod-result').getAttribute('data-value'));
    expect(imported).toBeCloseTo(Number(await page.getByTestId('sync-r2').getAttribute('data-ab')), 9);
    expect(Number.isFinite(Number(await page.getByTestId('sync-byod-result').getAttribute('data-value')))).toBe(true);
    expect(await page.getByTestId('sync-byod-error').count()).toBe(0);
    // The scenario editor loads when opened.
    await page.getByTestId('sync-scenarios').locator('summary').click();
    await expect
      .poll(
        async () =>
          (await page.getByTestId('sync-scenarios').textContent())?.includes('Loading the scenario editor') === false &&
          (await page.getByTestId('sync-scenarios').locator('input, select, button').count()) > 0,
      )
      .toBe(true);
    expect(errors).toEqual([]);
  });

  it('decodes the partner’s hidden feelings per layer and shows the probes beside the frequency baseline', async () => {
    const { page, errors } = await openPage(browser, '#/synchrony');
    await page.getByTestId('sync-transcript').waitFor();
    const config = { ...defaultConfig(synchronyLab), emotions: { enabled: true, alpha: 10 } };
    await inject(page, config, { episodes: 12, pairs: [['tiny-social', 'tiny-social']], labels: true });
    const table = page.getByTestId('sync-decoding-table');
    await table.waitFor({ timeout: 60_000 });
    // Two directions × two labels × three times.
    expect(await table.locator('tbody tr').count()).toBe(12);
    // The partner's last label (t − 1) is carried by the latent the agent's state copies: the probe beats the baseline.
    const gain = await table.locator('tr[data-curve="ab-emotion-current"] td:nth-child(8)').textContent();
    expect(Number(gain?.split(' ± ')[0])).toBeGreaterThan(0);
    await page.getByTestId('sync-decoding-current').waitFor();
    await page.getByTestId('sync-decoding-kind').selectOption('action');
    await expect.poll(() => page.getByTestId('sync-decoding-next').locator('svg[role=img]').getAttribute('aria-label')).toContain(', action, A→B');
    expect(errors).toEqual([]);
  });

  it('correlates judge performance with SyncR² across model pairs, with a partial r given ability scores', async () => {
    const { page, errors } = await openPage(browser, '#/synchrony');
    await page.getByTestId('sync-transcript').waitFor();
    const pairs: Array<[string, string]> = [
      ['m1', 'm2'],
      ['m2', 'm3'],
      ['m1', 'm3'],
      ['m3', 'm3'],
    ];
    const config = { ...defaultConfig(synchronyLab), pairs: pairs.map(([a, b]) => ({ a, b })), judge: { enabled: true, model: 'tiny-social' } };
    await inject(page, config, { episodes: 24, pairs, judge: true });
    const judge = page.getByTestId('sync-judge');
    await expect.poll(() => judge.getAttribute('data-pairs'), { timeout: 60_000 }).toBe('4');
    await expect
      .poll(async () => (await page.getByTestId('sync-judge-r').textContent()) ?? '')
      .toMatch(/Pearson r = -?\d\.\d{3}, p = \d\.\d{4} \(n = 4 pairs\)/);
    expect(await page.getByTestId('sync-judge-r').textContent()).toContain('enter an ability score');
    expect(await page.getByTestId('sync-judge-scatter').locator('circle').count()).toBe(4);
    expect(await page.getByTestId('sync-pair-picker').locator('option').count()).toBe(4);
    const inputs = judge.locator('fieldset input');
    expect(await inputs.count()).toBe(3);
    for (const [i, v] of ['60', '70', '75'].entries()) await inputs.nth(i).fill(v);
    await expect
      .poll(async () => (await page.getByTestId('sync-judge-r').textContent()) ?? '')
      .toMatch(/partial r given ability = -?\d\.\d{3}, p = \d\.\d{4} \(df 1\)/);
    expect(errors).toEqual([]);
  });

  it('runs the ridge grids on a pool of grid workers, with bitwise the numbers Node gets in one thread', async () => {
    const { page, errors } = await openPage(browser, '#/synchrony');
    const n = 120;
    const L = 4;
    const H = 16;
    const rng = createRng('page-pool');
    const source = Array.from({ length: n * L * H }, () => rng.normal());
    const target = source.map((v, i) => 0.7 * v + 0.5 * rng.normal() + (i % 3));
    const group = Array.from({ length: n }, (_, i) => Math.floor(i / 4));
    const opts = { alpha: 0.3, splitSeeds: [0, 1, 2, 3] };
    const inPage = await page.evaluate(
      async ({ source, target, group, opts, n, L, H }) => {
        const lab = (globalThis as unknown as { __socialMindsLab: Record<string, (...a: unknown[]) => Promise<unknown>> }).__socialMindsLab;
        const stack = (xs: number[]) => ({ data: Float32Array.from(xs), n, L, H });
        const executor = (await lab.gridExecutor()) as { pooled: boolean; workers: number };
        const r = (await lab.syncR2(stack(source), stack(target), group, opts)) as { r2PerSplit: Float64Array[]; syncR2: number };
        return {
          executor,
          cores: navigator.hardwareConcurrency,
          isolated: crossOriginIsolated,
          grids: r.r2PerSplit.map((g) => Array.from(g)),
          syncR2: r.syncR2,
        };
      },
      { source, target, group, opts, n, L, H },
    );
    expect(inPage.isolated).toBe(true);
    expect(inPage.executor).toEqual({ pooled: true, workers: Math.max(1, Math.min(8, inPage.cores)) });
    const stack = (xs: number[]) => ({ data: Float32Array.from(xs), n, L, H });
    const node = syncR2(stack(source), stack(target), group, opts);
    expect(inPage.grids).toEqual(node.r2PerSplit.map((g) => Array.from(g)));
    expect(inPage.syncR2).toBe(node.syncR2);
    expect(errors).toEqual([]);
  });
});
