import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { waitFor } from './browser';

/** The run card of the lab page: its run id, status and stored episode count. */
export async function runState(page: Page) {
  return page.evaluate(() => {
    const el = document.querySelector('[data-run-status]');
    const text = el?.querySelector('[role=progressbar]')?.getAttribute('aria-label') ?? '';
    return { id: el?.getAttribute('data-run-id') ?? null, status: el?.getAttribute('data-run-status') ?? null, done: Number(/^(\d+)/.exec(text)?.[1] ?? 0) };
  });
}

/** Clicks Run and waits for that run (not an earlier one still on the card) to finish. */
export async function runAndWait(page: Page, episodes: number, timeoutMs = 200_000) {
  const before = (await runState(page)).id;
  await page.getByRole('button', { name: new RegExp(`^Run \\(${episodes} episodes?\\)`) }).click();
  const finished = async () => {
    const s = await runState(page);
    return s.id !== before && ['done', 'failed'].includes(s.status ?? '');
  };
  await waitFor(page, finished, timeoutMs).catch(async (e) => {
    const live = await page
      .getByTestId('run-live')
      .textContent()
      .catch(() => '');
    throw new Error(`${e.message}: ${JSON.stringify(await runState(page))}, live line "${live}"`);
  });
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

/** A derived result of a stored run, read through the app's debug hook. */
export async function storedResult<T>(page: Page, runId: string, name: string): Promise<T> {
  const results = await page.evaluate(
    (id) =>
      (window as unknown as { __socialMindsLab: { runResults(id: string): Promise<{ name: string; value: unknown }[]> } }).__socialMindsLab.runResults(id),
    runId,
  );
  return results.find((r) => r.name === name)!.value as T;
}

/** One episode of the page's run controller, as the app's debug hook holds it: its tensors by shape only. */
export interface ControllerEpisode {
  index: number;
  records: Array<Record<string, unknown> & { kind?: string; text?: string }>;
  /** Each tensor's shape by name (its data stays in the page: a run's states are megabytes). */
  shapes: Record<string, number[]>;
}

/** The episodes the page's run controller holds now (the app's debug hook `__socialMindsLab.runController`). */
export async function controllerEpisodes(page: Page): Promise<ControllerEpisode[]> {
  return page.evaluate(() => {
    type Hook = {
      __socialMindsLab: { runController: { episodes: { index: number; records: Record<string, unknown>[]; tensors: Record<string, { shape: number[] }> }[] } };
    };
    return (window as unknown as Hook).__socialMindsLab.runController.episodes.map((e) => ({
      index: e.index,
      records: e.records,
      shapes: Object.fromEntries(Object.entries(e.tensors).map(([name, t]) => [name, t.shape])),
    }));
  });
}
