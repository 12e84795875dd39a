/**
 * Accessible and responsive, as axe-core and a phone-width window see them: no serious or critical axe violation on
 * the home page and the four labs, and no horizontal scroll at 390 px.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, openPage } from './setup/browser';
import { LAB_NAMES } from '../../src/core/config/lab-definition';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PAGES = ['', ...LAB_NAMES];

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

async function serious(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  const { violations, passes } = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: Violation[]; passes: unknown[] }> } }).axe;
    const r = await axe.run(document, {});
    return { violations: r.violations, passes: r.passes.length };
  });
  // axe ran its rules on this page (a page it could not read would pass nothing).
  expect(passes).toBeGreaterThan(10);
  console.log(`${page.url().split('#')[1] ?? 'home'}: axe ${passes} rules passed, violations: ${violations.map((v) => `${v.id}/${v.impact}`).join(' ') || 'none'}`);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
}

describe('accessibility and small screens (Chromium)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch('wasm');
  });
  afterAll(() => browser?.close());

  it.each(PAGES.map((p) => [p || 'home', p]))('%s: no serious or critical axe violation, no horizontal scroll at 390 px', async (_, route) => {
    const { page } = await openPage(browser, route ? `#/${route}` : '');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForTimeout(500);
    expect(await serious(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 800 });
    await page.waitForTimeout(300);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'horizontal overflow in px at 390 px').toBeLessThanOrEqual(0);
    await page.close();
  });
});
