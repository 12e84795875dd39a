/**
 * Glauber dynamics of a periodic square lattice on the GPU: a WebGPU compute shader that runs the checkerboard
 * schedule of src/core/ising/checkerboard.ts (which documents the schedule and the Philox random numbers, and gives
 * the same spins bit for bit on the CPU). One step is two dispatches (colour 0, then colour 1); each thread redraws
 * SITES sites of the colour (grid-stride), each from its four neighbours of the other colour, with P(+1) = σ(h_i/𝒯)
 * decided by comparing a Philox word with a 32-bit threshold that the CPU computed in float64 (the CPU path's law;
 * no float32 σ on the GPU, so the spins are the same integers on every device). With `record`, each thread adds its
 * sites' Σ s, bond sum and redrawn count to the step's records with one atomic each (a workgroup tree reduction with
 * barriers ran 30× slower on SwiftShader), so a frame reads back 12 bytes per step, and the spins, one byte each,
 * when asked.

 * Works in a page and in a worker (navigator.gpu); the WebGPU shapes it uses are in src/gpu/webgpu.ts.
 */
import { epsThreshold, type CheckerboardLaw, type SweepRecords } from '../../core/ising/checkerboard';
import {
  COMPUTE,
  MAP_READ,
  USAGE,
  requestGpu,
  type GpuBindGroup,
  type GpuBindGroupLayout,
  type GpuBuffer,
  type GpuComputePipeline,
  type GpuDevice,
} from '../../gpu/webgpu';

export { requestGpu, type GpuContext } from '../../gpu/webgpu';

/** Threads per workgroup (the WGSL below must agree). */
const WG = 64;
/** Dispatches (half-sweeps) per command buffer; the pass-index uniform holds one 256-byte slot for each. */
const MAX_PASSES = 2048;
const SLOT = 256;
/** Sites per thread and half-sweep (fewer threads, fewer atomics). */
const SITES = 4;

export const GLAUBER_WGSL = /* wgsl */ `
struct Params {
  side: u32, halfSide: u32, halfN: u32, key: u32,
  step2: u32, epsThr: u32, selectAll: u32, perSite: u32,
  record: u32, n: u32, recBase: u32, pad: u32,
}
struct PassIndex { k: u32 }

@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read_write> spins: array<i32>;
@group(0) @binding(2) var<storage, read> thr: array<u32>;
@group(0) @binding(3) var<storage, read_write> rec: array<atomic<i32>>;
@group(0) @binding(4) var<storage, read_write> packed: array<u32>;
@group(1) @binding(0) var<uniform> PI: PassIndex;

const WG: u32 = ${WG}u;

// high and low words of a·b, from 16-bit halves (WGSL has no 64-bit integers)
fn mulhilo(a: u32, b: u32) -> vec2<u32> {
  let a0 = a & 0xffffu; let a1 = a >> 16u; let b0 = b & 0xffffu; let b1 = b >> 16u;
  let p00 = a0 * b0; let p01 = a0 * b1; let p10 = a1 * b0; let p11 = a1 * b1;
  let mid = (p00 >> 16u) + (p10 & 0xffffu) + p01;
  return vec2<u32>(p11 + (p10 >> 16u) + (mid >> 16u), a * b);
}

// Philox-2x32-10 (Random123): counter (c0, c1), key
fn philox(c0: u32, c1: u32, key: u32) -> vec2<u32> {
  var x0 = c0; var x1 = c1; var k = key;
  for (var r = 0u; r < 10u; r++) {
    let hl = mulhilo(0xd256d193u, x0);
    x0 = hl.x ^ k ^ x1;
    x1 = hl.y;
    k += 0x9e3779b9u;
  }
  return vec2<u32>(x0, x1);
}

// one half-sweep: every site of colour (k & 1) redrawn from its four neighbours of the other colour; thread g takes
// sites g, g + T, g + 2T, … (T threads in all), and adds its totals to the step's records with one atomic each
@compute @workgroup_size(${WG})
fn sweep(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let k = PI.k;
  let colour = k & 1u;
  let T = nwg.x * nwg.y * WG;
  let side = P.side;
  var d = vec3<i32>(0);
  for (var g = gid.x + gid.y * nwg.x * WG; g < P.halfN; g += T) {
    let r = g / P.halfSide;
    let c = 2u * (g - r * P.halfSide) + ((r + colour) & 1u);
    let row = r * side;
    let i = row + c;
    let west = spins[row + select(c - 1u, side - 1u, c == 0u)];
    let east = spins[row + select(c + 1u, 0u, c == side - 1u)];
    let north = spins[select(i - side, i + P.n - side, r == 0u)];
    let south = spins[select(i + side, c, r == side - 1u)];
    let nb = west + east + north + south;
    var s = spins[i];
    let u = philox(i, P.step2 + k, P.key);
    if (P.selectAll != 0u || u.x < P.epsThr) {
      let t = thr[select(0u, 5u * i, P.perSite != 0u) + u32((nb + 4) / 2)];
      s = select(-1, 1, u.y < t || t == 0xffffffffu);
      spins[i] = s;
      d.z += 1;
    }
    // colour 1 closes the step: each colour-0 site is the west neighbour of one colour-1 site, and every bond
    // joins a colour-1 site to a colour-0 one
    if (colour == 1u) {
      d.x += s + west;
      d.y += s * nb;
    }
  }
  if (P.record != 0u) {
    let base = 3u * (P.recBase + (k >> 1u));
    if (d.x != 0) { atomicAdd(&rec[base], d.x); }
    if (d.y != 0) { atomicAdd(&rec[base + 1u], d.y); }
    if (d.z != 0) { atomicAdd(&rec[base + 2u], d.z); }
  }
}

// spins as one byte each (0x01 or 0xff: an Int8Array of ±1), four to a word
@compute @workgroup_size(${WG})
fn pack(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let q = gid.x + gid.y * nwg.x * WG;
  if (q >= P.n / 4u) {
    return;
  }
  let b = 4u * q;
  packed[q] = (bitcast<u32>(spins[b]) & 0xffu) | ((bitcast<u32>(spins[b + 1u]) & 0xffu) << 8u) |
    ((bitcast<u32>(spins[b + 2u]) & 0xffu) << 16u) | ((bitcast<u32>(spins[b + 3u]) & 0xffu) << 24u);
}
`;

