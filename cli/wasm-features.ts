/**
 * Turns on WebAssembly relaxed SIMD where this Node has it behind a flag (Node 20's V8 11.3; Chromium ≥ 114 and
 * Node ≥ 22 ship it). The grid kernels (src/core/simd-gemm.ts) use its fused multiply-add where it validates, so
 * with it the CLI, the benchmarks and the tests run the kernel that the page runs: the page's numbers, 1.3× faster.
 * Import it first, before anything computes a product: flags are process-wide, so worker_threads get it too.
 */
import { setFlagsFromString } from 'node:v8';

// (func (param v128 v128 v128) (result v128) local.get 0 local.get 1 local.get 2 f64x2.relaxed_madd)
const probe = [0x00, 0x20, 0, 0x20, 1, 0x20, 2, 0xfd, 0x87, 0x02, 0x0b];
const moduleWithFma = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...[0x01, 0x08, 0x01, 0x60, 0x03, 0x7b, 0x7b, 0x7b, 0x01, 0x7b],
  ...[0x03, 0x02, 0x01, 0x00],
  ...[0x0a, probe.length + 2, 0x01, probe.length, ...probe],
]);

/** Whether this runtime validates relaxed SIMD now. */
export const relaxedSimd = (): boolean => WebAssembly.validate(moduleWithFma);

if (!relaxedSimd()) setFlagsFromString('--experimental-wasm-relaxed-simd');
