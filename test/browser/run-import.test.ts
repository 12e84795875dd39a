/**
 * Hostile run bundles imported on the Runs page: each is refused with a message that names the problem, or, where
 * the damage is only in results.json's values, imported with its results computed again from its checked records, so
 * that opening it draws the lab's view without an error. A refusal changes nothing that was stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import type { Browser, Page } from 'playwright-core';
import { baseUrl, launch, openPage } from './setup/browser';
import { writeBundle } from '../../src/core/runs/bundle';
import { fakePolarizationBundle } from '../helpers/fake-polarization-agent';

function edit(bytes: Uint8Array, name: string, change: (text: string) => string): Uint8Array {
  const files = unzipSync(bytes);
  files[name] = strToU8(change(files[name] ? strFromU8(files[name]) : ''));
  return zipSync(files);
}

const json = (bytes: Uint8Array, name: string, change: (v: Record<string, unknown>) => unknown) =>
  edit(bytes, name, (t) => JSON.stringify(change(JSON.parse(t))));
const rows = (bytes: Uint8Array, change: (row: Record<string, unknown>, i: number) => unknown) =>
  edit(
    bytes,
    'records.jsonl',
    (t) =>
      t
        .trim()
        .split('\n')
        .map((l, i) => JSON.stringify(change(JSON.parse(l), i)))
        .join('\n') + '\n',
  );

/** Every field of a row turned into the wrong type (numbers into strings, the rest into numbers). */
const wrongTypes = (row: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, k === 'episode' || k === 'kind' ? v : typeof v === 'number' ? String(v) : 7]));

async function importFile(page: Page, name: string, bytes: Uint8Array) {
  await page.getByLabel('Import a run bundle (.zip)').setInputFiles({ name, mimeType: 'application/zip', buffer: Buffer.from(bytes) });
}

const storedRuns = (page: Page) => page.locator('tr[data-run-id]').count();

describe('run bundle import on the Runs page (Chromium)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch('wasm');
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('refuses each hostile bundle by name, keeps stored runs as they were, and recomputes untrusted results', async () => {
    const good = writeBundle(await fakePolarizationBundle());
    const { page, errors } = await openPage(browser, '#/runs');
    await page.getByRole('heading', { name: 'Runs', level: 1 }).waitFor();
    await importFile(page, 'good.zip', good);
    await page
      .getByRole('status')
      .filter({ hasText: /Imported good\.zip as .* its results were computed from its records/ })
      .waitFor({ timeout: 30_000 });
    expect(await storedRuns(page)).toBe(1);

    const refused: [string, Uint8Array, RegExp][] = [
      ['truncated', good.subarray(0, Math.floor(good.length / 2)), /not a run bundle/],
      [
        'another format version',
        json(good, 'run.json', (r) => ({ ...r, format: 'social-minds-lab/run-bundle@9' })),
        /run-bundle@9, and this version of the lab reads/,
      ],
      ['run.json with wrong types', json(good, 'run.json', (r) => ({ ...r, episodesTotal: 'many' })), /run\.json: episodesTotal: expected number, got "many"/],
      ['run.json with an object id', json(good, 'run.json', (r) => ({ ...r, id: { toString: 1 } })), /run\.json: id: expected string/],
      ['records of the wrong types', rows(good, wrongTypes), /records\.jsonl line 1: .*expected/],
      ['a record of an unknown kind', rows(good, (r, i) => (i === 2 ? { ...r, kind: 'virus' } : r)), /records\.jsonl line 3: .*not a record kind of this lab/],
      ['a __proto__ key', edit(good, 'records.jsonl', (t) => t.replace('{', '{"__proto__":{"polluted":1},')), /records\.jsonl line 1: .*__proto__/],
      ['a gap in the episodes', rows(good, (r) => ((r.episode as number) === 0 ? { ...r, episode: 5 } : r)), /episode \d is missing/],
      ['results.json of the wrong shape', json(good, 'results.json', () => [{ name: 3, value: null }]), /results\.json: \[0\]\.name: expected string, got 3/],
      ['results.json not a list', json(good, 'results.json', () => ({ polarization: {} })), /results\.json is not a list/],
      ['a newer records version', json(good, 'run.json', (r) => ({ ...r, recordsVersion: 99 })), /records of version 99.*newer version of the lab/],
    ];
    for (const [name, bytes, message] of refused) {
      await importFile(page, `${name}.zip`, bytes);
      const alert = page.getByRole('alert').filter({ hasText: `Could not import ${name}.zip` });
      await alert.waitFor({ timeout: 10_000 }).catch(() => {
        throw new Error(`no refusal shown for "${name}"`);
      });
      expect(await alert.textContent(), name).toMatch(message);
      expect(await alert.textContent(), name).toContain('Nothing was changed.');
      expect(await storedRuns(page), name).toBe(1);
    }

    // Results that are a list of the right shape but hold nonsense: imported, and computed again from the records.
    await importFile(
      page,
      'nonsense-results.zip',
      json(good, 'results.json', () => [{ name: 'polarization', value: 'not a result', updatedAt: 'x' }]),
    );
    await page
      .getByRole('status')
      .filter({ hasText: /Imported nonsense-results\.zip as .* its results were computed from its records/ })
      .waitFor({ timeout: 30_000 });
    expect(await storedRuns(page)).toBe(2);
    // Opened, the imported run draws the Polarization view with no error.
    await page.locator('tr[data-run-id]').first().getByTestId('run-open').click();
    await page.getByRole('heading', { name: 'Polarization', level: 1 }).waitFor();
    await page.getByTestId('pol-series').waitFor({ timeout: 30_000 });
    await page.getByTestId('pol-agents').waitFor();

    // A stored result of other result shapes (an older version of the lab wrote it) is not drawn as it is: opening
    // the run computes it again from the records first.
    await page.goto(`${baseUrl()}#/runs`);
    await page.getByRole('heading', { name: 'Runs', level: 1 }).waitFor();
    const id = (await page.locator('tr[data-run-id]').first().getAttribute('data-run-id'))!;
    const staled = await page.evaluate(
      (id) =>
        new Promise<number>((done, fail) => {
          const open = indexedDB.open('social-minds-lab');
          open.onerror = () => fail(open.error);
          open.onsuccess = () => {
            const tx = open.result.transaction('results', 'readwrite');
            const results = tx.objectStore('results');
            const all = results.index('byRun').getAll(id);
            all.onsuccess = () => {
              for (const r of all.result) results.put({ ...r, value: { stale: true }, version: 0 });
              tx.oncomplete = () => done(all.result.length);
            };
          };
        }),
      id,
    );
    expect(staled).toBeGreaterThan(0);
    await page.locator(`tr[data-run-id="${id}"]`).getByTestId('run-open').click();
    // The stale value has no series; the recomputed result has one row per epoch.
    await expect.poll(() => page.getByTestId('pol-series').locator('tbody tr').count(), { timeout: 30_000 }).toBeGreaterThan(1);
    await page.goto(`${baseUrl()}#/runs`);
    await page.getByRole('heading', { name: 'Runs', level: 1 }).waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
