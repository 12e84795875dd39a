/**
 * Ridge R² grids (SyncR²) with their target-side products on the GPU: for each target layer and split, the two
 * weighted products G = W_tr·W_trᵀ and C = W_te·W_trᵀ (src/core/ridge.ts: the larger half of a grid's
 * multiply-adds) run in float32 on the GPU (src/gpu/gram.ts); the source side (each source layer's ridge operator:
 * a Cholesky solve) and every sum of the R² stay in float64 on the CPU. Within 1e-4 of the float64 grid
 * (test/browser/gpu-gram.test.ts). As a GridExecutor, it runs grids this way and CKA's Gram statistics on the GPU,
 * and hands CKA's dot products to the CPU executor it wraps.
 */
import { throwIfAborted } from '../core/cancel';
import { gridsInTurn, MomentCaches, usesMoments, type GridExecutor, type GridTask } from '../core/grid-tasks';
import type { LayerStack } from '../core/layer-stack';
import { checkStack } from '../core/layer-stack';
import { columnOf, gridPlan, residentRows, sourceRow, targetInputs, targetSideFrom } from '../core/ridge';
import type { GpuGram } from './gram';

/** One grid: source rows here (float64), then one GPU product pair per target layer. */
async function gpuGrid(
  task: GridTask,
  kernel: GpuGram,
  caches: MomentCaches<LayerStack['data']>,
  onLayer: (fraction: number) => void,
  rowsBudget: number,
  signal?: AbortSignal,
): Promise<Float64Array> {
  const { source, target, mask, alpha } = task;
  const plan = gridPlan(source, target, mask, alpha);
  const cache = usesMoments(source, mask) ? caches.for(source.data) : undefined;
  const LA = source.L;
  const LB = target.L;
  // Source rows resident at once, as the CPU path chunks them (ridge.ts ridgeR2GridSteps): with many samples one row
  // is large (n_tr²/2 + n_te·n_tr doubles), so the targets' products are redone once per chunk instead.
  const chunk = Math.max(1, Math.min(LA, Math.floor(rowsBudget / (8 * plan.rowLength))));
  const chunks = Math.ceil(LA / chunk);
  const steps = LA + chunks * LB;
  let done = 0;
  const out = new Float64Array(LA * LB);
  for (let a0 = 0; a0 < LA; a0 += chunk) {
    const a1 = Math.min(LA, a0 + chunk);
    const rows: Float64Array[] = [];
    for (let a = a0; a < a1; a++) {
      throwIfAborted(signal);
      rows.push(sourceRow(source, a, plan, cache));
      onLayer(++done / steps);
      await new Promise((r) => setTimeout(r, 0)); // let a cancel or a progress message through
    }
    const resident = residentRows(plan, a0, rows);
    rows.length = 0;
    for (let b = 0; b < LB; b++) {
      throwIfAborted(signal);
      const inp = targetInputs(target, b, plan.train, plan.test);
      const wtr = Float32Array.from(inp.Wtr);
      const G = await kernel.gram(wtr, inp.nTr, inp.H);
      const C = await kernel.cross(Float32Array.from(inp.Wte), inp.nTe, wtr, inp.nTr, inp.H);
      const col = columnOf(targetSideFrom(inp, G, C), target.H, plan, resident);
      for (let a = a0; a < a1; a++) out[a * LB + b] = col[a - a0];
      onLayer(++done / steps);
    }
  }
  return out;
}

/** Bytes of source rows kept resident at once, by default (the CPU path's default budget). */
const ROWS_BUDGET = 512 * 2 ** 20;

/** `cpu` with its grids and Gram statistics moved to the GPU `kernel`; its CKA dot products stay on `cpu`. */
export function gpuGridExecutor(cpu: GridExecutor, kernel: GpuGram, opts: { rowsBudgetBytes?: number } = {}): GridExecutor {
  const caches = new MomentCaches<LayerStack['data']>();
  const rowsBudget = opts.rowsBudgetBytes ?? ROWS_BUDGET;
  return {
    workers: 1,
    async grids(tasks, opts = {}) {
      for (const t of tasks) {
        checkStack(t.source, 'source');
        checkStack(t.target, 'target');
      }
      return gridsInTurn(tasks, opts, (task, onFraction) => gpuGrid(task, kernel, caches, onFraction, rowsBudget, opts.signal));
    },
    gramStats: (stack, opts) => kernel.gramStats(stack, opts),
    crossDots: (vectors, opts) => cpu.crossDots(vectors, opts),
  };
}
