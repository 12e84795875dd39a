/**
 * Gram and cross products on the GPU (WebGPU compute shader): K = X·Yᵀ, for CKA's per-layer Gram matrices (X = Y:
 * the one product per layer that costs m²H/2 multiply-adds) and the ridge grid's target-side products
 * (src/gpu/ridge-grid.ts). Float32 storage and products, as GPUs do best; each thread sums its 4 × 4 cells over
 * 16-wide slices of k and adds each slice's sum into a Kahan-compensated total, so the sums lose about one float32
 * rounding per slice instead of one per term. Whatever reads them sums in float64 on the CPU. Checked against the
 * float64 path on SwiftShader (test/browser/gpu-gram.test.ts) and timed on a real GPU by bench/gpu/
 * (`npx tsx bench/gpu/run.ts --grids-only`).
 *
 * For a Gram matrix (X = Y) only tiles on or above the diagonal are computed: readers take the upper triangle.
 */
import { centredLayer, gramInfoOf, type GramInfo, type GramStats } from '../core/cka';
import { throwIfAborted } from '../core/cancel';
import { checkStack, type LayerStack } from '../core/layer-stack';
import { COMPUTE, MAP_READ, USAGE, requestGpu, type GpuBindGroupLayout, type GpuComputePipeline, type GpuContext, type GpuDevice } from './webgpu';

/** Cells per workgroup side (16 × 16 threads, 4 × 4 cells each) and the k-slice held in workgroup memory. */
const TILE = 64;
const SLICE = 16;

export const GRAM_WGSL = /* wgsl */ `
struct Params { m: u32, n: u32, k: u32, sym: u32 }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> X: array<f32>;
@group(0) @binding(2) var<storage, read> Y: array<f32>;
@group(0) @binding(3) var<storage, read_write> K: array<f32>;

const TILE: u32 = ${TILE}u;
const SLICE: u32 = ${SLICE}u;
var<workgroup> As: array<f32, ${TILE * SLICE}>;
var<workgroup> Bs: array<f32, ${TILE * SLICE}>;

fn atX(r: u32, c: u32) -> f32 {
  if (r >= P.m || c >= P.k) { return 0.0; }
  return X[r * P.k + c];
}
fn atY(r: u32, c: u32) -> f32 {
  if (r >= P.n || c >= P.k) { return 0.0; }
  return Y[r * P.k + c];
}

@compute @workgroup_size(16, 16)
fn gram(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  // A Gram matrix: upper tiles only; the test is the same for the whole workgroup, so no barrier is half-reached.
  if (P.sym != 0u && wid.x < wid.y) { return; }
  let row0 = wid.y * TILE;
  let col0 = wid.x * TILE;
  let tid = lid.y * 16u + lid.x;
  var total: array<f32, 16>;
  var comp: array<f32, 16>;
  for (var k0 = 0u; k0 < P.k; k0 += SLICE) {
    for (var q = 0u; q < 4u; q++) {
      let e = tid + q * 256u;
      let r = e / SLICE;
      let c = e % SLICE;
      As[e] = atX(row0 + r, k0 + c);
      Bs[e] = atY(col0 + r, k0 + c);
    }
    workgroupBarrier();
    // Zeroed explicitly: SwiftShader kept the previous slice's sums in a bare declaration inside the loop.
    var part: array<f32, 16>;
    for (var t = 0u; t < 16u; t++) { part[t] = 0.0; }
    for (var kk = 0u; kk < SLICE; kk++) {
      var a: array<f32, 4>;
      var b: array<f32, 4>;
      for (var i = 0u; i < 4u; i++) {
        a[i] = As[(lid.y * 4u + i) * SLICE + kk];
        b[i] = Bs[(lid.x * 4u + i) * SLICE + kk];
      }
      for (var i = 0u; i < 4u; i++) {
        for (var j = 0u; j < 4u; j++) {
          part[i * 4u + j] = fma(a[i], b[j], part[i * 4u + j]);
        }
      }
    }
    // Kahan: add this slice's sums to the totals, carrying what each addition rounds off.
    for (var t = 0u; t < 16u; t++) {
      let y = part[t] - comp[t];
      let s = total[t] + y;
      comp[t] = (s - total[t]) - y;
      total[t] = s;
    }
    workgroupBarrier();
  }
  for (var i = 0u; i < 4u; i++) {
    let r = row0 + lid.y * 4u + i;
    for (var j = 0u; j < 4u; j++) {
      let c = col0 + lid.x * 4u + j;
      if (r < P.m && c < P.n) { K[r * P.n + c] = total[i * 4u + j]; }
    }
  }
}
`;

/** A compiled Gram kernel on one device. */
export class GpuGram {
  private constructor(
    private readonly device: GpuDevice,
    private readonly pipeline: GpuComputePipeline,
    private readonly layout: GpuBindGroupLayout,
  ) {}

  /**
   * A kernel on a device of its own (destroy() gives the device back), or why there is none: no WebGPU, no adapter,
   * or a shader that did not compile. The labs fall back to the CPU with that reason; tests and benches throw it.
   */
  static async open(): Promise<{ kernel: GpuGram; adapter: string; software: boolean } | { why: string }> {
    const gpu = await requestGpu();
    if ('error' in gpu) return { why: gpu.error };
    try {
      return { kernel: await GpuGram.create(gpu), adapter: gpu.adapter, software: gpu.software };
    } catch (e) {
      gpu.device.destroy();
      return { why: (e as Error).message };
    }
  }