export interface GpuRunOptions {
  /** Step number of the first sweep (the random numbers depend on it). */
  firstStep: number;
  /** Philox key (from the run's seed). */
  key: number;
  /** Per-step Σ s, bond sum and redrawn count (default true). */
  record?: boolean;
  /** Read the spins back after the last step. */
  readSpins?: boolean;
}

export interface GpuRunResult {
  records: SweepRecords | null;
  spins: Int8Array | null;
}

/** The lattice's spins and law on one device, and the pipelines that sweep them. */
export class GpuIsing {
  readonly side: number;
  readonly n: number;
  private readonly device: GpuDevice;
  private params: GpuBuffer;
  private spins: GpuBuffer;
  private thr: GpuBuffer;
  private rec: GpuBuffer;
  private packed: GpuBuffer;
  private passIndex: GpuBuffer;
  private readback: GpuBuffer | null = null;
  private group0!: GpuBindGroup;
  private group1: GpuBindGroup;
  private layout0: GpuBindGroupLayout;
  private law: { thresholds: Uint32Array; perSite: boolean; eps: number } = { thresholds: new Uint32Array(5), perSite: false, eps: 1 };
  private lostMessage: string | null = null;

  private constructor(
    ctx: GpuDevice,
    side: number,
    private sweepPipeline: GpuComputePipeline,
    private packPipeline: GpuComputePipeline,
    layout0: GpuBindGroupLayout,
    layout1: GpuBindGroupLayout,
  ) {
    this.device = ctx;
    this.side = side;
    this.n = side * side;
    this.layout0 = layout0;
    const d = this.device;
    this.params = d.createBuffer({ size: 48, usage: USAGE.UNIFORM | USAGE.COPY_DST, label: 'ising params' });
    this.spins = d.createBuffer({ size: 4 * this.n, usage: USAGE.STORAGE | USAGE.COPY_DST | USAGE.COPY_SRC, label: 'ising spins' });
    this.thr = d.createBuffer({ size: 20, usage: USAGE.STORAGE | USAGE.COPY_DST, label: 'ising thresholds' });
    this.rec = d.createBuffer({ size: 12 * 1024, usage: USAGE.STORAGE | USAGE.COPY_SRC | USAGE.COPY_DST, label: 'ising records' });
    this.packed = d.createBuffer({ size: this.n, usage: USAGE.STORAGE | USAGE.COPY_SRC, label: 'ising packed spins' });
    this.passIndex = d.createBuffer({ size: MAX_PASSES * SLOT, usage: USAGE.UNIFORM | USAGE.COPY_DST, label: 'ising pass index' });
    const idx = new Uint32Array((MAX_PASSES * SLOT) / 4);
    for (let k = 0; k < MAX_PASSES; k++) idx[(k * SLOT) / 4] = k;
    d.queue.writeBuffer(this.passIndex, 0, idx);
    this.group1 = d.createBindGroup({ layout: layout1, entries: [{ binding: 0, resource: { buffer: this.passIndex, offset: 0, size: 16 } }] });
    this.bind();
    void d.lost.then((info) => (this.lostMessage = info.message || 'the GPU device was lost'));
  }

