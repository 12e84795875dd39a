/**
 * The benchmark problems of the layer grids, shared by the Node suites (sync.ts, cka.ts) and the page
 * (bench/gpu/grids.ts), so that Chromium and Node time the very same numbers.
 */
import { createRng } from '../src/core/rng.ts';
import type { LayerStack } from '../src/core/layer-stack.ts';

/** SmolLM2-135M-shaped SyncR²: 30 → 30 layers, H = 576, n samples in groups of 5; a shared low-rank signal plus noise. */
export function syncProblem(n = 1000): { source: LayerStack; target: LayerStack; group: Int32Array } {
  const L = 30;
  const H = 576;
  const rank = 16;
  const rng = createRng('bench-sync');
  const latent = Float64Array.from({ length: n * rank }, () => rng.normal());
  const make = (lag: number): LayerStack => {
    const data = new Float32Array(n * L * H);
    for (let l = 0; l < L; l++) {
      const W = Float64Array.from({ length: rank * H }, () => rng.normal() / Math.sqrt(rank));
      const noise = 0.5 + (Math.abs(l - lag) / L) * 2;
      for (let i = 0; i < n; i++) {
        const o = (i * L + l) * H;
        for (let h = 0; h < H; h++) {
          let v = 0;
          for (let r = 0; r < rank; r++) v += latent[i * rank + r] * W[r * H + h];
          data[o + h] = v + noise * rng.normal() + (h % 7 === 0 ? 20 : 0);
        }
      }
    }
    return { data, n, L, H };
  };
  const source = make(10);
  const target = make(20);
  return { source, target, group: Int32Array.from({ length: n }, (_, i) => Math.floor(i / 5)) };
}

/** Two 1B-class models on the seed's probe count: 28 layers, m = 1000, H = 1024; a shared direction per probe. */
export function ckaStack(seed: string, m = 1000): LayerStack {
  const L = 28;
  const H = 1024;
  const rng = createRng(seed);
  const data = new Float32Array(m * L * H);
  for (let i = 0; i < data.length; i++) data[i] = rng.normal();
  const common = createRng('common');
  for (let i = 0; i < m; i++) {
    const c = common.normal() * 3;
    for (let l = 0; l < L; l++) for (let h = 0; h < 8; h++) data[(i * L + l) * H + h] += c * (1 + l / L);
  }
  return { data, n: m, L, H };
}

export const SYNC_SEEDS = [0, 1, 2];

/** A weighted sum of the values, to check that two environments built the same problem. */
export function checksum(xs: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i] * ((i % 97) + 1);
  return s;
}
