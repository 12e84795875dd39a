import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FLAVOURS, launch, onceOnWasm, openPage, textOf, waitFor } from './setup/browser';
import { opinionsLink } from './setup/opinions';
import { expectSmooth, watchLongTasks } from './setup/smoothness';

const link = opinionsLink;
const text = textOf;

async function canvasPoint(page: Page, fx: number, fy: number): Promise<[number, number]> {
  const box = (await page.getByTestId('graph-canvas').boundingBox())!;
  return [box.x + box.width * fx, box.y + box.height * fy];
}

async function editorCounts(page: Page): Promise<{ nodes: number; edges: number }> {
  const c = page.getByTestId('graph-canvas');
  return { nodes: Number(await c.getAttribute('data-nodes')), edges: Number(await c.getAttribute('data-edges')) };
}

async function exportedJson(page: Page): Promise<{ nodes: { id: number; x: number; y: number }[]; edges: unknown[] }> {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export JSON' }).click();
  const file = join(mkdtempSync(join(tmpdir(), 'graph-')), 'g.json');
  await (await download).saveAs(file);
  return JSON.parse(readFileSync(file, 'utf8'));
}

describe.each(FLAVOURS)('opinions lab in Chromium (%s)', (flavour) => {
  // The simulation, the editor and the sweep run on the CPU in both flavours (the live panel uses the GPU only when
  // asked: opinions-gpu.test.ts), so they run once, on wasm; the main-thread budgets, where rendering differs, in both.
  const once = onceOnWasm(flavour);
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch(flavour);
  });
  afterAll(async () => {
    await browser?.close();
  });

  once('the simulation plays (n(t) moves), pauses, and steps, with no console errors', async () => {
    const { page, errors } = await openPage(
      browser,
      link((c) => (c.graph.side = 48)),
    );
    await page.getByTestId('play').waitFor();
    await waitFor(page, async () => (await text(page, 'live-n')) !== '–');
    await page.getByTestId('play').click();
    await waitFor(page, async () => Number(await text(page, 'live-t')) > 20);
    const pathBefore = await page.getByTestId('plot-n').locator('path').first().getAttribute('d');
    await waitFor(page, async () => (await page.getByTestId('plot-n').locator('path').first().getAttribute('d')) !== pathBefore);
    await page.getByTestId('play').click();
    await waitFor(page, async () => (await page.getByTestId('play').textContent())?.trim() === 'Play');
    const t0 = Number(await text(page, 'live-t'));
    await page.getByTestId('step').click();
    await waitFor(page, async () => Number(await text(page, 'live-t')) === t0 + 1);
    expect(await text(page, 'phase')).toMatch(/indifference|polarization|consensus/);

    // Per-node fields that do not match the graph are explained, and nothing runs on them.
    await page.goto(
      page.url().split('#')[0] +
        link((c) => {
          c.custom = { nodes: 3, edges: '0+1,1-2' };
          c.dynamics.nodeFields = [1, 2];
        }),
    );
    await page
      .getByRole('alert')
      .filter({ hasText: /2 values, but the graph has 3 nodes/ })
      .first()
      .waitFor();
    expect(await page.getByTestId('play').isDisabled()).toBe(true);
    // Loading three fields from a file fixes it, and the link keeps them.
    const fieldsFile = join(mkdtempSync(join(tmpdir(), 'fields-')), 'g.json');
    writeFileSync(fieldsFile, '{"fields": [0.5, -0.5, 2]}');
    await page.getByTestId('fields-file').setInputFiles(fieldsFile);
    await expect.poll(() => page.getByTestId('play').isEnabled()).toBe(true);
    await page.getByText('3 per-node values').waitFor();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('plays a 316×316 lattice within the main-thread budget', async () => {
    const { page, errors } = await openPage(
      browser,
      link((c) => {
        c.graph.side = 316;
        c.dynamics.temperature = 1.5;
        c.live.stepsPerFrame = 4;
      }),
    );
    await page.getByTestId('play').waitFor();
    await waitFor(page, async () => (await text(page, 'live-n')) !== '–', 30_000);
    const stopWatching = await watchLongTasks(page);
    await page.getByTestId('play').click();
    await page.waitForTimeout(6000);
    const fps = Number(await text(page, 'fps'));
    const ups = await text(page, 'ups');
    const steps = Number(await text(page, 'live-t'));
    await page.getByTestId('play').click();
    const longTasks = await stopWatching();
    console.log(`[${flavour}] 316x316: ${fps} frames/s, ${ups} spin updates/s, ${steps} steps in ~6 s, long tasks: ${JSON.stringify(longTasks.tasks)}`);
    expect(steps).toBeGreaterThan(10);
    expectSmooth(longTasks);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  once('the editor adds nodes and an edge by mouse, cycles its sign, undoes, and round-trips an export', async () => {
    const { page, errors } = await openPage(browser, '#/opinions');
    const canvas = page.getByTestId('graph-canvas');
    await canvas.scrollIntoViewIfNeeded();
    await waitFor(page, async () => (await page.getByTestId('editor-status').textContent())?.includes('0 nodes') ?? false);
    const spots: [number, number][] = [
      [0.3, 0.5],
      [0.7, 0.5],
      [0.5, 0.2],
    ];
    for (const [fx, fy] of spots) {
      const [x, y] = await canvasPoint(page, fx, fy);
      await page.mouse.dblclick(x, y);
    }
    expect(await editorCounts(page)).toEqual({ nodes: 3, edges: 0 });
    await page.getByRole('radio', { name: 'Connect' }).check();
    // Checking the tool may scroll the page, so the nodes' screen positions are read again.
    await canvas.scrollIntoViewIfNeeded();
    const [a, b, c] = await Promise.all(spots.map(([fx, fy]) => canvasPoint(page, fx, fy)));
    for (const [p, q] of [
      [a, b],
      [b, c],
    ]) {
      await page.mouse.move(p[0], p[1]);
      await page.mouse.down();
      await page.mouse.move((p[0] + q[0]) / 2, (p[1] + q[1]) / 2, { steps: 4 });
      await page.mouse.move(q[0], q[1], { steps: 4 });
      await page.mouse.up();
    }
    expect(await editorCounts(page)).toEqual({ nodes: 3, edges: 2 });
    expect(page.url()).toContain('#/opinions?c=');
    await expect.poll(() => page.getByRole('spinbutton', { name: 'Nodes', exact: true }).inputValue()).toBe('3');
    // Click the middle of edge a–b: + becomes −.
    await page.mouse.click((a[0] + b[0]) / 2, a[1]);
    await waitFor(page, async () => (await page.getByTestId('editor-status').textContent())?.includes('1 unfriendly') ?? false);
    await page.getByTestId('undo').click();
    await waitFor(page, async () => (await page.getByTestId('editor-status').textContent())?.includes('0 unfriendly') ?? false);
    await page.getByTestId('undo').click();
    expect(await editorCounts(page)).toEqual({ nodes: 3, edges: 1 });
    await page.getByTestId('redo').click();
    expect(await editorCounts(page)).toEqual({ nodes: 3, edges: 2 });
    await page
      .getByTestId('balance')
      .getByText(/Frustrated triangles/)
      .waitFor();
    // The drawn graph is the one the live simulation runs.
    await waitFor(page, async () => (await text(page, 'live-agents')) === '3');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export JSON' }).click();
    const file = join(mkdtempSync(join(tmpdir(), 'graph-')), 'g.json');
    await (await download).saveAs(file);
    const exported = JSON.parse(readFileSync(file, 'utf8'));
    expect(exported.nodes).toHaveLength(3);
    expect(exported.edges).toHaveLength(2);
    await page.getByRole('button', { name: 'Clear' }).click();
    expect(await editorCounts(page)).toEqual({ nodes: 0, edges: 0 });
    await page.getByTestId('import').setInputFiles(file);
    await waitFor(page, async () => (await editorCounts(page)).edges === 2);
    expect(await editorCounts(page)).toEqual({ nodes: 3, edges: 2 });

    // Keyboard routes: A adds a node on the focused canvas, Ctrl+Z takes it back; the form sets an edge by numbers.
    await canvas.focus();
    await page.keyboard.press('a');
    expect(await editorCounts(page)).toEqual({ nodes: 4, edges: 2 });
    await page.keyboard.press('Control+z');
    expect(await editorCounts(page)).toEqual({ nodes: 3, edges: 2 });
    await page.getByRole('spinbutton', { name: 'From node' }).fill('0');
    await page.getByRole('spinbutton', { name: 'to node' }).fill('2');
    await page.getByRole('combobox', { name: 'sign', exact: true }).selectOption('-1');
    await page.getByRole('button', { name: 'Set edge' }).click();
    expect(await editorCounts(page)).toEqual({ nodes: 3, edges: 3 });
    await waitFor(page, async () => (await page.getByTestId('editor-status').textContent())?.includes('1 unfriendly') ?? false);

    // Box-select the two lower nodes with Shift-drag on the background (the import fitted the view, so they sit near
    // the bottom corners), then Delete removes them; undo brings them back.
    await page.getByRole('radio', { name: 'Select / move' }).check();
    await canvas.scrollIntoViewIfNeeded();
    const [bx0, by0] = await canvasPoint(page, 0.005, 0.7);
    const [bx1, by1] = await canvasPoint(page, 0.995, 0.995);
    await page.keyboard.down('Shift');
    await page.mouse.move(bx0, by0);
    await page.mouse.down();
    await page.mouse.move(bx1, by1, { steps: 6 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
    await waitFor(page, async () => (await page.getByTestId('editor-status').textContent())?.includes('2 selected') ?? false);
    await page.keyboard.press('Delete');
    expect((await editorCounts(page)).nodes).toBe(1);
    await page.getByTestId('undo').click();
    expect(await editorCounts(page)).toEqual({ nodes: 3, edges: 3 });

    // Dragging the top node moves it (and only it): its exported y grows by the drag over the zoom.
    const before = await exportedJson(page);
    await canvas.scrollIntoViewIfNeeded();
    const [tx, ty] = await canvasPoint(page, 0.5, 0.15);
    await page.mouse.move(tx, ty);
    await page.mouse.down();
    await page.mouse.move(tx, ty + 60, { steps: 6 });
    await page.mouse.up();
    const after = await exportedJson(page);
    expect(after.nodes[2].y).toBeGreaterThan(before.nodes[2].y);
    expect(after.nodes[0]).toEqual(before.nodes[0]);
    expect(after.edges).toEqual(before.edges);
    await page.getByTestId('undo').click();
    expect((await exportedJson(page)).nodes).toEqual(before.nodes);

    const hostile = join(mkdtempSync(join(tmpdir(), 'graph-')), 'bad.csv');
    writeFileSync(hostile, 'source,target,sign\n<img src=x onerror=alert(1)>,b,1\n');
    await page.getByTestId('import').setInputFiles(hostile);
    await page
      .getByRole('alert')
      .filter({ hasText: /Import refused/ })
      .waitFor();
    expect(await page.locator('img[onerror]').count()).toBe(0);
    expect(await editorCounts(page)).toEqual({ nodes: 3, edges: 3 });
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('zoom and pan stay smooth with a 1000-node graph in the editor (main-thread budget)', async () => {
    const { page, errors } = await openPage(
      browser,
      link((c) => {
        c.graph.generator = 'random';
        c.graph.agents = 1000;
        c.graph.edgeBudget = 3000;
      }),
    );
    const canvas = page.getByTestId('graph-canvas');
    await canvas.scrollIntoViewIfNeeded();
    // Loading 1000 nodes into graphology is one step of its own; what must stay smooth is zooming and panning,
    // while the force layout keeps streaming positions from its worker.
    await waitFor(page, async () => (await editorCounts(page)).nodes === 1000, 60_000);
    // The live view builds the same graph in its own worker and then renders its first readouts; let that land.
    await waitFor(page, async () => (await text(page, 'live-agents')) === '1000', 60_000);
    await page
      .getByTestId('balance')
      .getByText(/Frustrated triangles/)
      .waitFor({ timeout: 60_000 });
    const stopWatching = await watchLongTasks(page);
    const [cx, cy] = await canvasPoint(page, 0.5, 0.5);
    await page.mouse.move(cx, cy);
    const started = Date.now();
    for (let k = 0; k < 20; k++) {
      await page.mouse.wheel(0, k < 10 ? -120 : 120);
      await page.waitForTimeout(30);
    }
    await page.mouse.move(cx + 200, cy + 60);
    await page.mouse.down();
    await page.mouse.move(cx - 100, cy - 50, { steps: 20 });
    await page.mouse.up();
    console.log(`[${flavour}] 1000 nodes / 3000 edges: 20 zoom steps and a pan in ${Date.now() - started} ms`);
    await page.waitForTimeout(500);
    const longTasks = await stopWatching();
    console.log(`[${flavour}] long tasks while laying out, zooming and panning 1000 nodes: ${JSON.stringify(longTasks.tasks)}`);
    expectSmooth(longTasks);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  once('a temperature sweep gives χ(𝒯) and a 𝒯_c near the lattice value', async () => {
    const { page, errors } = await openPage(
      browser,
      link((c) => {
        c.graph.side = 16;
        c.sweep = { points: 21, tMin: 0.3, tMax: 6, steps: 300, burn: 100, starts: 2, start: 'ordered' };
      }),
    );
    await page.getByTestId('sweep-run').click();
    await page.getByTestId('tc').waitFor({ timeout: 120_000 });
    const tc = Number(/≈\s*([\d.]+)/.exec(await text(page, 'tc'))?.[1]);
    // Effective coupling w = β⁺ + β₀ = 1.2, and σ(wΣs/𝒯) is the heat bath at βJ = w/(2𝒯): 𝒯_c = 1.2/(2·0.4407) ≈ 1.36.
    expect(tc).toBeGreaterThan(0.9);
    expect(tc).toBeLessThan(2.2);
    expect(await page.getByTestId('plot-sweep').locator('path').count()).toBeGreaterThan(0);
    // The phase strip: ordered (consensus) at low 𝒯, indifference at high 𝒯.
    const caption = await page.getByTestId('plot-sweep').locator('figcaption').textContent();
    expect(caption).toMatch(/consensus/);
    expect(caption).toMatch(/indifference/);
    // A long sweep can be cancelled half-way.
    await page.locator('#field-sweep-steps').fill('5000');
    await page.locator('#field-sweep-steps').press('Tab');
    await page.getByTestId('sweep-run').click();
    await page.getByRole('button', { name: 'Cancel sweep' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Sweep cancelled after \d+ of 21/ })
      .waitFor();
    await expect.poll(() => page.getByTestId('sweep-run').isEnabled()).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
