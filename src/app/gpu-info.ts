export interface GpuInfo {
  webgpu: boolean;
  shaderF16: boolean;
  adapter: string | null;
}

/** Asks the browser for a WebGPU adapter once; the model runtime makes the same choice from the same facts. */
export async function probeGpu(): Promise<GpuInfo> {
  const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<GPUAdapterLike | null> } }).gpu;
  if (!gpu) return { webgpu: false, shaderF16: false, adapter: null };
  try {
    const adapter = await gpu.requestAdapter();
    if (!adapter) return { webgpu: false, shaderF16: false, adapter: null };
    const info = adapter.info;
    return {
      webgpu: true,
      shaderF16: adapter.features.has('shader-f16'),
      adapter: info ? [info.vendor, info.architecture, info.description].filter(Boolean).join(' ') || 'unnamed' : 'unnamed',
    };
  } catch {
    return { webgpu: false, shaderF16: false, adapter: null };
  }
}

interface GPUAdapterLike {
  features: { has(name: string): boolean };
  info?: { vendor?: string; architecture?: string; description?: string };
}
