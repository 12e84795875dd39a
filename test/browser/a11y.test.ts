/**
 * Accessible and responsive, as axe-core and a phone-width window see them: no serious or critical axe violation on
 * the home page and the four labs, and no horizontal scroll at 390 px. On each lab, the settings form has a control
 * for every leaf field of the lab's schema (every field type), and none shows an object as "[object Object]".
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, openPage } from './setup/browser';
import { z } from 'zod';
import { LAB_NAMES, type LabName } from '../../src/core/config/lab-definition';
import { LAB_MODULE_BY_NAME } from '../../src/labs/registry';

/** The part of a JSON schema that the settings form reads (src/components/SchemaField.svelte). */
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  form?: boolean;
}

/** The form's id of every leaf field of a lab's schema, as SchemaField names it (lists of objects: their first item). */
function leafIds(lab: LabName): string[] {
  const out: string[] = [];
  const walk = (s: JsonSchema, path: string) => {
    if (s.form === false) return;
    if (s.type === 'array' && s.items?.type === 'object' && s.items.properties) return walk(s.items, `${path}.0`);
    if (s.type === 'object' && s.properties) {
      for (const [k, sub] of Object.entries(s.properties)) walk(sub, path ? `${path}.${k}` : k);
      return;
    }
    out.push(`field-${path.replace(/[^\w]/g, '-')}`);
  };
  walk(z.toJSONSchema(LAB_MODULE_BY_NAME[lab].definition.schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema, '');
  return out;
}

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
  console.log(
    `${page.url().split('#')[1] ?? 'home'}: axe ${passes} rules passed, violations: ${violations.map((v) => `${v.id}/${v.impact}`).join(' ') || 'none'}`,
  );
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} at ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    );
}

describe('accessibility and small screens (Chromium)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch('wasm');
  });
  afterAll(() => browser?.close());

  it.each(PAGES.map((p) => [p || 'home', p]))(
    '%s: no serious or critical axe violation, every setting has its control, no horizontal scroll at 390 px',
    async (_, route) => {
      const { page } = await openPage(browser, route ? `#/${route}` : '');
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForTimeout(500);
      expect(await serious(page)).toEqual([]);
      if (route) {
        // The settings form: every leaf field of the schema has its control, and none shows an object as text.
        const lab = route as LabName;
        const ids = leafIds(lab);
        expect(ids.length).toBeGreaterThan(5);
        const missing = await page.evaluate((all) => all.filter((id) => !document.getElementById(id)), ids);
        expect(missing).toEqual([]);
        const shown = await page.evaluate(() =>
          [...document.querySelectorAll('input, textarea, select')].map((e) => (e as HTMLInputElement).value).filter((v) => v.includes('[object')),
        );
        expect(shown).toEqual([]);
      }
      await page.setViewportSize({ width: 390, height: 800 });
      await page.waitForTimeout(300);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, 'horizontal overflow in px at 390 px').toBeLessThanOrEqual(0);
      await page.close();
    },
  );
});
