/**
 * The pure parts of cross-origin isolation: the thread count the page asks onnxruntime for, and the headers the
 * service worker adds (the whole flow runs in Chromium: test/browser/offline.test.ts, nginx.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { wasmThreadCount } from '../../src/runtime/threads';
import { withIsolationHeaders } from '../../src/sw/isolation';

describe('wasm threads', () => {
  it('is one thread without isolation, and with it half the cores (at least one, up to four)', () => {
    expect(wasmThreadCount(false, 16)).toBe(1);
    expect(wasmThreadCount(true, 1)).toBe(1);
    expect(wasmThreadCount(true, 2)).toBe(1);
    expect(wasmThreadCount(true, 6)).toBe(3);
    expect(wasmThreadCount(true, 64)).toBe(4);
  });
});

describe('isolation headers from the service worker', () => {
  it('adds COOP, COEP and CORP and keeps the body, status and other headers', async () => {
    const out = withIsolationHeaders(new Response('body', { status: 201, statusText: 'Made', headers: { 'Content-Type': 'text/plain', ETag: '"x"' } }));
    expect(out.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(out.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    expect(out.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(out.headers.get('content-type')).toBe('text/plain');
    expect(out.headers.get('etag')).toBe('"x"');
    expect([out.status, out.statusText, await out.text()]).toEqual([201, 'Made', 'body']);
  });
  it('passes an opaque response as it is (it cannot be read or rewritten)', () => {
    const opaque = Object.defineProperty(new Response(null), 'type', { value: 'opaque' });
    expect(withIsolationHeaders(opaque)).toBe(opaque);
  });
});
