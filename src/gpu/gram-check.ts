/**
 * CKA and SyncR² with their products on the GPU, for the page's test handles (`__socialMindsLab.gpuCka`,
 * `gpuSyncR2`): the browser test (test/browser/gpu-gram.test.ts) compares them with Node's float64 results for the
 * same states. Plain arrays in and out, since typed arrays do not cross Playwright's page.evaluate.
 */
import { cka } from '../core/cka';
import type { LayerStack } from '../core/layer-stack';
import { createInProcessExecutor } from '../core/grid-tasks';
import { syncR2With } from '../core/synchrony';
import { GpuGram } from './gram';
import { gpuGridExecutor } from './ridge-grid';

export interface PlainStack {
  data: number[];
  n: number;
  L: number;
  H: number;
}

export interface GpuCkaCheck {
  adapter: string;
  linear: number[];
  debiased: number[];
  /** The GPU's strict upper triangle of x's first layer (the test compares it with float64). */
  firstTriangle: number[];
  seconds: number;
}

export async function gpuCkaCheck(x: PlainStack, y: PlainStack): Promise<GpuCkaCheck> {
  const gpu = await GpuGram.openOrThrow();
  const kernel = gpu.kernel;
  try {
    const stack = (p: PlainStack): LayerStack => ({ data: Float32Array.from(p.data), n: p.n, L: p.L, H: p.H });
    const xs = stack(x);
    const ys = stack(y);
    const t = performance.now();
    const gramsX = await kernel.gramStats(xs);
    const gramsY = await kernel.gramStats(ys);
    const r = cka(xs, ys, { gramsX, gramsY });
    return {
      adapter: gpu.adapter,
      linear: Array.from(r.linear.grid),
      debiased: Array.from(r.debiased.grid),
      firstTriangle: Array.from(gramsX[0].off),
      seconds: (performance.now() - t) / 1000,
    };
  } finally {
    kernel.destroy();
  }
}

export interface GpuSyncCheck {
  adapter: string;
  syncR2: number;
  r2PerSplit: number[][];
  seconds: number;
}

/** SyncR² of source → target over 3 grouped splits at α, with the grids' target-side products on the GPU. */
export async function gpuSyncCheck(source: PlainStack, target: PlainStack, group: number[], alpha: number, rowsBudgetBytes?: number): Promise<GpuSyncCheck> {
  const gpu = await GpuGram.openOrThrow();
  const kernel = gpu.kernel;
  try {
    const stack = (p: PlainStack): LayerStack => ({ data: Float32Array.from(p.data), n: p.n, L: p.L, H: p.H });
    const t = performance.now();
    const r = await syncR2With(gpuGridExecutor(createInProcessExecutor(), kernel, { rowsBudgetBytes }), stack(source), stack(target), group, {
      alpha,
      splitSeeds: [0, 1, 2],
    });
    return { adapter: gpu.adapter, syncR2: r.syncR2, r2PerSplit: r.r2PerSplit.map((g) => Array.from(g)), seconds: (performance.now() - t) / 1000 };
  } finally {
    kernel.destroy();
  }
}