  /** Compiles the kernel for a side×side lattice (even side ≥ 4) on `ctx`'s device. */
  static async create(device: GpuDevice, side: number): Promise<GpuIsing> {
    if (side < 4 || side % 2) throw new Error(`the checkerboard kernel needs an even side ≥ 4, not ${side}`);
    device.pushErrorScope('validation');
    const module = device.createShaderModule({ code: GLAUBER_WGSL, label: 'glauber' });
    const info = await module.getCompilationInfo();
    const errors = info.messages.filter((m) => m.type === 'error');
    if (errors.length) throw new Error(`the Glauber shader did not compile: ${errors.map((m) => `line ${m.lineNum}: ${m.message}`).join('; ')}`);
    const storage = (binding: number, type: 'storage' | 'read-only-storage') => ({ binding, visibility: COMPUTE, buffer: { type } });
    const layout0 = device.createBindGroupLayout({
      entries: [
        { binding: 0, visibility: COMPUTE, buffer: { type: 'uniform' } },
        storage(1, 'storage'),
        storage(2, 'read-only-storage'),
        storage(3, 'storage'),
        storage(4, 'storage'),
      ],
    });
    const layout1 = device.createBindGroupLayout({ entries: [{ binding: 0, visibility: COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true } }] });
    const [sweep, pack] = await Promise.all([
      device.createComputePipelineAsync({
        layout: device.createPipelineLayout({ bindGroupLayouts: [layout0, layout1] }),
        compute: { module, entryPoint: 'sweep' },
      }),
      device.createComputePipelineAsync({ layout: device.createPipelineLayout({ bindGroupLayouts: [layout0] }), compute: { module, entryPoint: 'pack' } }),
    ]);
    const sim = new GpuIsing(device, side, sweep, pack, layout0, layout1);
    const err = await device.popErrorScope();
    if (err) throw new Error(`WebGPU refused the Glauber kernel: ${err.message}`);
    return sim;
  }

  private bind() {
    this.group0 = this.device.createBindGroup({
      layout: this.layout0,
      entries: [this.params, this.spins, this.thr, this.rec, this.packed].map((buffer, binding) => ({ binding, resource: { buffer } })),
    });
  }

  /** Thresholds and redraw rate (src/core/ising/checkerboard.ts `checkerboardLaw`). */
  setLaw(law: CheckerboardLaw) {
    const want = law.perSite ? 5 * this.n : 5;
    if (law.thresholds.length !== want) throw new Error(`${law.thresholds.length} thresholds for ${want}`);
    if (this.thr.size < 4 * want) {
      this.thr.destroy();
      this.thr = this.device.createBuffer({ size: 4 * want, usage: USAGE.STORAGE | USAGE.COPY_DST, label: 'ising thresholds' });
      this.bind();
    }
    this.device.queue.writeBuffer(this.thr, 0, law.thresholds);
    this.law = law;
  }

  /** Replaces the spins (±1, row-major). */
  setSpins(s: ArrayLike<number>) {
    if (s.length !== this.n) throw new Error(`${s.length} spins for ${this.n}`);
    this.device.queue.writeBuffer(
      this.spins,
      0,
      Int32Array.from(s, (v) => (v > 0 ? 1 : -1)),
    );
  }

  /** `steps` sweeps; resolves once the GPU is done and the records (and spins) are read back. */
  async run(steps: number, o: GpuRunOptions): Promise<GpuRunResult> {
    if (this.lostMessage) throw new Error(this.lostMessage);
    const record = o.record ?? true;
    const d = this.device;
    if (record && this.rec.size < 12 * steps) {
      this.rec.destroy();
      this.rec = d.createBuffer({ size: 12 * steps, usage: USAGE.STORAGE | USAGE.COPY_SRC | USAGE.COPY_DST, label: 'ising records' });
      this.bind();
    }
    const halfN = this.n / 2;
    const [wgX, wgY] = grid(Math.ceil(halfN / SITES / WG), d.limits.maxComputeWorkgroupsPerDimension);
    const perChunk = MAX_PASSES / 2;
    const p = new Uint32Array(12);
    for (let done = 0; done < steps; done += perChunk) {
      const chunk = Math.min(perChunk, steps - done);
      p.set([this.side, this.side / 2, halfN, o.key >>> 0, (2 * (o.firstStep + done)) >>> 0, epsThreshold(this.law.eps)]);
      p.set([this.law.eps >= 1 ? 1 : 0, this.law.perSite ? 1 : 0, record ? 1 : 0, this.n, done, 0], 6);
      d.queue.writeBuffer(this.params, 0, p);
      const enc = d.createCommandEncoder();
      if (record && done === 0) enc.clearBuffer(this.rec, 0, 12 * steps);
      const pass = enc.beginComputePass();
      pass.setPipeline(this.sweepPipeline);
      pass.setBindGroup(0, this.group0);
      for (let k = 0; k < 2 * chunk; k++) {
        pass.setBindGroup(1, this.group1, [k * SLOT]);
        pass.dispatchWorkgroups(wgX, wgY);
      }
      pass.end();
      d.queue.submit([enc.finish()]);
    }
    const recBytes = record ? 12 * steps : 0;
    const spinBytes = o.readSpins ? this.n : 0;
    if (!recBytes && !spinBytes) {
      await d.queue.onSubmittedWorkDone();
      if (this.lostMessage) throw new Error(this.lostMessage);
      return { records: null, spins: null };
    }
    const size = align4(recBytes) + spinBytes;
    if (!this.readback || this.readback.size < size) {
      this.readback?.destroy();
      this.readback = d.createBuffer({ size: Math.max(size, 64), usage: USAGE.MAP_READ | USAGE.COPY_DST, label: 'ising readback' });
    }
    const enc = d.createCommandEncoder();
    if (spinBytes) {
      const pass = enc.beginComputePass();
      pass.setPipeline(this.packPipeline);
      pass.setBindGroup(0, this.group0);
      const [x, y] = grid(Math.ceil(this.n / 4 / WG), d.limits.maxComputeWorkgroupsPerDimension);
      pass.dispatchWorkgroups(x, y);
      pass.end();
      enc.copyBufferToBuffer(this.packed, 0, this.readback, align4(recBytes), spinBytes);
    }
    if (recBytes) enc.copyBufferToBuffer(this.rec, 0, this.readback, 0, recBytes);
    d.queue.submit([enc.finish()]);
    await this.readback.mapAsync(MAP_READ);
    try {
      const all = this.readback.getMappedRange();
      let records: SweepRecords | null = null;
      if (recBytes) {
        const r = new Int32Array(all, 0, 3 * steps);
        records = { sum: new Int32Array(steps), bond: new Int32Array(steps), updates: new Int32Array(steps) };
        for (let t = 0; t < steps; t++) {
          records.sum[t] = r[3 * t];
          records.bond[t] = r[3 * t + 1];
          records.updates[t] = r[3 * t + 2];
        }
      }
      const spins = spinBytes ? new Int8Array(all.slice(align4(recBytes), align4(recBytes) + spinBytes)) : null;
      return { records, spins };
    } finally {
      this.readback.unmap();
    }
  }

  destroy() {
    for (const b of [this.params, this.spins, this.thr, this.rec, this.packed, this.passIndex, this.readback]) b?.destroy();
    this.readback = null;
  }
}

