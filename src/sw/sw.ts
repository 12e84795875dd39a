/// <reference lib="webworker" />
/**
 * The lab's service worker (built by vite-plugin-pwa's injectManifest into sw.js). Two jobs:
 *  - Offline after the first visit. The app itself (HTML, scripts, styles) is precached by content hash, so a new
 *    build replaces exactly what changed. onnxruntime's wasm and the default model are stored when the page asks,
 *    and served from there only while the browser is offline (online, a rebuilt model is never shadowed).
 *    They are not in the precache on purpose: Workbox fetches precache entries under a revision-stamped URL, which
 *    the browser's HTTP cache cannot serve, so a first visit that runs a lab would download those 13 MB twice, and
 *    at install, while the page may be starting a run.
 *  - Cross-origin isolation where the host sends no headers (GitHub Pages): every response this worker serves carries
 *    COOP and COEP, so from the second load on the page is isolated and onnxruntime's wasm runs on several threads.
 * A new version waits until the page asks for it (the page offers "Reload"), so a run is never cut by an update.
 */
import { addPlugins, cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { clientsClaim, type WorkboxPlugin } from 'workbox-core';
import { withIsolationHeaders } from './isolation';

/** The default model's id, from vite.config.ts (DEFAULT_MODEL). */
declare const __SML_DEFAULT_MODEL__: string;
declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

const isolation: WorkboxPlugin = {
  handlerWillRespond: async ({ response }) => withIsolationHeaders(response),
};

addPlugins([isolation]);
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

/**
 * onnxruntime's wasm and the models, offline only: while the browser is online the worker leaves these requests
 * alone (no route matches), so they go to the network as if there were no worker. Routing them through it cost the
 * presets 10–17 s here: every model worker fetches the 27 MB wasm, and keeping a copy of each model as it passed
 * meant writing it all to the cache again. What a lab needs offline is stored once, when the page asks (below).
 */
const FILES = 'social-minds-lab-files';
registerRoute(
  ({ url, request }) => request.method === 'GET' && !self.navigator.onLine && url.origin === self.location.origin && /\/(ort|models)\//.test(url.pathname),
  async ({ request }) => {
    const stored = await (await caches.open(FILES)).match(request.url);
    return stored ? withIsolationHeaders(stored) : Response.error();
  },
);

/**
 * What a lab needs to run offline on the default model: onnxruntime's two builds (plain for wasm, asyncify for WebGPU)
 * and the default model
 * (src/labs/synchrony's default pair; vite.config.ts DEFAULT_MODEL). The page asks for them ("STORE_OFFLINE") once it
 * has been idle for a while, or when the user asks, not at install: 34 MB fetched and stored while the page starts a
 * run competes with it for the CPU. Plain URLs, so the browser's HTTP cache serves what the page already fetched.
 */
const FOR_OFFLINE = [
  'ort/ort-wasm-simd-threaded.mjs',
  'ort/ort-wasm-simd-threaded.wasm',
  'ort/ort-wasm-simd-threaded.asyncify.mjs',
  'ort/ort-wasm-simd-threaded.asyncify.wasm',
  ...['config.json', 'generation_config.json', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json', 'onnx/model.onnx'].map(
    (f) => `models/${__SML_DEFAULT_MODEL__}/${f}`,
  ),
];

async function storeForOffline(): Promise<number> {
  const cache = await caches.open(FILES);
  let bytes = 0;
  for (const path of FOR_OFFLINE) {
    const url = new URL(path, self.registration.scope).href;
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
    bytes += Number(response.headers.get('content-length') ?? 0);
    await cache.put(url, response);
  }
  return bytes;
}

// The first install takes the open page at once (its later fetches are cached); an update waits for the page.
clientsClaim();
self.addEventListener('message', (event) => {
  const type = (event.data as { type?: string } | null)?.type;
  if (type === 'SKIP_WAITING') void self.skipWaiting();
  if (type === 'STORE_OFFLINE') {
    const reply = event.ports[0];
    event.waitUntil(
      storeForOffline().then(
        (bytes) => reply?.postMessage({ ok: true, bytes }),
        (e: Error) => reply?.postMessage({ ok: false, error: e.message }),
      ),
    );
  }
});
