import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { FLAVOURS, launch, onceOnWasm, openPage, waitFor } from './setup/browser';
import { controllerEpisodes, runAndWait, runState, storedResult } from './setup/runs';
import { encodeLinkFragment } from '../../src/core/config';
import { validateConfig } from '../../src/core/config/validate';
import { synchronyLab } from '../../src/labs/synchrony/config';
import { listScenarios } from '../../src/labs/synchrony/scenarios/index';
import type { SynchronyAnalysis } from '../../src/labs/synchrony/types';
import { resultOf } from '../../src/core/runs/results';
import { synchronyResults } from '../../src/labs/synchrony/results';

/** A scenario with one-phrase bios, carried in the link: a short prompt for SwiftShader's slow prefill. */
function tinyScenarios() {
  const persona = (id: string, name: string) => ({
    id,
    name,
    age: 30,
    occupation: 'cook',
    pronouns: 'she/her',
    publicInfo: 'Cooks.',
    personality: 'Kind.',
    decisionStyle: 'Quick.',
    secret: 'Hates soup.',
  });
  const scenario = (id: string, relationship: number) => ({
    id,
    title: `Tiny ${id}`,
    category: 'negotiation',
    text: 'Two cooks share one oven.',
    goals: ['Use the oven first.', 'Use the oven first.'],
    relationship,
    pairings: [['ana', 'bea']],
  });
  return { personas: [persona('ana', 'Ana'), persona('bea', 'Bea')], scenarios: [scenario('tiny-a', 0)] };
}

/**
 * Short episodes on the embedded model, on the flavour's backend. SwiftShader's WebGPU, a software GPU, takes about
 * 3 s to prefill one of these prompts and 1 s per new token (a turn of 6 tokens took 9 s here), so that flavour runs
 * one episode of at most four turns of four tokens: enough to prove that a run, its states and its export work on
 * WebGPU. The analysis and its heatmaps do not touch the GPU (the compute worker runs them the same way for both
 * flavours), so they are checked on wasm's six episodes, as is the passive control.
 */
function studyConfig(device: 'webgpu' | 'wasm') {
  const short = device === 'webgpu';
  const checked = validateConfig(synchronyLab, {
    seed: 11,
    // the mechanics on the base model (the lab's default is the dialogue organism, whose replies run longer)
    pairs: [{ a: 'tiny-social', b: 'tiny-social' }],
    // wasm: 3 library scenarios × 2 seeds, so that each episode group holds two dialogues (a toy dialogue that ends
    // after a few turns leaves too few B→A samples for a grouped split otherwise)
    ...(short
      ? { scenarios: ['tiny-a'], customScenarios: tinyScenarios() }
      : {
          scenarios: listScenarios()
            .slice(0, 3)
            .map((s) => s.id),
          episodeSeeds: [0, 1],
        }),
    pairingsPerScenario: 1,
    bothOrders: false,
    maxUtterancesPerAgent: short ? 2 : 3,
    maxNewTokens: short ? 4 : 24,
    // the passive reader re-encodes each episode's prompts: on SwiftShader that is slow, and the encode path on WebGPU
    // is checked by test/browser/runtime.test.ts (a left-padded batch against the fixture), so wasm runs it here
    controls: { passiveReader: false },
    runtime: { device, dtype: 'fp32' },
  });
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  return checked.value;
}

async function storedAnalysis(page: Page, runId: string): Promise<SynchronyAnalysis> {
  return storedResult<SynchronyAnalysis>(page, runId, 'synchrony');
}

