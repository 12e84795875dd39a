import { RunStore } from '../store/run-store';
import { WorkerHost } from './worker-host';
import { RunController } from './run-controller.svelte';
import type { ComputeWorkerApi } from '../../workers/compute.worker';
import { ModelClient } from '../runtime/client';
import type { GpuSampleOptions } from '../labs/opinions/gpu-ising';
import type { PlainStack } from '../gpu/gram-check';

let storePromise: Promise<RunStore> | undefined;
/** The one IndexedDB connection of the page, opened on first use. */
export const runStore = () => (storePromise ??= RunStore.open());

export const computeHost = new WorkerHost<ComputeWorkerApi>(
  () => new Worker(new URL('../../workers/compute.worker.ts', import.meta.url), { type: 'module', name: 'compute' }),
);

/** One model client for the page: every loaded model, each in its own worker. */
export const modelClient = new ModelClient();

export const runController = new RunController(runStore, computeHost, modelClient);

/** A small, harmless handle for tests and for diagnosing in the console. It can only hurt our own worker. */
(globalThis as Record<string, unknown>).__socialMindsLab = {
  crashComputeWorker: () => computeHost.call((api) => api.crashForTest()),
  killComputeWorker: () => computeHost.rawWorker.terminate(),
  /** Stops the first live model worker with no event, as a browser that kills it for memory does; returns its key. */
  killModelWorker: () => {
    const handle = modelClient.handles().find((h) => !h.isCrashed);
    handle?.killSilentlyForTest();
    return handle?.key ?? null;
  },
  /** Shorter liveness timings for model workers loaded after this call (tests). */
  setModelLiveness: (timings: { pingIntervalMs?: number; pingTimeoutMs?: number; busyTimeoutMs?: number }) => modelClient.setLiveness(timings),
  runController,
  /** The compute worker's grid pool, and a SyncR² computed on it (tests compare it with Node's). */
  gridExecutor: () => computeHost.call((api) => api.gridExecutor()),
  syncR2: (...args: Parameters<ComputeWorkerApi['syncR2']>) => computeHost.call((api) => api.syncR2(...args)),
  /** The page's loaded models (tests ask one for a constrained reply, which no lab asks for yet). */
  modelClient,
  /** A stored run's derived results, recomputed first if stale (tests compare them with a headless run of the same link). */
  runResults: (runId: string) => runController.currentResults(runId),
  /** One run of the WebGPU Glauber kernel on a fresh device (tests compare its statistics with the CPU path's). */
  gpuIsing: async (o: GpuSampleOptions) => (await import('../labs/opinions/gpu-ising')).sampleGpuIsing(o),
  /** CKA of two stacks with the Gram products on the GPU (tests compare it with the float64 path in Node). */
  gpuCka: async (x: PlainStack, y: PlainStack) => (await import('../gpu/gram-check')).gpuCkaCheck(x, y),
  gpuSyncR2: async (source: PlainStack, target: PlainStack, group: number[], alpha: number, rowsBudgetBytes?: number) =>
    (await import('../gpu/gram-check')).gpuSyncCheck(source, target, group, alpha, rowsBudgetBytes),
};
