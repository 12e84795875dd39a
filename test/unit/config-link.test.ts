import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LABS, labByName } from '../../src/labs/registry';
import {
  decodeLink,
  defaultConfig,
  defineLab,
  encodeLinkFragment,
  parseFragment,
  parseViewOptions,
  storedConfig,
  validateConfig,
  DEFAULT_VIEW_OPTIONS,
  MAX_DECODED_BYTES,
} from '../../src/core/config';
import { fromBase64Url, toBase64Url } from '../../src/core/config/base64url';
import { hostileLinks } from '../fixtures/hostile-links';

describe('base64url', () => {
  it('matches Node Buffer base64url for every length and byte value', () => {
    for (let n = 0; n < 70; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + n * 31) & 255);
      const ours = toBase64Url(bytes);
      expect(ours).toBe(Buffer.from(bytes).toString('base64url'));
      expect(Array.from(fromBase64Url(ours)!)).toEqual(Array.from(bytes));
    }
  });
  it('rejects characters outside the alphabet', () => {
    expect(fromBase64Url('ab+c')).toBeNull();
    expect(fromBase64Url('abcde')).toBeNull();
  });
});

describe('lab schemas', () => {
  it.each(LABS.map((d) => [d.name, d] as const))('%s: {} parses to a complete default config', (_, def) => {
    const config = defaultConfig(def);
    expect(validateConfig(def, config)).toEqual({ ok: true, value: config });
    expect(Object.keys(config).length).toBeGreaterThan(3);
  });
  it('reports the field path and the reason', () => {
    const result = validateConfig(labByName('opinions')!.definition, { graph: { side: 1 }, dynamics: { update: 'sideways' } });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.path).sort()).toEqual(['dynamics.update', 'graph.side']);
    expect(result.errors.find((e) => e.path === 'graph.side')!.message).toMatch(/>=\s*2/);
  });
});

describe('links', () => {
  it.each(LABS.map((d) => [d.name, d] as const))('%s: a non-default config survives the round trip exactly', (_, def) => {
    const config = { ...defaultConfig(def), seed: 4242 };
    const fragment = encodeLinkFragment(def, config);
    expect(fragment.startsWith(`#/${def.name}?c=`)).toBe(true);
    const back = decodeLink(`http://localhost:5173/${fragment}`, LABS);
    expect(back.ok && back.value.config).toEqual(config);
  });

  it('refuses every hostile link with a message', () => {
    const corpus = hostileLinks();
    expect(corpus.length).toBeGreaterThanOrEqual(20);
    for (const { name, fragment } of corpus) {
      const result = decodeLink(fragment, LABS);
      expect(result.ok, name).toBe(false);
      if (!result.ok) expect(result.errors[0].message.length, name).toBeGreaterThan(10);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('caps the decompressed size', () => {
    const zipBomb = hostileLinks().find((h) => h.name.startsWith('oversized (zip'))!;
    expect(zipBomb.fragment.length).toBeLessThan(MAX_DECODED_BYTES); // small on the wire, huge when inflated
    const result = decodeLink(zipBomb.fragment, LABS);
    expect(!result.ok && result.errors[0].message).toMatch(/larger than 64 KB/);
  });
});

describe('migrations', () => {
  const v2 = defineLab({
    name: 'opinions',
    title: 'Test',
    intro: 'test',
    summary: 'test',
    version: 3,
    migrations: {
      1: ({ iterations, ...rest }) => ({ ...rest, steps: iterations }),
      2: (old) => ({ ...old, temperature: (old.temperature as number) ?? 1 }),
    },
    schema: z.strictObject({ steps: z.number().int().default(10), temperature: z.number().default(1) }),
  });
  it('upgrades an old link through each step', () => {
    const result = validateConfig(v2, { iterations: 7, temperature: 2 }, 1);
    expect(result).toEqual({ ok: true, value: { steps: 7, temperature: 2 } });
  });
  it("reads a stored run's config from the version it was stored with, and a damaged one as null", () => {
    expect(storedConfig(v2, { config: { iterations: 7 }, schemaVersion: 1 })).toEqual({ steps: 7, temperature: 1 });
    expect(storedConfig(v2, { config: { steps: 'seven' }, schemaVersion: 3 })).toBeNull();
    expect(storedConfig(v2, { config: [], schemaVersion: 3 })).toBeNull();
    expect(storedConfig(v2, null)).toBeNull();
  });
  it('refuses a newer version with a clear message', () => {
    const result = validateConfig(v2, {}, 4);
    expect(!result.ok && result.errors[0].message).toMatch(/newer version/);
  });
  it('refuses a definition with a missing migration', () => {
    expect(() => defineLab({ ...v2, version: 4 })).toThrow(/missing migration from version 3/);
  });
});

describe('view options (a teacher link)', () => {
  it('travel beside the config and come back as they were', () => {
    const def = LABS[0];
    const view = { preset: 'partner-vs-reader', hideSettings: true, hiddenGroups: [], locked: true, autorun: true, presenter: true };
    const fragment = encodeLinkFragment(def, defaultConfig(def), view);
    const parsed = parseFragment(fragment);
    expect(parsed.view).toEqual(view);
    expect(parsed.viewErrors).toEqual([]);
    expect(parsed.route).toBe(def.name);
    const decoded = decodeLink(fragment, LABS);
    expect(decoded.ok && decoded.value.config).toEqual(defaultConfig(def));
    // the defaults add nothing to the link
    expect(encodeLinkFragment(def, defaultConfig(def))).not.toMatch(/&/);
    expect(parseFragment(encodeLinkFragment(def, defaultConfig(def))).view).toEqual(DEFAULT_VIEW_OPTIONS);
  });

  it('a bad value is reported, ignored, and never reaches the page as it was written', () => {
    const { options, errors } = parseViewOptions(new URLSearchParams('preset=<img src=x onerror=alert(1)>&hide=runtime,<b>&run=yes&big=1&lock=true'));
    expect(options).toEqual({ preset: null, hideSettings: false, hiddenGroups: [], locked: false, autorun: false, presenter: true });
    expect(errors.map((e) => e.path).sort()).toEqual(['hide', 'lock', 'preset', 'run']);
    expect(errors.find((e) => e.path === 'preset')!.message).not.toContain('<img');
  });

  it('hide names groups of settings (each once) or all of them, and lock travels with them', () => {
    const def = LABS[0];
    const view = { ...DEFAULT_VIEW_OPTIONS, hiddenGroups: ['runtime', 'analysis'], locked: true };
    const fragment = encodeLinkFragment(def, defaultConfig(def), view);
    expect(fragment).toMatch(/&hide=runtime,analysis&lock=1$/);
    expect(parseFragment(fragment).view).toEqual(view);
    expect(parseViewOptions(new URLSearchParams('hide=runtime,runtime')).options.hiddenGroups).toEqual(['runtime']);
    expect(parseViewOptions(new URLSearchParams('hide=settings')).options).toMatchObject({ hideSettings: true, hiddenGroups: [] });
    const many = Array.from({ length: 17 }, (_, i) => `g${i}`).join(',');
    expect(parseViewOptions(new URLSearchParams(`hide=${many}`)).errors.map((e) => e.path)).toEqual(['hide']);
  });
});
