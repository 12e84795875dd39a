/**
 * The part of WebGPU that the project's compute shaders use (the Opinions lab's Glauber kernel, CKA's Gram products),
 * and a device for them. The project ships no WebGPU type package, so the few shapes used are declared here.
 * Works in a page and in a worker (navigator.gpu).
 */
export type GpuSize = number;
export interface GpuBuffer {
  readonly size: GpuSize;
  mapAsync(mode: number): Promise<void>;
  getMappedRange(): ArrayBuffer;
  unmap(): void;
  destroy(): void;
}
export interface GpuBindGroup {
  readonly label?: string;
}
export interface GpuBindGroupLayout {
  readonly label?: string;
}
export interface GpuPipelineLayout {
  readonly label?: string;
}
export interface GpuComputePipeline {
  readonly label?: string;
}
export interface GpuShaderModule {
  getCompilationInfo(): Promise<{ messages: readonly { type: string; message: string; lineNum: number }[] }>;
}
export interface GpuComputePass {
  setPipeline(p: GpuComputePipeline): void;
  setBindGroup(index: number, group: GpuBindGroup, dynamicOffsets?: number[]): void;
  dispatchWorkgroups(x: number, y?: number, z?: number): void;
  end(): void;
}
export interface GpuCommandEncoder {
  beginComputePass(): GpuComputePass;
  clearBuffer(b: GpuBuffer, offset?: number, size?: number): void;
  copyBufferToBuffer(src: GpuBuffer, srcOffset: number, dst: GpuBuffer, dstOffset: number, size: number): void;
  finish(): unknown;
}
export interface GpuBufferBinding {
  buffer: GpuBuffer;
  offset?: number;
  size?: number;
}
export interface GpuDevice {
  readonly limits: { maxStorageBufferBindingSize: number; maxComputeWorkgroupsPerDimension: number; maxBufferSize: number };
  readonly lost: Promise<{ message: string; reason?: string }>;
  readonly queue: {
    writeBuffer(b: GpuBuffer, offset: number, data: ArrayBufferView | ArrayBuffer): void;
    submit(commands: unknown[]): void;
    onSubmittedWorkDone(): Promise<void>;
  };
  createBuffer(d: { size: number; usage: number; label?: string }): GpuBuffer;
  createShaderModule(d: { code: string; label?: string }): GpuShaderModule;
  createBindGroupLayout(d: {
    entries: { binding: number; visibility: number; buffer: { type: 'uniform' | 'storage' | 'read-only-storage'; hasDynamicOffset?: boolean } }[];
  }): GpuBindGroupLayout;
  createPipelineLayout(d: { bindGroupLayouts: GpuBindGroupLayout[] }): GpuPipelineLayout;
  createComputePipelineAsync(d: { layout: GpuPipelineLayout; compute: { module: GpuShaderModule; entryPoint: string } }): Promise<GpuComputePipeline>;
  createBindGroup(d: { layout: GpuBindGroupLayout; entries: { binding: number; resource: GpuBufferBinding }[] }): GpuBindGroup;
  createCommandEncoder(): GpuCommandEncoder;
  pushErrorScope(filter: 'validation' | 'out-of-memory' | 'internal'): void;
  popErrorScope(): Promise<{ message: string } | null>;
  destroy(): void;
}
export interface GpuAdapter {
  readonly info?: { vendor?: string; architecture?: string; description?: string; isFallbackAdapter?: boolean };
  readonly limits: { maxStorageBufferBindingSize: number; maxBufferSize: number };
  requestDevice(d?: { requiredLimits?: Record<string, number> }): Promise<GpuDevice>;
}

/** GPUBufferUsage and GPUMapMode / GPUShaderStage flags (the globals exist only where WebGPU does). */
export const USAGE = { MAP_READ: 1, COPY_SRC: 4, COPY_DST: 8, UNIFORM: 64, STORAGE: 128 } as const;
export const MAP_READ = 1;
export const COMPUTE = 4;

export interface GpuContext {
  device: GpuDevice;
  /** Vendor, architecture and description of the adapter, for notes ("google swiftshader"). */
  adapter: string;
  /** True for a software adapter (SwiftShader): correct, but no faster than the CPU. */
  software: boolean;
}

/** A WebGPU device in this page or worker, or null (with why) when there is none. */
export async function requestGpu(): Promise<GpuContext | { error: string }> {
  const gpu = (globalThis.navigator as { gpu?: { requestAdapter(o?: object): Promise<GpuAdapter | null> } } | undefined)?.gpu;
  if (!gpu) return { error: 'this browser has no WebGPU' };
  try {
    const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
    if (!adapter) return { error: 'WebGPU found no adapter' };
    const device = await adapter.requestDevice({
      requiredLimits: { maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize, maxBufferSize: adapter.limits.maxBufferSize },
    });
    const info = adapter.info ?? {};
    const name = [info.vendor, info.architecture, info.description].filter(Boolean).join(' ');
    return { device, adapter: name || 'unknown adapter', software: Boolean(info.isFallbackAdapter) || /swiftshader/i.test(name) };
  } catch (e) {
    return { error: `WebGPU failed: ${(e as Error).message ?? e}` };
  }
}
