/** Where the built app finds its models/ and ort/ folders, from any sub-path (src/runtime/browser.ts appBase). */
import { describe, expect, it } from 'vitest';
import { appBase } from '../../src/runtime/browser';

describe('appBase', () => {
  it("a relative build base is the page's folder, and a worker's (in assets/) one level up", () => {
    expect(appBase('./', 'https://example.org/lab/index.html#/synchrony', false)).toBe('https://example.org/lab/');
    expect(appBase('./', 'https://example.org/lab/assets/model.worker-x1.js', true)).toBe('https://example.org/lab/');
    expect(appBase('./', 'https://example.org/a/b/assets/compute.worker-x2.js', true)).toBe('https://example.org/a/b/');
  });
  it('an absolute base (the dev server) is the root on the origin, in a page and in a worker', () => {
    expect(appBase('/', 'http://127.0.0.1:5173/src/workers/model.worker.ts', true)).toBe('http://127.0.0.1:5173/');
    expect(appBase('/lab/', 'https://example.org/lab/assets/model.worker-x1.js', true)).toBe('https://example.org/lab/');
  });
});
