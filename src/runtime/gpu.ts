/** The WebGPU adapter's facts that the backend/dtype choice and the picker need (probed once per context). */
import type { GpuInfo } from './choose';

let gpuInfo: Promise<GpuInfo | null> | null = null;

export function probeWebGpu(): Promise<GpuInfo | null> {
  return (gpuInfo ??= probe());
}

async function probe(): Promise<GpuInfo | null> {
  const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
  if (!gpu) return null;
  try {
    const adapter = (await gpu.requestAdapter()) as {
      features: Set<string>;
      limits: { maxBufferSize: number; maxStorageBufferBindingSize: number };
      info?: { vendor?: string; architecture?: string; description?: string; isFallbackAdapter?: boolean };
      isFallbackAdapter?: boolean;
    } | null;
    if (!adapter) return null;
    return {
      shaderF16: adapter.features.has('shader-f16'),
      maxBufferSize: adapter.limits.maxBufferSize,
      maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
      description: [adapter.info?.vendor, adapter.info?.architecture, adapter.info?.description].filter(Boolean).join(' ') || undefined,
      fallback:
        Boolean(adapter.info?.isFallbackAdapter ?? adapter.isFallbackAdapter) ||
        /swiftshader/i.test(`${adapter.info?.architecture ?? ''} ${adapter.info?.description ?? ''} ${adapter.info?.vendor ?? ''}`),
    };
  } catch {
    return null;
  }
}
