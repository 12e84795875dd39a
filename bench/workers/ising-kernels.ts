/**
 * Kernels timed by bench/suites/ising.ts, shared by the worker and the main-thread runs so both time the same code.
 * "naive" is the textbook loop (number[] spins, Math.random, Math.exp per spin) kept as the ratio reference;
 * "direct" is a lattice-only kernel that indexes the 4 neighbours arithmetically instead of through CSR.
 */
import { createRng } from '../../src/core/rng';
import { squareLattice } from '../../src/core/graphs/generators';
import { simulateGlauber } from '../../src/core/ising/simulate';

export type Variant = 'sync-table' | 'sync-csr' | 'async-small' | 'async-table' | 'sync-exp' | 'sync-five' | 'naive' | 'direct';

export interface Timing {
  variant: Variant;
  spins: number;
  steps: number;
  /** Wall-clock seconds. */
  seconds: number;
  /** CPU seconds of this process (user + system): steadier than wall time on a shared machine. */
  cpuSeconds: number;
  /** Spins actually redrawn (async redraws about ε of them). */
  updates: number;
  /** N × steps: spin-steps simulated, whether or not a spin was redrawn. */
  visits: number;
}

const SIDE = 316;

export function runKernel(variant: Variant, steps: number, seed = 1): Timing {
  const g = squareLattice(SIDE);
  const n = g.n;
  const rng = createRng(seed);
  const s0 = Int8Array.from({ length: n }, () => (rng.next() < 0.5 ? 1 : -1));
  const beta = 0.4;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let updates = 0;
  if (variant === 'naive') {
    updates = naive(SIDE, s0, beta, steps);
  } else if (variant === 'direct') {
    updates = direct(SIDE, s0, beta, steps, rng.u32());
  } else {
    const fields = variant === 'sync-exp' ? Float64Array.from({ length: n }, (_, i) => 0.01 * ((i % 7) - 3)) : 0;
    const couplings =
      variant === 'sync-five'
        ? { kind: 'five' as const, betaPlusT: 0.4, betaPlusF: 0.3, betaMinusT: 0, betaMinusF: 0, beta0: 0 }
        : { kind: 'one' as const, beta };
    // Any kind other than 'square' sends the same lattice through the generic CSR loop.
    const graph = variant === 'sync-csr' ? { ...g, kind: 'csr' } : g;
    const r = simulateGlauber(
      graph,
      { couplings, fields, mode: variant.startsWith('async') ? 'async' : 'sync', eps: variant === 'async-small' ? 0.05 : 0.5 },
      s0,
      steps,
      rng,
      { record: false },
    );
    updates = r.updates;
  }
  const seconds = (performance.now() - t0) / 1000;
  const cu = process.cpuUsage(c0);
  return { variant, spins: n, steps, seconds, cpuSeconds: (cu.user + cu.system) / 1e6, updates, visits: n * steps };
}

function naive(side: number, s0: Int8Array, beta: number, steps: number): number {
  const n = side * side;
  let cur: number[] = Array.from(s0);
  for (let t = 0; t < steps; t++) {
    const nxt: number[] = new Array(n);
    for (let r = 0; r < side; r++)
      for (let c = 0; c < side; c++) {
        const h =
          beta *
          (cur[r * side + ((c + 1) % side)] +
            cur[r * side + ((c + side - 1) % side)] +
            cur[((r + 1) % side) * side + c] +
            cur[((r + side - 1) % side) * side + c]);
        nxt[r * side + c] = Math.random() < 1 / (1 + Math.exp(-h)) ? 1 : -1;
      }
    cur = nxt;
  }
  return n * steps;
}

function direct(side: number, s0: Int8Array, beta: number, steps: number, seed: number): number {
  const n = side * side;
  let cur = Int8Array.from(s0);
  let nxt = new Int8Array(n);
  const thr = new Float64Array(9);
  for (let k = -4; k <= 4; k++) thr[k + 4] = 4294967296 / (1 + Math.exp(-beta * k));
  let x = seed | 1;
  for (let t = 0; t < steps; t++) {
    for (let r = 0; r < side; r++) {
      const up = ((r + side - 1) % side) * side;
      const dn = ((r + 1) % side) * side;
      const row = r * side;
      for (let c = 0; c < side; c++) {
        const cl = c === 0 ? side - 1 : c - 1;
        const cr = c === side - 1 ? 0 : c + 1;
        const k = cur[row + cl] + cur[row + cr] + cur[up + c] + cur[dn + c];
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5; // xorshift32: a cheaper stream than sfc32, acceptable for a speed comparison only
        nxt[row + c] = x >>> 0 < thr[k + 4] ? 1 : -1;
      }
    }
    const tmp = cur;
    cur = nxt;
    nxt = tmp;
  }
  return n * steps;
}

/** The fastest of several runs (by CPU time): on a shared machine the minimum is the least disturbed one. */
export function bestOf(repeats: number, run: () => Timing): Timing {
  let best = run();
  for (let k = 1; k < repeats; k++) {
    const t = run();
    if (t.cpuSeconds < best.cpuSeconds) best = t;
  }
  return best;
}
