/**
 * CKA's Gram products on WebGPU (src/gpu/gram.ts), in headless Chromium on SwiftShader, through the built page's
 * test handle (`__socialMindsLab.gpuCka`): correctness only (SwiftShader is a CPU; bench/gpu/ times a real GPU).
 * The states have a large common offset per unit (as hidden states do), so that the float64 centring before the
 * float32 product is tested too. Against Node's float64 CKA of the same states:
 *  - every linear and debiased CKA cell within 1e-5 (the issue's tolerance for the GPU path);
 *  - the Gram triangle within 1e-5 of its largest entry, and not equal to float64's: it really was float32.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launch, openPage } from './setup/browser';
import { cka, gramInfo } from '../../src/core/cka';
import { createRng } from '../../src/core/rng';
import type { LayerStack } from '../../src/core/layer-stack';
import { syncR2 } from '../../src/core/synchrony';
import type { GpuCkaCheck, GpuSyncCheck, PlainStack } from '../../src/gpu/gram-check';

/**
 * m probes × L layers × H units: a low-rank signal per probe (the same for both stacks, so CKA is high and varies
 * with the layer's mixing and noise), layer-dependent mixing, noise and offsets.
 */
function stack(seed: string, m: number, L: number, H: number): LayerStack {
  const shared = createRng('gpu-gram-latent');
  const latent = Array.from({ length: m * 3 }, () => shared.normal());
  const r = createRng(seed);
  const offset = Array.from({ length: H }, () => 20 * r.normal());
  const data = new Float32Array(m * L * H);
  for (let i = 0; i < m; i++)
    for (let l = 0; l < L; l++) for (let h = 0; h < H; h++) data[(i * L + l) * H + h] = offset[h] + latent[i * 3 + ((h + l) % 3)] + 0.2 * 3 ** l * r.normal();
  return { data, n: m, L, H };
}
const plain = (s: LayerStack): PlainStack => ({ data: Array.from(s.data), n: s.n, L: s.L, H: s.H });

type Hook = {
  __socialMindsLab: {
    gpuCka(x: PlainStack, y: PlainStack): Promise<GpuCkaCheck>;
    gpuSyncR2(source: PlainStack, target: PlainStack, group: number[], alpha: number, rowsBudgetBytes?: number): Promise<GpuSyncCheck>;
  };
};

describe('CKA Gram products on WebGPU (SwiftShader)', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launch('webgpu');
    ({ page } = await openPage(browser));
    await page.waitForFunction(() => 'gpuCka' in ((window as unknown as Partial<Hook>).__socialMindsLab ?? {}));
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('gives the float64 CKA grids within 1e-5, from float32 Gram products (m = 200, H = 96 and 130, odd sizes)', async () => {
    const x = stack('gpu-gram-x', 200, 3, 96);
    const y = stack('gpu-gram-y', 200, 4, 130);
    const gpu = await page.evaluate(([a, b]) => (window as unknown as Hook).__socialMindsLab.gpuCka(a, b), [plain(x), plain(y)] as const);
    const cpu = cka(x, y);
    expect(gpu.linear).toHaveLength(12);
    let worst = 0;
    for (const [g, c] of [
      [gpu.linear, cpu.linear.grid],
      [gpu.debiased, cpu.debiased.grid],
    ] as const)
      g.forEach((v, k) => (worst = Math.max(worst, Math.abs(v - c[k]))));
    expect(worst).toBeLessThan(1e-5);
    // The grids vary (a constant grid would pass any tolerance), and the Gram entries were computed in float32.
    expect(Math.max(...gpu.linear) - Math.min(...gpu.linear)).toBeGreaterThan(0.05);
    const exact = gramInfo(x, 0).off;
    const scale = exact.reduce((a, v) => Math.max(a, Math.abs(v)), 0);
    let gramDiff = 0;
    gpu.firstTriangle.forEach((v, k) => (gramDiff = Math.max(gramDiff, Math.abs(v - exact[k]))));
    expect(gramDiff / scale).toBeLessThan(1e-5);
    expect(gramDiff).toBeGreaterThan(0);
    console.log(
      `GPU CKA on ${gpu.adapter}: max |Δ CKA| ${worst.toExponential(2)}, Gram ${(gramDiff / scale).toExponential(2)} of its largest entry, ${gpu.seconds.toFixed(2)} s`,
    );
  });

  it('gives the float64 SyncR² grids within 1e-4, with the target-side products in float32 (both solvers)', async () => {
    // n = 240 samples in 60 episode groups: H = 96 < n_tr takes the primal solve, H = 260 > n_tr the dual one; the
    // dual case keeps one source row resident at a time (a budget of 1 byte), as a grid with many samples would.
    for (const H of [96, 260]) {
      const budget = H === 260 ? 1 : 512 * 2 ** 20;
      const source = stack(`gpu-sync-a-${H}`, 240, 3, H);
      const target = stack(`gpu-sync-b-${H}`, 240, 4, 70);
      const group = Array.from({ length: 240 }, (_, i) => Math.floor(i / 4));
      const gpu = await page.evaluate(([a, b, g, rb]) => (window as unknown as Hook).__socialMindsLab.gpuSyncR2(a, b, g, 1, rb), [
        plain(source),
        plain(target),
        group,
        budget,
      ] as const);
      const cpu = syncR2(source, target, group, { alpha: 1, splitSeeds: [0, 1, 2] });
      let worst = 0;
      gpu.r2PerSplit.forEach((g, k) => g.forEach((v, c) => (worst = Math.max(worst, Math.abs(v - cpu.r2PerSplit[k][c])))));
      expect(worst).toBeLessThan(1e-4);
      expect(Math.abs(gpu.syncR2 - cpu.syncR2)).toBeLessThan(1e-4);
      // The R² map has structure to get right (not a grid of zeros).
      const cells = cpu.r2PerSplit.flatMap((g) => Array.from(g));
      expect(Math.max(...cells) - Math.min(...cells)).toBeGreaterThan(0.05);
      console.log(`GPU SyncR² (H = ${H}) on ${gpu.adapter}: max |Δ R²| ${worst.toExponential(2)}, ${gpu.seconds.toFixed(2)} s`);
    }
  });
});