function align4(x: number): number {
  return Math.ceil(x / 4) * 4;
}

/** Workgroups as x × y within the per-dimension limit (the kernel folds y back into one index). */
function grid(workgroups: number, limit: number): [number, number] {
  if (workgroups <= limit) return [workgroups, 1];
  const y = Math.ceil(workgroups / limit);
  return [Math.ceil(workgroups / y), y];
}

export interface GpuSampleOptions {
  side: number;
  /** As checkerboardLaw gives it; the thresholds may come as a plain array (through page.evaluate). */
  law: Omit<CheckerboardLaw, 'thresholds'> & { thresholds: ArrayLike<number> };
  key: number;
  /** Initial spins (±1, row-major); default all +1. */
  spins?: number[];
  steps: number;
  firstStep?: number;
  /** Return the final spins too. */
  readSpins?: boolean;
}

export interface GpuSample {
  adapter: string;
  software: boolean;
  sum: number[];
  bond: number[];
  updates: number[];
  spins: number[] | null;
  seconds: number;
}

/**
 * One run of the kernel on a fresh device, as plain data (for the browser test, through the page's test handle,
 * and for bench/gpu/): per-step Σ s, bond sums and redrawn counts, and the final spins when asked.
 */
export async function sampleGpuIsing(o: GpuSampleOptions): Promise<GpuSample> {
  const ctx = await requestGpu();
  if ('error' in ctx) throw new Error(ctx.error);
  try {
    const sim = await GpuIsing.create(ctx.device, o.side);
    sim.setLaw({ ...o.law, thresholds: Uint32Array.from(o.law.thresholds) });
    sim.setSpins(o.spins ?? new Array<number>(o.side * o.side).fill(1));
    const t0 = performance.now();
    const r = await sim.run(o.steps, { firstStep: o.firstStep ?? 0, key: o.key, readSpins: o.readSpins });
    const seconds = (performance.now() - t0) / 1000;
    sim.destroy();
    return {
      adapter: ctx.adapter,
      software: ctx.software,
      sum: Array.from(r.records!.sum),
      bond: Array.from(r.records!.bond),
      updates: Array.from(r.records!.updates),
      spins: r.spins ? Array.from(r.spins) : null,
      seconds,
    };
  } finally {
    ctx.device.destroy();
  }
}