describe.each(FLAVOURS)('Synchrony lab in Chromium (%s)', (flavour) => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch(flavour);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('runs short episodes on the embedded model, shows the transcript, both heatmaps and the passive control (wasm), and exports', async () => {
    const config = studyConfig(flavour);
    const episodes = flavour === 'webgpu' ? 1 : 6;
    const { page, errors } = await openPage(browser, encodeLinkFragment(synchronyLab, config));
    await page.getByRole('heading', { name: 'Synchrony', level: 1 }).waitFor();
    const first = await runAndWait(page, episodes);

    const transcript = page.getByTestId('sync-transcript');
    await transcript.waitFor();
    expect((await transcript.textContent())!.length).toBeGreaterThan(20);
    // both maps drawn over the 6 × 6 decoder layers of the embedded model
    for (const id of flavour === 'wasm' ? ['sync-heatmap-ab', 'sync-heatmap-ba'] : []) {
      await page
        .locator(`[data-testid=${id}][data-rows="6"][data-cols="6"]`)
        .waitFor({ timeout: 60_000 })
        .catch(async (e) => {
          const why = await page
            .getByTestId('sync-warnings')
            .textContent()
            .catch(() => 'no warnings shown');
          throw new Error(`${(e as Error).message}; warnings: ${why}; transcript: ${await page.getByTestId('sync-transcript').textContent()}`);
        });
    }
    if (flavour === 'wasm') await page.getByTestId('sync-r2').waitFor();
    const real = await storedAnalysis(page, first.id!);
    expect(real.episodes).toBe(episodes);
    expect(real.conditions[0].condition).toBe('real');
    // every turn's states, all 7 layers of the embedded model (embeddings and 6 blocks), stored for each speaker
    const shapes = (await controllerEpisodes(page)).map((e) => Object.values(e.shapes));
    expect(shapes).toHaveLength(episodes);
    for (const ep of shapes) for (const shape of ep) expect(shape.slice(1)).toEqual([7, expect.any(Number)]);
    expect(shapes[0].reduce((n, shape) => n + shape[0], 0)).toBeGreaterThan(0);
    const meta = await page.evaluate(() => document.querySelector('[data-run-status]')?.textContent ?? '');
    expect(meta).toContain(flavour === 'webgpu' ? 'webgpu/fp32' : 'wasm/fp32');

    let withPassive = real;
    if (flavour === 'wasm') {
      // the passive control: tick it and run again; the comparison then holds the passive condition
      expect(real.conditions.some((c) => c.condition === 'passive')).toBe(false);
      await page.getByLabel('Passive reader').check();
      const second = await runAndWait(page, episodes);
      withPassive = await storedAnalysis(page, second.id!);
      // the dialogue is the same link, seed and backend: the transcripts repeat exactly
      expect(withPassive.parse).toEqual(real.parse);
    }
    if (flavour === 'wasm') {
      expect(withPassive.conditions.map((c) => c.condition)).toContain('passive');
      await page.getByTestId('sync-compare').waitFor();
    }

    const download = page.waitForEvent('download');
    await page.getByTestId('sync-export-jsonl').click();
    const file = await (await download).path();
    const lines = readFileSync(file!, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.kind === 'turn').length).toBe(withPassive.parse.turns);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  // The model worker is killed mid-run the way a browser kills one (for memory, say): no event, it just stops. The
  // page must notice, load the model again, rerun the episode under way, and end with exactly the uninterrupted run.
  onceOnWasm(flavour)(
    'the headless run of the same link on wasm gives the same transcripts and SyncR², even with the model worker killed mid-run',
    async () => {
      const config = studyConfig('wasm');
      const { page } = await openPage(browser, encodeLinkFragment(synchronyLab, config));
      await page.getByRole('heading', { name: 'Synchrony', level: 1 }).waitFor();
      type Hooks = { __socialMindsLab: { setModelLiveness(t: object): void; killModelWorker(): string | null } };
      await page.evaluate(() => (window as unknown as Hooks).__socialMindsLab.setModelLiveness({ pingTimeoutMs: 1000, busyTimeoutMs: 3000 }));
      const running = runAndWait(page, 6);
      await waitFor(page, async () => (await runState(page)).done >= 2, 120_000);
      expect(await page.evaluate(() => (window as unknown as Hooks).__socialMindsLab.killModelWorker())).toMatch(/^tiny-social#/);
      await page
        .getByRole('status')
        .filter({ hasText: /crashed.*no answer.*is run again from its seed/ })
        .waitFor({ timeout: 60_000 });
      const state = await running;
      // On two cores or more, the page ran two of these episodes at a time (src/core/runs/lanes.ts), each lane on
      // its own copy of the model, and the numbers below must still equal the one-at-a-time headless run.
      if ((await page.evaluate(() => navigator.hardwareConcurrency)) >= 2) {
        expect(await page.getByTestId('run-lanes').textContent()).toMatch(/\d episodes at a time/);
      }
      const inBrowser = await storedAnalysis(page, state.id!);
      const browserTurns = (await controllerEpisodes(page)).map((e) => e.records.filter((r) => r.kind === 'turn').map((r) => r.text));
      await page.context().close();

      const { loadRunModels } = await import('../../cli/run-models');
      const { runHeadless } = await import('../../src/core/runs/headless');
      const { synchronyModule } = await import('../../src/labs/synchrony/module');
      const loaded = await loadRunModels(['tiny-social'], { device: 'wasm', dtype: 'fp32' });
      try {
        const bundle = await runHeadless(synchronyLab, synchronyModule.runner, config, { models: loaded.models });
        const headless = resultOf(synchronyResults, bundle.results, 'synchrony')!;
        expect(bundle.episodes.map((e) => e.records.filter((r) => r.kind === 'turn').map((r) => r.text))).toEqual(browserTurns);
        expect(headless.parse).toEqual(inBrowser.parse);
        const real = (a: SynchronyAnalysis) => a.conditions.find((c) => c.condition === 'real')!;
        expect(real(headless).n).toBe(real(inBrowser).n);
        if (real(inBrowser).syncR2 === null) expect(real(headless).syncR2).toBeNull();
        else {
          expect(Math.abs(real(headless).syncR2! - real(inBrowser).syncR2!)).toBeLessThan(1e-6);
          const diff = real(headless).ab!.grid.reduce((m, v, i) => Math.max(m, Math.abs(v - real(inBrowser).ab!.grid[i])), 0);
          expect(diff).toBeLessThan(1e-6);
        }
      } finally {
        await loaded.dispose();
      }
    },
  );
});
