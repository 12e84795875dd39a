/**
 * The download path of a hub model, against a loopback server with the hub's URL layout (test/helpers/loopback-hub.ts)
 * serving a stand-in of tiny-social: the runtime (Node, as the CLI uses it) takes the hub's address from HF_ENDPOINT,
 * as huggingface_hub does for mirrors. Checked: the states equal the embedded model's, download progress (step by
 * step from a slow host), a second load from the cache with no request, a revision pin, a 404, and a download cut
 * halfway (a clear error, nothing half-cached, and the next load whole).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loopbackHub, type LoopbackHub } from '../helpers/loopback-hub';
import type { LoadProgress } from '../../src/runtime/types';

const REPO = 'sml-test/tiny-social-hub';
const cacheDir = mkdtempSync(join(tmpdir(), 'sml-hub-cache-'));
let hub: LoopbackHub;
let createNodeRuntime: typeof import('../../src/runtime/node').createNodeRuntime;

/** Every file under the cache folder (a half-written one would show here). */
const cachedFiles = (dir = cacheDir): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? cachedFiles(join(dir, d.name)) : [join(dir, d.name)]));

async function states(model: string, options = {}) {
  const rt = createNodeRuntime();
  const seen: LoadProgress[] = [];
  const info = await rt.load(model, { device: 'cpu', dtype: 'fp32', ...options }, (p) => seen.push(p));
  const out = await rt.encode(['Hello there, how are you?']);
  await rt.dispose();
  return { info, seen, out };
}

describe('hub downloads from a loopback hub', () => {
  beforeAll(async () => {
    hub = await loopbackHub({ [REPO]: resolve(import.meta.dirname, '../../models/tiny-social') });
    process.env.HF_ENDPOINT = hub.url;
    process.env.SML_CACHE_DIR = cacheDir;
    ({ createNodeRuntime } = await import('../../src/runtime/node'));
  });
  afterAll(async () => {
    await hub?.close();
    delete process.env.HF_ENDPOINT;
    rmSync(cacheDir, { recursive: true, force: true });
  });

  it('downloads with progress through the hub layout, and the states equal the embedded model', async () => {
    const fromHub = await states(REPO);
    expect(fromHub.info.backend).toBe('cpu');
    expect(hub.requests).toContain(`GET /${REPO}/resolve/main/config.json`);
    expect(hub.requests).toContain(`GET /${REPO}/resolve/main/onnx/model.onnx`);
    expect(hub.requests.some((r) => r.startsWith('GET /cdn/'))).toBe(true);
    const downloads = fromHub.seen.filter((p) => p.phase === 'download');
    expect(downloads.length).toBeGreaterThan(0);
    expect(downloads.at(-1)!.loaded).toBeGreaterThan(6e6);
    expect(downloads.at(-1)!.loaded).toBe(downloads.at(-1)!.total);
    const embedded = await states('tiny-social');
    expect(fromHub.out).toEqual(embedded.out);
  });

  it('loads again from the cache without asking the hub', async () => {
    hub.requests.length = 0;
    await states(REPO);
    expect(hub.requests).toEqual([]);
  });

  it('asks for a pinned revision', async () => {
    hub.requests.length = 0;
    await states(REPO, { revision: 'f00dfeed' });
    expect(hub.requests).toContain(`GET /${REPO}/resolve/f00dfeed/config.json`);
    expect(hub.requests.filter((r) => r.includes('/resolve/') && !r.includes('/resolve/f00dfeed/'))).toEqual([]);
  });

  it('reports progress step by step from a slow host', async () => {
    hub.faults.set('onnx/model.onnx', 10); // 10 ms per 64 kB: about a second for the graph
    const slow = await states(REPO, { revision: 'slow' });
    hub.faults.clear();
    const graph = slow.seen.filter((p) => p.phase === 'download' && p.file?.endsWith('model.onnx'));
    expect(graph.length).toBeGreaterThan(10);
    for (let i = 1; i < graph.length; i++) expect(graph[i].loaded).toBeGreaterThanOrEqual(graph[i - 1].loaded);
    expect(graph.at(-1)!.loaded).toBe(graph.at(-1)!.total);
  });

  it('says plainly that a model is not on the hub', async () => {
    const failed = await states('sml-test/no-such-model').then(
      () => null,
      (e: Error) => e.message,
    );
    console.log(`hub 404: ${failed}`);
    expect(failed).toMatch(/sml-test\/no-such-model.*(not found|404)/i);
    expect(hub.requests).toContain('GET /sml-test/no-such-model/resolve/main/config.json');
  });

  it('a download cut halfway fails clearly, caches nothing half-written, and the next load is whole', async () => {
    hub.faults.set('onnx/model.onnx', 'cut');
    const failed = await states(REPO, { revision: 'cut-test' }).then(
      () => null,
      (e: Error) => e.message,
    );
    console.log(`hub download cut: ${failed}`);
    expect(failed).toMatch(/tiny-social-hub": a download stopped before its file was complete .*load it again to retry/);
    // The small files came whole and are kept; of the cut graph nothing is, not even a temporary file.
    const kept = cachedFiles().filter((f) => f.includes('/resolve/cut-test/'));
    expect(kept.some((f) => f.endsWith('config.json'))).toBe(true);
    expect(kept.filter((f) => /model\.onnx|\.tmp$/.test(f))).toEqual([]);
    hub.faults.clear();
    const again = await states(REPO, { revision: 'cut-test' });
    const embedded = await states('tiny-social');
    expect(again.out).toEqual(embedded.out);
  });
});
