/**
 * What one grid worker does: compute one ridge R² grid task (src/core/grid-tasks.ts), keeping the moments of its
 * recent source stacks for the next task on the same source. Shared by the page's grid.worker.ts and Node's
 * cli/grid-worker-entry.ts, so both run the very same code.
 */
import { gridTaskSteps, MomentCaches, type GridTask } from '../src/core/grid-tasks';
import { checkStack } from '../src/core/layer-stack';
import { runSteps } from '../src/core/steps';

export function createGridWorkerApi() {
  const caches = new MomentCaches<string>();
  return {
    /** The task's grid; `sourceKey` names its source stack within the host (same key, same data). */
    grid(task: GridTask, sourceKey: string, onProgress?: (fraction: number) => unknown): Float64Array {
      checkStack(task.source, 'source');
      checkStack(task.target, 'target');
      return runSteps(gridTaskSteps(task, caches.for(sourceKey)), { onProgress: onProgress && ((d, t) => void onProgress(d / t)) });
    },
  };
}

export type GridWorkerApi = ReturnType<typeof createGridWorkerApi>;
