/**
 * The grid pool in a browser: Web Workers started from the compute worker (nested dedicated workers). It needs
 * SharedArrayBuffer, which a page has only when cross-origin isolated (the app is: docs/deploy.md); without it, and
 * where workers cannot start workers, the grids run in process.
 */
import * as Comlink from 'comlink';
import { createInProcessExecutor, type GridExecutor } from '../src/core/grid-tasks';
import { canShareMemory, GridPool, type GridWorkerHandle } from './grid-pool';
import type { GridWorkerApi } from './grid-worker-api';

function spawnWebGridWorker(): GridWorkerHandle {
  const worker = new Worker(new URL('./grid.worker.ts', import.meta.url), { type: 'module', name: 'grid' });
  const died = new Promise<string>((res) => {
    worker.addEventListener('error', (e) => res(e.message || 'it could not start or threw'));
    worker.addEventListener('messageerror', () => res('a message could not be read'));
  });
  return { api: Comlink.wrap<GridWorkerApi>(worker), died, terminate: () => worker.terminate() };
}

/** One worker per core (at most 8), or the in-process executor where a pool cannot work. */
export function createWebGridExecutor(): GridExecutor {
  if (!canShareMemory() || typeof Worker === 'undefined') return createInProcessExecutor();
  const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 2;
  return new GridPool(Math.max(1, Math.min(8, cores)), spawnWebGridWorker);
}
