import { defineConfig } from 'vite';
import { resolve } from 'node:path';

const repo = resolve(import.meta.dirname, '../..');

/** Cross-origin isolation, as the app's vite.config.ts: wasm threads, and performance.measureUserAgentSpecificMemory. */
const crossOriginIsolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/** Builds bench/gpu/ into bench/gpu/dist, serving the app's public/ (ort/ and models/, filled by `npm run build`). */
export default defineConfig({
  root: import.meta.dirname,
  publicDir: resolve(repo, 'public'),
  worker: { format: 'es' },
  build: { target: 'es2022', outDir: resolve(import.meta.dirname, 'dist'), emptyOutDir: true, chunkSizeWarningLimit: 4000 },
  server: { headers: crossOriginIsolation },
  preview: { headers: crossOriginIsolation },
});
