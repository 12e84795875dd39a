/**
 * The grid pool (workers/grid-pool.ts) on Node's worker_threads, for the CLI, the benchmarks and the tests.
 * Each worker registers tsx before importing its TypeScript entry, since Node's loader does not carry it into workers.
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { GridPool, type GridPoolOptions, type GridWorkerHandle } from '../workers/grid-pool.ts';
import type { GridWorkerApi } from '../workers/grid-worker-api.ts';

const entry = pathToFileURL(resolve(import.meta.dirname, 'grid-worker-entry.ts')).href;
const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`;

/** A started grid worker as the pool sees it (exported for the tests, which also hand it a worker that dies). */
export function nodeGridWorker(worker: Worker = new Worker(boot, { eval: true })): GridWorkerHandle {
  const died = new Promise<string>((res) => {
    worker.once('error', (e) => res(e.message));
    worker.once('exit', (code) => res(`exit code ${code}`));
  });
  return { api: Comlink.wrap<GridWorkerApi>(nodeEndpoint(worker)), died, terminate: () => void worker.terminate() };
}

/** A pool of `workers` grid workers (default: one per core); `close()` it when done, or the process stays alive. */
export function createNodeGridPool(workers = availableParallelism(), options: GridPoolOptions = {}): GridPool {
  return new GridPool(workers, () => nodeGridWorker(), options);
}
