/**
 * What one grid worker does, for the pool in workers/grid-pool.ts: one source layer's row of a ridge grid, or one
 * target layer's column against all of a grid's source rows (src/core/ridge.ts), keeping what the next call on the
 * same data will need: the source stack's moments, and the grid's source rows resident in wasm memory. Shared by the
 * page's grid.worker.ts and Node's cli/grid-worker-entry.ts, so both run the very same code. The host has checked
 * the stacks (every value finite), so the worker does not scan them again.
 */
import * as Comlink from 'comlink';
import { gridTaskSteps, MomentCaches, usesMoments, type GridTask } from '../src/core/grid-tasks';
import { runSteps } from '../src/core/steps';
import type { LayerStack } from '../src/core/layer-stack';
import { crossDotsGroup, gramInfo, type GramInfo } from '../src/core/cka';
import { gridPlan, residentRows, sourceRow, targetColumn, type SourceRows } from '../src/core/ridge';

export function createGridWorkerApi() {
  const caches = new MomentCaches<string>();
  let kept: { key: string; rows: SourceRows } | null = null;
  return {
    /** A whole grid, as the one-thread path computes it (for grids whose rows are too large to share). */
    grid(task: GridTask, sourceKey: string): Float64Array {
      return runSteps(gridTaskSteps(task, caches.for(sourceKey)));
    },
    /**
     * Layer l's Gram statistics for CKA. Its triangle goes back in shared memory, where the pool's crossDots reads it
     * again without a copy; the small arrays are transferred.
     */
    gramLayer(stack: LayerStack, l: number): GramInfo {
      const g = gramInfo(stack, l, (length) => new Float64Array(new SharedArrayBuffer(length * 8)));
      return Comlink.transfer(g, [g.diag.buffer, g.rowsum.buffer]);
    },
    /** Group g of crossDots over `vectors` (shared memory) against themselves. */
    crossDotsGroup(vectors: Float64Array[], g: number): Float64Array {
      const part = crossDotsGroup(vectors, null, g);
      return Comlink.transfer(part, [part.buffer]);
    },
    /** Source layer a's row [Mpacked | A] of the grid (source, target, mask, alpha); `sourceKey` names the source. */
    sourceRow(source: LayerStack, target: LayerStack, a: number, mask: Uint8Array, alpha: number, sourceKey: string): Float64Array {
      const plan = gridPlan(source, target, mask, alpha);
      const row = sourceRow(source, a, plan, usesMoments(source, mask) ? caches.for(sourceKey) : undefined);
      return Comlink.transfer(row, [row.buffer]);
    },
    /**
     * Target layer b's column of R² against every source row in `rows` (row-major, L_A rows, shared memory), named
     * `rowsKey`: the first call for a grid copies its rows into wasm memory, later calls for the same grid reuse them.
     */
    targetColumn(source: LayerStack, target: LayerStack, b: number, mask: Uint8Array, alpha: number, rows: Float64Array, rowsKey: string): Float64Array {
      const plan = gridPlan(source, target, mask, alpha);
      if (kept?.key !== rowsKey) {
        kept = null; // the previous grid's resident rows can go before the next ones are built
        const LA = rows.length / plan.rowLength;
        const list = Array.from({ length: LA }, (_, a) => rows.subarray(a * plan.rowLength, (a + 1) * plan.rowLength));
        kept = { key: rowsKey, rows: residentRows(plan, 0, list) };
      }
      return targetColumn(target, b, plan, kept.rows);
    },
  };
}

export type GridWorkerApi = ReturnType<typeof createGridWorkerApi>;
