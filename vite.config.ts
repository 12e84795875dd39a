import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VitePWA } from 'vite-plugin-pwa';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';

const root = import.meta.dirname;

/**
 * onnxruntime-web defaults to a CDN for its .wasm/.mjs; we serve our own copy so the lab works offline. The app
 * imports onnxruntime-web's WebGPU bundle, which asks for the asyncify build; a worker on the wasm backend loads the
 * plain build instead (src/runtime/browser.ts `ortFiles`: twice as fast on small models). The JSEP and JSPI builds
 * are never requested, so they are not shipped. The runtime points onnxruntime at ort/ before any session, so the
 * copy Vite emits into assets/ from the bundle's own `new URL(…wasm, import.meta.url)` is never fetched either, and
 * is dropped from the build.
 */
const ORT_FILE = /^ort-wasm-simd-threaded(\.asyncify)?\.(wasm|mjs)$/;
function copyOrtAssets(): Plugin {
  return {
    name: 'copy-ort-assets',
    buildStart() {
      const src = resolve(root, 'node_modules/onnxruntime-web/dist');
      const dst = resolve(root, 'public/ort');
      rmSync(dst, { recursive: true, force: true });
      mkdirSync(dst, { recursive: true });
      for (const f of readdirSync(src)) if (ORT_FILE.test(f)) cpSync(resolve(src, f), resolve(dst, f));
    },
    generateBundle(_options, bundle) {
      for (const name of Object.keys(bundle)) if (/(^|\/)ort-wasm-simd-threaded[^/]*\.wasm$/.test(name)) delete bundle[name];
    },
  };
}

/** The embedded model lives in models/ (committed); serve it at /models/ in dev and copy it into the build. */
function embeddedModels(): Plugin {
  const modelsDir = resolve(root, 'models');
  return {
    name: 'embedded-models',
    buildStart() {
      const dst = resolve(root, 'public/models');
      for (const name of existsSync(modelsDir) ? readdirSync(modelsDir) : []) {
        const dir = resolve(modelsDir, name);
        if (existsSync(resolve(dir, 'config.json'))) {
          mkdirSync(resolve(dst, name), { recursive: true });
          cpSync(dir, resolve(dst, name), {
            recursive: true,
            // reference.json (the PyTorch reference) reaches the page inside the diagnostics chunk, not as a model file.
            filter: (p) => !/(\/work|\.py|\.ts|\.sh|__pycache__|\/reference\.json)(\/|$)/.test(p.slice(dir.length)),
          });
        }
      }
    },
  };
}

/**
 * The compute worker imports the lab registry for the runners, and each lab module names its view as a lazy
 * `import('./XView.svelte')`. A worker never calls it, so the worker build resolves .svelte files to an empty module
 * instead of compiling the views a second time (and failing: the Svelte plugin is for the page).
 */
function noViewsInWorkers(): Plugin {
  const stub = '\0lab-view-stub';
  return {
    name: 'no-views-in-workers',
    enforce: 'pre',
    resolveId: (id) => (id.endsWith('.svelte') ? stub : null),
    load: (id) => (id === stub ? 'export default null;' : null),
  };
}

/**
 * Cross-origin isolation lets onnxruntime-web run WASM on several threads (SharedArrayBuffer). Everything the app
 * loads is same-origin or fetched with CORS (hub models), which require-corp allows. A static host must send the
 * same two headers (docs/runtime.md); without them the lab still works, on one WASM thread.
 */
const crossOriginIsolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/** The model a lab opens on by default (src/labs/synchrony's default pair), precached for offline use. */
const DEFAULT_MODEL = 'organism-dialogue';

/**
 * The installable, offline app (docs/deploy.md): src/sw/sw.ts, with Workbox's precache manifest (the app's own
 * files) injected; the worker stores onnxruntime's wasm and the default model at install, other models as they are used.
 */
function offlineApp() {
  return VitePWA({
    strategies: 'injectManifest',
    srcDir: 'src/sw',
    filename: 'sw.ts',
    registerType: 'prompt',
    injectRegister: false,
    manifest: {
      name: 'Social Minds Lab',
      short_name: 'Social Minds',
      description: 'Small language models talk to each other in your browser; four labs show what research papers found.',
      theme_color: '#1f2937',
      background_color: '#f9fafb',
      display: 'standalone',
      icons: [{ src: 'favicon.svg', sizes: 'any', type: 'image/svg+xml' }],
    },
    injectManifest: {
      // The app only: src/sw/sw.ts stores onnxruntime's wasm and the default model itself (it says why).
      globPatterns: ['*.{html,svg,webmanifest}', 'assets/**/*.{js,css}'],
    },
    devOptions: { enabled: false },
  });
}

export default defineConfig({
  // Relative asset URLs: the built app works from any sub-path of any static host (GitHub Pages' /<repo>/, say).
  base: './',
  // The service worker's build shares this define (vite-plugin-pwa): it stores the default model at install.
  define: { __SML_DEFAULT_MODEL__: JSON.stringify(DEFAULT_MODEL) },
  plugins: [copyOrtAssets(), embeddedModels(), svelte(), offlineApp()],
  worker: { format: 'es', plugins: () => [noViewsInWorkers()] },
  // Workers are built into assets/, one level below the app's root: src/runtime/browser.ts appBase() relies on it.
  build: { target: 'es2022', chunkSizeWarningLimit: 4000, assetsDir: 'assets' },
  server: { port: 5173, headers: crossOriginIsolation },
  preview: { port: 5173, headers: crossOriginIsolation },
});
