/**
 * Turns on WebAssembly relaxed SIMD where this Node has it behind a flag (Node 20's V8 11.3; Chromium ≥ 114 and
 * Node ≥ 22 ship it). The grid kernels (src/core/simd-gemm.ts) use its fused multiply-add where it validates, so
 * with it the CLI, the benchmarks and the tests run the kernel that the page runs: the page's numbers, 1.3× faster.
 * Import it first, before anything computes a product: flags are process-wide, so worker_threads get it too.
 */
import { setFlagsFromString } from 'node:v8';
import { relaxedSimdValidates } from '../src/core/simd-gemm.ts';

if (!relaxedSimdValidates()) setFlagsFromString('--experimental-wasm-relaxed-simd');
