/**
 * Browser side of the WebGPU benchmark: loads a model twice in model workers (with and without the hidden-state
 * taps) and times the same greedy generation on both, alternating, so the ratio is measured in one run.
 */
import { ModelClient } from '../../src/runtime/client';
import { probeWebGpu } from '../../src/runtime/gpu';
import type { Device, Dtype } from '../../src/runtime/types';

export interface BenchOptions {
  model?: string;
  device?: Device;
  dtype?: Dtype;
  rounds?: number;
  newTokens?: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function runBench(o: BenchOptions = {}) {
  const { model = 'tiny-social', device = 'webgpu', dtype = 'auto', rounds = 5, newTokens = 64 } = o;
  const client = new ModelClient({ pingTimeoutMs: 120_000 });
  const gpu = await probeWebGpu();
  const t0 = performance.now();
  const tapped = await client.load(model, { device, dtype });
  const loadMs = performance.now() - t0;
  const plain = await client.load(model, { device, dtype: tapped.info!.dtype, taps: false });
  const prompt = 'Turn 1: Mia said: Hello, nice to meet you. Turn 2: Sam said:';
  const longPrompt = Array.from({ length: 12 }, (_, i) => `Turn ${i + 1}: a long conversation about the town, the weather and the vote.`).join(' ');
  for (const h of [tapped, plain]) {
    await h.generate({ prompt, maxNewTokens: 4 });
    await h.generate({ prompt: longPrompt, maxNewTokens: 1 });
  }
  const ratios: number[] = [];
  const prefillRatios: number[] = [];
  const decode = { taps: [] as number[], plain: [] as number[] };
  const prefill = { taps: [] as number[], plain: [] as number[] };
  let tokens = 0;
  for (let r = 0; r < rounds; r++) {
    const t: Record<string, number> = {};
    const p: Record<string, number> = {};
    for (const which of r % 2 ? (['plain', 'taps'] as const) : (['taps', 'plain'] as const)) {
      const h = which === 'taps' ? tapped : plain;
      const g = await h.generate({ prompt, maxNewTokens: newTokens });
      t[which] = g.timing.totalMs;
      decode[which].push(g.timing.decodeTokensPerSecond);
      tokens = g.tokens.length;
      const pf = await h.generate({ prompt: longPrompt, maxNewTokens: 1 });
      p[which] = pf.timing.prefillMs;
      prefill[which].push(pf.timing.prefillTokensPerSecond);
    }
    ratios.push(t.taps / t.plain);
    prefillRatios.push(p.taps / p.plain);
  }
  const info = tapped.info!;
  client.unloadAll();
  return {
    model: info.id,
    backend: info.backend,
    dtype: info.dtype,
    reason: info.reason,
    gpu,
    loadMs,
    newTokens: tokens,
    decodeTpsTaps: median(decode.taps),
    decodeTpsPlain: median(decode.plain),
    prefillTpsTaps: median(prefill.taps),
    prefillTpsPlain: median(prefill.plain),
    tapOverhead: median(ratios),
    prefillOverhead: median(prefillRatios),
  };
}

(window as unknown as { runBench: typeof runBench }).runBench = runBench;
document.getElementById('log')!.textContent += '\nready';
