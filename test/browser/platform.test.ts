import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { FLAVOURS, baseUrl, launch, onceOnWasm, openPage, waitFor } from './setup/browser';
import { controllerEpisodes } from './setup/runs';
import { hostileLinks } from '../fixtures/hostile-links';
import { defaultConfig, encodeLinkFragment } from '../../src/core/config';
import { opinionsLab } from '../../src/labs/opinions/config';
import { LABS } from '../../src/labs/registry';
import { expectSmooth, watchLongTasks } from './setup/smoothness';

/** A config whose run takes a few seconds, so a test can act in the middle of it. */
function slowRunLink(replicas: number, steps: number): string {
  const c = defaultConfig(opinionsLab);
  c.graph.side = 128;
  c.dynamics.steps = steps;
  c.dynamics.replicas = replicas;
  c.seed = 7;
  return encodeLinkFragment(opinionsLab, c);
}

async function runStatus(page: Page): Promise<{ status: string | null; done: number }> {
  return page.evaluate(() => {
    const el = document.querySelector('[data-run-status]');
    const text = el?.querySelector('[role=progressbar]')?.getAttribute('aria-label') ?? '';
    return { status: el?.getAttribute('data-run-status') ?? null, done: Number(/^(\d+)/.exec(text)?.[1] ?? 0) };
  });
}

