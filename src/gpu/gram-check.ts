/**
 * CKA with its Gram products on the GPU, for the page's test handle (`__socialMindsLab.gpuCka`): the browser test
 * (test/browser/gpu-gram.test.ts) compares it with Node's float64 CKA of the same states. Plain arrays in and out,
 * since typed arrays do not cross Playwright's page.evaluate.
 */
import { cka } from '../core/cka';
import type { LayerStack } from '../core/layer-stack';
import { GpuGram } from './gram';
import { requestGpu } from './webgpu';

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
  const gpu = await requestGpu();
  if ('error' in gpu) throw new Error(gpu.error);
  const kernel = await GpuGram.create(gpu);
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