  /** open(), or its reason as an error. */
  static async openOrThrow(): Promise<{ kernel: GpuGram; adapter: string; software: boolean }> {
    const opened = await GpuGram.open();
    if ('why' in opened) throw new Error(opened.why);
    return opened;
  }

  static async create(gpu: GpuContext): Promise<GpuGram> {
    const device = gpu.device;
    const module = device.createShaderModule({ code: GRAM_WGSL, label: 'gram' });
    const errors = (await module.getCompilationInfo()).messages.filter((m) => m.type === 'error');
    if (errors.length) throw new Error(`the Gram shader did not compile: ${errors.map((e) => `line ${e.lineNum}: ${e.message}`).join('; ')}`);
    const layout = device.createBindGroupLayout({
      entries: [
        { binding: 0, visibility: COMPUTE, buffer: { type: 'uniform' } },
        { binding: 1, visibility: COMPUTE, buffer: { type: 'read-only-storage' } },
        { binding: 2, visibility: COMPUTE, buffer: { type: 'read-only-storage' } },
        { binding: 3, visibility: COMPUTE, buffer: { type: 'storage' } },
      ],
    });
    const pipeline = await device.createComputePipelineAsync({
      layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
      compute: { module, entryPoint: 'gram' },
    });
    return new GpuGram(device, pipeline, layout);
  }

  /** Gives the device back (the kernel is not used after). */
  destroy(): void {
    this.device.destroy();
  }

  /** K = X·Xᵀ for X (m × k, row-major); cells below the diagonal are left 0. */
  gram(X: Float32Array, m: number, k: number): Promise<Float32Array> {
    return this.product(X, m, null, m, k);
  }

  /** K = X·Yᵀ (m × n) for X (m × k) and Y (n × k), row-major. */
  cross(X: Float32Array, m: number, Y: Float32Array, n: number, k: number): Promise<Float32Array> {
    return this.product(X, m, Y, n, k);
  }

  private async product(X: Float32Array, m: number, Y: Float32Array | null, n: number, k: number): Promise<Float32Array> {
    const d = this.device;
    const kBytes = m * n * 4;
    const limit = Math.min(d.limits.maxStorageBufferBindingSize, d.limits.maxBufferSize);
    const largest = Math.max(X.byteLength, Y?.byteLength ?? 0, kBytes);
    if (largest > limit) throw new Error(`a ${m} × ${n} product over ${k} units needs ${largest} bytes in one buffer; this GPU allows ${limit}`);
    const tilesX = Math.ceil(n / TILE);
    const tilesY = Math.ceil(m / TILE);
    if (Math.max(tilesX, tilesY) > d.limits.maxComputeWorkgroupsPerDimension) throw new Error(`a ${m} × ${n} product is more than this GPU's dispatch allows`);
    d.pushErrorScope('out-of-memory');
    const params = d.createBuffer({ size: 16, usage: USAGE.UNIFORM | USAGE.COPY_DST });
    const xs = d.createBuffer({ size: Math.max(16, X.byteLength), usage: USAGE.STORAGE | USAGE.COPY_DST });
    const ys = Y ? d.createBuffer({ size: Math.max(16, Y.byteLength), usage: USAGE.STORAGE | USAGE.COPY_DST }) : xs;
    const ks = d.createBuffer({ size: Math.max(16, kBytes), usage: USAGE.STORAGE | USAGE.COPY_SRC });
    const back = d.createBuffer({ size: Math.max(16, kBytes), usage: USAGE.MAP_READ | USAGE.COPY_DST });
    try {
      d.queue.writeBuffer(params, 0, new Uint32Array([m, n, k, Y ? 0 : 1]));
      d.queue.writeBuffer(xs, 0, X);
      if (Y) d.queue.writeBuffer(ys, 0, Y);
      const group = d.createBindGroup({
        layout: this.layout,
        entries: [
          { binding: 0, resource: { buffer: params } },
          { binding: 1, resource: { buffer: xs } },
          { binding: 2, resource: { buffer: ys } },
          { binding: 3, resource: { buffer: ks } },
        ],
      });
      const enc = d.createCommandEncoder();
      const pass = enc.beginComputePass();
      pass.setPipeline(this.pipeline);
      pass.setBindGroup(0, group);
      pass.dispatchWorkgroups(tilesX, tilesY);
      pass.end();
      enc.copyBufferToBuffer(ks, 0, back, 0, kBytes);
      d.queue.submit([enc.finish()]);
      const oom = await d.popErrorScope();
      if (oom) throw new Error(`the GPU ran out of memory for a ${m} × ${n} product: ${oom.message}`);
      await back.mapAsync(MAP_READ);
      const out = new Float32Array(back.getMappedRange().slice(0, kBytes));
      back.unmap();
      return out;
    } finally {
      for (const b of new Set([params, xs, ys, ks, back])) b.destroy();
    }
  }

  /** Layer l's Gram statistics: centred in float64 here, the product on the GPU, the statistics in float64. */
  async gramInfo(s: LayerStack, l: number): Promise<GramInfo> {
    const X = Float32Array.from(centredLayer(s, l));
    return gramInfoOf(await this.gram(X, s.n, s.H), s.n);
  }

  /** Every layer's Gram statistics, one product at a time (progress and cancel between layers). */
  async gramStats(s: LayerStack, opts: { signal?: AbortSignal; onProgress?: (fraction: number) => void } = {}): Promise<GramStats> {
    checkStack(s, 'stack');
    const out: GramInfo[] = [];
    for (let l = 0; l < s.L; l++) {
      throwIfAborted(opts.signal);
      out.push(await this.gramInfo(s, l));
      opts.onProgress?.((l + 1) / s.L);
    }
    return out;
  }
}
