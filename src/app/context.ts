/**
 * The page's services, handed to the views through Svelte's context instead of module singletons: a lab view asks
 * for what it needs (`getServices()`), and App.svelte, the composition root, decides what it gets. A test or a
 * second page can then mount a view with other services.
 */
import { createContext } from 'svelte';
import type { RunStore } from '../store/run-store';
import type { WorkerHost } from './worker-host';
import type { RunController } from './run-controller.svelte';
import type { ComputeWorkerApi } from '../../workers/compute.worker';
import type { ModelClient } from '../runtime/client';

export interface LabServices {
  /** The page's one IndexedDB connection, opened on first use. */
  runStore: () => Promise<RunStore>;
  /** The compute worker (ridge maps, fits), restarted after a crash. */
  computeHost: WorkerHost<ComputeWorkerApi>;
  modelClient: ModelClient;
  /** The run in progress: start, cancel, progress. */
  runController: RunController;
}

export const [getServices, setServices] = createContext<LabServices>();
