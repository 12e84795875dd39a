/**
 * Browser side of the runtime benchmark (WebGPU on a real GPU via bench/gpu/run.ts; wasm and SwiftShader WebGPU in
 * headless Chromium via bench/suites/runtime-browser.ts): loads a model twice in model workers (with and without the
 * hidden-state taps) and times the same greedy generation on both, alternating, so the ratio is measured in one run.
 * Memory is measured before loading, after the tapped model and after the plain one.
 */
import { ModelClient } from '../../src/runtime/client';
import { probeWebGpu } from '../../src/runtime/gpu';
import type { Device, Dtype } from '../../src/runtime/types';
import './grids';
import './ising';

export interface BenchOptions {
  model?: string;
  device?: Device;
  dtype?: Dtype;
  rounds?: number;
  newTokens?: number;
  /** Give up on one memory measurement after this long (default 60 s); the result then says why. */
  memoryTimeoutMs?: number;
}

/** Bytes the page and its dedicated workers use, or why that could not be measured. */
export type MemorySample = { bytes: number; workerBytes: number; byType: Record<string, number>; ms: number } | { error: string };

interface MemoryBreakdown {
  bytes: number;
  attribution: { scope?: string; url?: string }[];
  types: string[];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const iqr = (xs: number[]): [number, number] => {
  const s = [...xs].sort((a, b) => a - b);
  return [s[Math.floor((s.length - 1) / 4)], s[Math.ceil((3 * (s.length - 1)) / 4)]];
};

/**
 * performance.measureUserAgentSpecificMemory(): JS heaps and ArrayBuffers (wasm memories included) of this page and
 * its dedicated workers; not GPU buffers. Needs cross-origin isolation. Chromium resolves it at its next GC (which
 * may take a while unless launched with --enable-blink-features=ForceEagerMeasureMemory), hence the timeout.
 */
async function measureMemory(timeoutMs: number): Promise<MemorySample> {
  const perf = performance as Performance & { measureUserAgentSpecificMemory?: () => Promise<{ bytes: number; breakdown: MemoryBreakdown[] }> };
  if (!perf.measureUserAgentSpecificMemory) return { error: 'performance.measureUserAgentSpecificMemory is not available' };
  if (!crossOriginIsolated) return { error: 'the page is not cross-origin isolated' };
  (globalThis as { gc?: () => void }).gc?.();
  const t0 = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<MemorySample>((r) => (timer = setTimeout(() => r({ error: `no answer within ${timeoutMs / 1000} s` }), timeoutMs)));
  const measured = perf
    .measureUserAgentSpecificMemory()
    .then((m): MemorySample => {
      const byType: Record<string, number> = {};
      let workerBytes = 0;
      for (const b of m.breakdown) {
        const type = b.types.join('+') || 'unattributed';
        byType[type] = (byType[type] ?? 0) + b.bytes;
        if (b.attribution.some((a) => a.scope === 'DedicatedWorkerGlobalScope')) workerBytes += b.bytes;
      }
      return { bytes: m.bytes, workerBytes, byType, ms: performance.now() - t0 };
    })
    .catch((e: unknown): MemorySample => ({ error: (e as Error).message ?? String(e) }));
  try {
    return await Promise.race([measured, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function runBench(o: BenchOptions = {}) {
  const { model = 'tiny-social', device = 'webgpu', dtype = 'auto', rounds = 5, newTokens = 64, memoryTimeoutMs = 60_000 } = o;
  const client = new ModelClient({ pingTimeoutMs: 120_000 });
  const gpu = await probeWebGpu();
  const memBefore = await measureMemory(memoryTimeoutMs);
  const t0 = performance.now();
  const tapped = await client.load(model, { device, dtype });
  const loadMs = performance.now() - t0;
  const memTapped = await measureMemory(memoryTimeoutMs);
  const plain = await client.load(model, { device, dtype: tapped.info!.dtype, taps: false });
  const memPlain = await measureMemory(memoryTimeoutMs);
  const prompt = 'Turn 1: Mia said: Hello, nice to meet you. Turn 2: Sam said:';
  const longPrompt = Array.from({ length: 12 }, (_, i) => `Turn ${i + 1}: a long conversation about the town, the weather and the vote.`).join(' ');
  // warm-up, including one full-length generation: the first rounds after a 4-token warm-up ran up to 8× slower (wasm)
  for (const h of [tapped, plain]) {
    await h.generate({ prompt, maxNewTokens: 4 });
    await h.generate({ prompt: longPrompt, maxNewTokens: 1 });
    await h.generate({ prompt, maxNewTokens: newTokens });
  }
  const ratios: number[] = [];
  const prefillRatios: number[] = [];
  const decode = { taps: [] as number[], plain: [] as number[] };
  const prefill = { taps: [] as number[], plain: [] as number[] };
  const text = { taps: '', plain: '' };
  const generateMs = { taps: [] as number[], plain: [] as number[] };
  let tokens = 0;
  let promptTokens = 0;
  for (let r = 0; r < rounds; r++) {
    const t: Record<string, number> = {};
    const p: Record<string, number> = {};
    for (const which of r % 2 ? (['plain', 'taps'] as const) : (['taps', 'plain'] as const)) {
      const h = which === 'taps' ? tapped : plain;
      const g = await h.generate({ prompt, maxNewTokens: newTokens });
      // the overhead must compare a tapped graph that returns states with a stock one that returns none
      if (which === 'taps' && !g.prefillStates) throw new Error('the tapped model returned no states');
      if (which === 'plain' && g.prefillStates) throw new Error('the plain model returned states');
      t[which] = g.timing.totalMs;
      generateMs[which].push(g.timing.totalMs);
      decode[which].push(g.timing.decodeTokensPerSecond);
      tokens = g.tokens.length;
      text[which] = g.text;
      const pf = await h.generate({ prompt: longPrompt, maxNewTokens: 1 });
      p[which] = pf.timing.prefillMs;
      prefill[which].push(pf.timing.prefillTokensPerSecond);
      promptTokens = pf.timing.promptTokens;
    }
    ratios.push(t.taps / t.plain);
    prefillRatios.push(p.taps / p.plain);
  }
  const info = tapped.info!;
  const plainInfo = plain.info!;
  client.unloadAll();
  return {
    model: info.id,
    backend: info.backend,
    plainBackend: plainInfo.backend,
    dtype: info.dtype,
    reason: info.reason,
    layers: info.numLayers,
    hidden: info.hiddenSize,
    gpu,
    crossOriginIsolated,
    loadMs,
    rounds,
    newTokens: tokens,
    promptTokens,
    sameText: text.taps === text.plain,
    decodeTpsTaps: median(decode.taps),
    decodeTpsPlain: median(decode.plain),
    prefillTpsTaps: median(prefill.taps),
    prefillTpsPlain: median(prefill.plain),
    tapOverhead: median(ratios),
    tapOverheadIqr: iqr(ratios),
    /** Per-round generate wall times (ms), to look at the spread. */
    generateMs,
    prefillOverhead: median(prefillRatios),
    /** Page + dedicated workers: before loading, after the tapped model, after the plain one as well. */
    memory: { before: memBefore, afterTapped: memTapped, afterPlain: memPlain },
  };
}

export type BenchResult = Awaited<ReturnType<typeof runBench>>;

(window as unknown as { runBench: typeof runBench }).runBench = runBench;
document.getElementById('log')!.textContent += '\nready';
