/** Backend and dtype choice: pure, so the worker, Node and the picker agree. */
import type { Backend, ConcreteDtype, Device, Dtype } from './types';

export interface GpuInfo {
  shaderF16: boolean;
  maxBufferSize: number;
  maxStorageBufferBindingSize: number;
  description?: string;
  /** A software adapter (SwiftShader, or one the browser flags as a fallback): slower than WASM for our models. */
  fallback?: boolean;
}

export interface ChoiceContext {
  platform: 'node' | 'browser';
  /** null when no WebGPU adapter could be obtained. */
  gpu: GpuInfo | null;
  /** Parameter count when known; models under SMALL_MODEL_PARAMS (and the embedded one) default to fp32. */
  params: number | null;
  /** The dtypes this model ships. */
  available: ConcreteDtype[];
  /** The embedded toy model: fp32 by default (it is tiny and fp32 is exact). */
  small?: boolean;
}

export interface Choice {
  backend: Backend;
  dtype: ConcreteDtype;
  reason: string;
}

export const SMALL_MODEL_PARAMS = 50e6;

export class BackendChoiceError extends Error {}

export function chooseBackend(req: { device?: Device; dtype?: Dtype }, ctx: ChoiceContext): Choice {
  const device = req.device ?? 'auto';
  const reasons: string[] = [];
  let backend: Backend;
  if (device === 'auto') {
    if (ctx.platform === 'node') {
      backend = 'cpu';
      reasons.push('Node: onnxruntime-node CPU');
    } else if (ctx.gpu && !ctx.gpu.fallback) {
      backend = 'webgpu';
      reasons.push('a WebGPU adapter is available');
    } else if (ctx.gpu) {
      backend = 'wasm';
      reasons.push('the WebGPU adapter is a software fallback (e.g. SwiftShader), slower than WASM');
    } else {
      backend = 'wasm';
      reasons.push('no WebGPU adapter: WASM fallback');
    }
  } else {
    backend = device;
    reasons.push(`${device} requested`);
    if (device === 'webgpu' && ctx.platform === 'browser' && !ctx.gpu)
      throw new BackendChoiceError('WebGPU was requested but this browser gives no WebGPU adapter.');
    if (device === 'cpu' && ctx.platform === 'browser') throw new BackendChoiceError('The cpu backend exists only in Node; use wasm in the browser.');
  }
  const small = ctx.small || (ctx.params !== null && ctx.params < SMALL_MODEL_PARAMS);
  let dtype: ConcreteDtype;
  const wanted = req.dtype ?? 'auto';
  if (wanted === 'auto') {
    if (small) {
      dtype = 'fp32';
      reasons.push('small model: fp32');
    } else if (backend === 'webgpu') {
      dtype = ctx.gpu?.shaderF16 ? 'q4f16' : 'q4';
      reasons.push(ctx.gpu?.shaderF16 ? 'adapter has shader-f16: q4f16' : 'adapter lacks shader-f16: q4');
    } else {
      dtype = 'q4';
      reasons.push('q4 on the CPU/WASM path');
    }
    if (!ctx.available.includes(dtype)) {
      const fallback = (['q4', 'q8', 'fp32', 'fp16', 'q4f16'] as ConcreteDtype[]).find(
        (d) => ctx.available.includes(d) && !((d === 'fp16' || d === 'q4f16') && backend === 'webgpu' && !ctx.gpu?.shaderF16),
      );
      if (!fallback) throw new BackendChoiceError(`none of this model's dtypes (${ctx.available.join(', ')}) can run on ${backend}`);
      reasons.push(`${dtype} not shipped: ${fallback}`);
      dtype = fallback;
    }
  } else {
    dtype = wanted;
    reasons.push(`${wanted} requested`);
    if (!ctx.available.includes(dtype)) throw new BackendChoiceError(`this model ships no ${dtype} weights (it has ${ctx.available.join(', ')})`);
  }
  if ((dtype === 'fp16' || dtype === 'q4f16') && backend === 'webgpu' && ctx.platform === 'browser' && !ctx.gpu?.shaderF16) {
    throw new BackendChoiceError(`${dtype} needs the WebGPU shader-f16 feature, which this adapter lacks; use q4 or fp32.`);
  }
  return { backend, dtype, reason: reasons.join('; ') };
}

/** Whether a model of `bytes` is likely to fit this device: one weight buffer must fit the adapter's limits. */
export function likelyFits(bytes: number | undefined, gpu: GpuInfo | null, deviceMemoryGiB?: number): { fits: boolean | null; why: string } {
  if (!bytes) return { fits: null, why: 'size unknown' };
  if (deviceMemoryGiB !== undefined && bytes > deviceMemoryGiB * 2 ** 30 * 0.5) {
    return { fits: false, why: `needs ${fmtBytes(bytes)}, more than half of this device's ~${deviceMemoryGiB} GiB memory` };
  }
  if (gpu) {
    // the largest single tensor is at most the embedding matrix; a whole-model buffer beyond maxBufferSize is a warning sign
    const limit = Math.min(gpu.maxBufferSize, gpu.maxStorageBufferBindingSize);
    if (bytes / 4 > limit) return { fits: false, why: `its largest tensors likely exceed the adapter's buffer limit (${fmtBytes(limit)})` };
    return { fits: true, why: `within the adapter's limits (buffer ${fmtBytes(limit)})` };
  }
  return { fits: deviceMemoryGiB === undefined ? null : true, why: deviceMemoryGiB === undefined ? 'no memory information' : 'within device memory' };
}

export function fmtBytes(n: number): string {
  if (n >= 2 ** 30) return `${(n / 2 ** 30).toFixed(1)} GiB`;
  if (n >= 2 ** 20) return `${(n / 2 ** 20).toFixed(0)} MiB`;
  if (n >= 2 ** 10) return `${(n / 2 ** 10).toFixed(0)} KiB`;
  return `${n} B`;
}
