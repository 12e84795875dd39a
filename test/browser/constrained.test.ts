/**
 * Constrained decoding in the page: the model worker loads XGrammar on the first reply that names a grammar (its
 * own chunk, fetched only then), and the embedded model's replies follow the grammar on wasm.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launch, openPage } from './setup/browser';

describe('constrained decoding in Chromium (wasm)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch('wasm');
  });
  afterAll(() => browser?.close());

  it('a yes/no grammar gives "Yes." or "No." from the embedded model in its worker', async () => {
    const { page, errors } = await openPage(browser, '#/models');
    const texts = await page.evaluate(async () => {
      type Handle = { generate(o: object): Promise<{ text: string; finishReason: string }> };
      const lab = (window as unknown as { __socialMindsLab: { modelClient: { load(id: string, o: object): Promise<Handle> } } }).__socialMindsLab;
      const h = await lab.modelClient.load('tiny-social', { device: 'wasm', dtype: 'fp32' });
      const out: string[] = [];
      for (const content of ['Do you agree that cities should have more bike lanes?', 'Hello there, how are you?'])
        for (const temperature of [0, 0.9]) {
          const r = await h.generate({ messages: [{ role: 'user', content }], grammar: 'root ::= ("Yes" | "No") "."', temperature, seed: 5, maxNewTokens: 12 });
          out.push(`${r.text}|${r.finishReason}`);
        }
      return out;
    });
    for (const t of texts) expect(t).toMatch(/^(Yes|No)\.\|eos$/);
    expect(errors).toEqual([]);
    await page.close();
  });
});