describe.each(FLAVOURS)('platform in Chromium (%s)', (flavour) => {
  // Keyboard, routes and links do not touch a model or the GPU, nor do the runs of the reliability tests below (an
  // Opinions lattice, simulated in the compute worker; only the live panel may use the GPU): both flavours would run
  // exactly the same code, so these run once, on wasm, to keep the suite short.
  const once = onceOnWasm(flavour);
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch(flavour);
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('home shows the four labs with no console errors, and reports WebGPU', async () => {
    const { page, errors } = await openPage(browser, '#/');
    await page.getByRole('heading', { name: 'Social Minds Lab', level: 1 }).waitFor();
    for (const def of LABS) await page.getByRole('link', { name: def.title }).first().waitFor();
    // each card speaks plain words first, the paper's terms after
    for (const def of LABS) await page.getByText(def.intro).waitFor();
    await page.waitForFunction(() => !document.querySelector('[data-testid=webgpu]')?.textContent?.includes('checking'));
    const webgpu = await page.textContent('[data-testid=webgpu]');
    expect(webgpu).toMatch(flavour === 'webgpu' ? /WebGPU: yes/ : /WebGPU: no/);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  once('is usable from the keyboard: Tab reaches the lab links and Enter opens one', async () => {
    const { page } = await openPage(browser, '#/');
    await page.getByRole('heading', { name: 'Social Minds Lab', level: 1 }).waitFor();
    let focused = '';
    for (let i = 0; i < 12 && focused !== 'Synchrony'; i++) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    }
    expect(focused).toBe('Synchrony');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Synchrony', level: 1 }).waitFor();
    await page.context().close();
  });

  once('every lab route opens, and an unknown one says so', async () => {
    const { page, errors } = await openPage(browser, '#/');
    for (const def of LABS) {
      await page.goto(`${baseUrl()}#/${def.name}`);
      await page.getByRole('heading', { name: def.title, level: 1 }).waitFor();
      await page.getByRole('form', { name: `${def.title} settings` }).waitFor();
    }
    await page.goto(`${baseUrl()}#/runs`);
    await page.getByRole('heading', { name: 'Runs', level: 1 }).waitFor();
    await page.goto(`${baseUrl()}#/nowhere`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  once('a link round-trips: an edited config reopens exactly in a fresh page', async () => {
    const { page } = await openPage(browser, '#/opinions');
    await page.getByLabel('Side').fill('23');
    await page.getByLabel('Side').press('Tab');
    await page.getByLabel('Generator').selectOption('triangular');
    await page.getByRole('group', { name: 'Dynamics' }).getByLabel('Update').selectOption('async');
    const url = page.url();
    expect(url).toContain('#/opinions?c=');
    const other = await browser.newContext();
    const fresh = await other.newPage();
    await fresh.goto(url);
    await fresh.getByRole('heading', { name: 'Opinions', level: 1 }).waitFor();
    expect(await fresh.getByLabel('Side').inputValue()).toBe('23');
    expect(await fresh.getByLabel('Generator').inputValue()).toBe('triangular');
    expect(await fresh.getByRole('group', { name: 'Dynamics' }).getByLabel('Update').inputValue()).toBe('async');
    await other.close();
    await page.context().close();
  });

  once('refuses every hostile link with a message, and nothing from it runs', async () => {
    const { page, errors } = await openPage(browser, '#/');
    for (const { name, fragment } of hostileLinks()) {
      await page.goto(`${baseUrl()}${fragment}`);
      const banner = page.getByRole('alert').filter({ hasText: /could not be opened|Page not found/ });
      await banner
        .first()
        .waitFor({ timeout: 10_000 })
        .catch(() => {
          throw new Error(`no refusal shown for hostile link "${name}"`);
        });
      const canary = await page.evaluate(() => (window as unknown as { __canary?: number }).__canary);
      expect(canary, name).toBeUndefined();
      expect(await page.evaluate(() => (({}) as Record<string, unknown>).polluted), name).toBeUndefined();
    }
    expect(await page.locator('img[onerror], script:not([src]), svg[onload]').count()).toBe(0);
    expect(errors.filter((e) => !/favicon/.test(e))).toEqual([]);
    await page.context().close();
  });

  once('a run survives a reload and resumes from its last stored episode', async () => {
    const { page, errors } = await openPage(browser, slowRunLink(6, 1500));
    await page.getByRole('button', { name: /^Run \(6 episodes\)/ }).click();
    await waitFor(page, async () => (await runStatus(page)).done >= 1);
    await page.reload();
    await page.goto(`${baseUrl()}#/runs`);
    const row = page.locator('tr[data-run-id]').first();
    await row.getByText('interrupted').waitFor();
    const storedBefore = Number((await row.locator('td').nth(3).textContent())!.split('/')[0]);
    expect(storedBefore).toBeGreaterThanOrEqual(1);
    expect(storedBefore).toBeLessThan(6);
    await row.getByRole('button', { name: 'Resume' }).click();
    await waitFor(page, async () => (await runStatus(page)).status === 'done', 120_000);
    expect((await runStatus(page)).done).toBe(6);
    // The resumed run's page shows the run's own settings (side 128, not the default 64), and so does its link.
    expect(await page.getByLabel('Side').inputValue()).toBe('128');
    expect(page.url()).toContain('#/opinions?c=');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  once('a crashed, then a killed, compute worker is detected, restarted, and the run completes with every episode once', async () => {
    const { page } = await openPage(browser, slowRunLink(4, 3000));
    await page.getByRole('button', { name: /^Run \(4 episodes\)/ }).click();
    await waitFor(page, async () => (await runStatus(page)).done >= 1);
    await page.evaluate(() => (window as unknown as { __socialMindsLab: { crashComputeWorker(): void } }).__socialMindsLab.crashComputeWorker());
    await page
      .getByRole('status')
      .filter({ hasText: /crashed.*is run again from its seed/ })
      .waitFor({ timeout: 30_000 });
    // Then killed outright, as a browser kills a worker for memory: no event, only the heartbeat notices.
    await waitFor(page, async () => (await runStatus(page)).done >= 2);
    await page.evaluate(() => (window as unknown as { __socialMindsLab: { killComputeWorker(): void } }).__socialMindsLab.killComputeWorker());
    await page
      .getByRole('status')
      .filter({ hasText: /stopped answering.*is run again from its seed/ })
      .waitFor({ timeout: 30_000 });
    await waitFor(page, async () => (await runStatus(page)).status === 'done', 120_000);
    expect((await runStatus(page)).done).toBe(4);
    const indices = (await controllerEpisodes(page)).map((e) => e.index);
    expect(indices).toEqual([0, 1, 2, 3]);
    await page.context().close();
  });

  once('storage that fills mid-run stops the run with a clear message, keeps every stored episode, and resumes', async () => {
    const { page, errors } = await openPage(browser, slowRunLink(4, 1500));
    await page.getByRole('button', { name: /^Run \(4 episodes\)/ }).click();
    await waitFor(page, async () => (await runStatus(page)).done >= 1);
    // From now on every IndexedDB write fails as a full disk does: the episode and then the status write too.
    await page.evaluate(() => {
      const put = IDBObjectStore.prototype.put;
      (window as unknown as { __realPut: typeof put }).__realPut = put;
      IDBObjectStore.prototype.put = function () {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      };
    });
    const alert = page.getByRole('alert').filter({ hasText: /storage for this site is full/ });
    await alert.waitFor({ timeout: 60_000 });
    expect(await alert.textContent()).toMatch(/Everything stored before it is intact.*Its status could not be saved either.*interrupted; resume it from there/);
    // Space again (the user deleted old runs): the run list offers Resume, and the run ends with all four, none twice.
    await page.evaluate(() => {
      IDBObjectStore.prototype.put = (window as unknown as { __realPut: typeof IDBObjectStore.prototype.put }).__realPut;
    });
    await page.goto(`${baseUrl()}#/runs`);
    const row = page.locator('tr[data-run-id]').first();
    await row.getByText('interrupted').waitFor();
    const storedBefore = Number((await row.locator('td').nth(3).textContent())!.split('/')[0]);
    expect(storedBefore).toBeGreaterThanOrEqual(1);
    await row.getByRole('button', { name: 'Resume' }).click();
    await waitFor(page, async () => (await runStatus(page)).status === 'done', 120_000);
    const indices = (await controllerEpisodes(page)).map((e) => e.index);
    expect(indices).toEqual([0, 1, 2, 3]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  once('a record damaged in storage is named on export, and Repair runs it again to the same numbers', async () => {
    const { page, errors } = await openPage(browser, slowRunLink(3, 200));
    await page.getByRole('button', { name: /^Run \(3 episodes\)/ }).click();
    await waitFor(page, async () => (await runStatus(page)).status === 'done', 120_000);
    const runId = (await page.locator('[data-run-status]').getAttribute('data-run-id'))!;
    /** The run's stored episodes and results, straight from IndexedDB. */
    const stored = () =>
      page.evaluate(async (id) => {
        const db = await new Promise<IDBDatabase>((ok, fail) =>
          Object.assign(indexedDB.open('social-minds-lab'), {
            onsuccess(this: IDBOpenDBRequest) {
              ok(this.result);
            },
            onerror: fail,
          }),
        );
        const all = (store: string) =>
          new Promise<unknown[]>((ok) =>
            Object.assign(db.transaction(store).objectStore(store).index('byRun').getAll(id), {
              onsuccess(this: IDBRequest) {
                ok(this.result);
              },
            }),
          );
        const [episodes, results] = [await all('episodes'), await all('results')];
        db.close();
        return {
          episodes: JSON.stringify((episodes as { index: number; records: unknown[] }[]).map((e) => [e.index, e.records])),
          results: JSON.stringify((results as { name: string; value: unknown }[]).map((r) => [r.name, r.value])),
        };
      }, runId);
    const before = await stored();
    // Damage episode 2's first record in place: every field becomes a string.
    await page.evaluate(async (id) => {
      const db = await new Promise<IDBDatabase>((ok, fail) =>
        Object.assign(indexedDB.open('social-minds-lab'), {
          onsuccess(this: IDBOpenDBRequest) {
            ok(this.result);
          },
          onerror: fail,
        }),
      );
      const store = db.transaction('episodes', 'readwrite').objectStore('episodes');
      const ep = await new Promise<{ records: Record<string, unknown>[] }>((ok) =>
        Object.assign(store.get([id, 1]), {
          onsuccess(this: IDBRequest) {
            ok(this.result);
          },
        }),
      );
      ep.records[0] = Object.fromEntries(Object.keys(ep.records[0]).map((k) => [k, 'damaged']));
      await new Promise((ok) => Object.assign(store.put(ep), { onsuccess: ok }));
      db.close();
    }, runId);
    await page.goto(`${baseUrl()}#/runs`);
    const row = page.locator(`tr[data-run-id="${runId}"]`);
    await row.getByRole('button', { name: 'Export' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /was not exported: a stored record is damaged \(episode 1, record 1: .+\)\. Repair runs episode 2/ })
      .waitFor();
    await row.getByRole('button', { name: 'Repair' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /A stored record of this run was damaged .*Episode 2 and the 1 after it are run again/ })
      .waitFor({ timeout: 30_000 });
    await waitFor(page, async () => (await runStatus(page)).status === 'done', 120_000);
    // The repaired run holds exactly what the undamaged one did: no episode lost, none twice, the same results.
    const after = await stored();
    expect(after.episodes).toBe(before.episodes);
    expect(after.results).toBe(before.results);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('keeps the main thread within its long-task budget while a run goes', async () => {
    const { page } = await openPage(browser, slowRunLink(3, 1500));
    await page.getByRole('button', { name: /^Run \(3 episodes\)/ }).waitFor();
    const stopWatching = await watchLongTasks(page);
    await page.getByRole('button', { name: /^Run \(3 episodes\)/ }).click();
    await waitFor(page, async () => (await runStatus(page)).status === 'done', 120_000);
    expectSmooth(await stopWatching());
    await page.context().close();
  });
});
