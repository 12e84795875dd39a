import { preview, type PreviewServer } from 'vite';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TestProject } from 'vitest/node';

let server: PreviewServer | undefined;

/**
 * Serves the built app (dist/, or the folder SML_DIST names, so that parallel work can build apart) on a free
 * loopback port for the browser tests.
 */
export async function setup(project: TestProject) {
  const root = resolve(import.meta.dirname, '../../..');
  const outDir = resolve(root, process.env.SML_DIST ?? 'dist');
  if (!existsSync(resolve(outDir, 'index.html'))) throw new Error(`${outDir} has no index.html: run \`npm run build\` before the browser tests`);
  server = await preview({ root, build: { outDir }, preview: { port: 0, host: '127.0.0.1', strictPort: false }, logLevel: 'warn' });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('preview server has no port');
  project.provide('baseUrl', `http://127.0.0.1:${address.port}/`);
}

export async function teardown() {
  await new Promise<void>((done) => (server ? server.httpServer.close(() => done()) : done()));
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}
