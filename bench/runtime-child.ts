/**
 * One backend's runtime measurements, in its own process (transformers.js binds one ONNX runtime per process).
 * Run by bench/suites/runtime.ts: `tsx bench/runtime-child.ts <cpu|wasm> [model]`; prints one JSON line.
 */
import { createNodeRuntime } from '../src/runtime/node.ts';

const backend = (process.argv[2] ?? 'cpu') as 'cpu' | 'wasm';
const model = process.argv[3] ?? 'tiny-social';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 25);
// a 1.6M-parameter model generates 32 tokens in ~15 ms, where scheduler noise swamps a 5 % effect: longer runs, more rounds
const NEW_TOKENS = Number(process.env.BENCH_NEW_TOKENS ?? 128);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const iqr = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return [s[Math.floor((s.length - 1) / 4)], s[Math.ceil((3 * (s.length - 1)) / 4)]];
};
const rss = () => process.memoryUsage().rss;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

const rss0 = rss();
const tapped = createNodeRuntime();
const info = await tapped.load(model, { device: backend, dtype: 'fp32' });
gc();
const rss1 = rss();
const plain = createNodeRuntime();
await plain.load(model, { device: backend, dtype: 'fp32', taps: false });
gc();
const rss2 = rss();

const shortPrompt = 'Turn 1: Mia said: Hello, nice to meet you. Turn 2: Sam said:';
const longPrompt = Array.from({ length: 12 }, (_, i) => `Turn ${i + 1}: a long conversation about the town, the weather and the vote.`).join(' ');
// warm-up
for (const rt of [tapped, plain]) {
  await rt.generate({ prompt: shortPrompt, maxNewTokens: 4 });
  await rt.generate({ prompt: longPrompt, maxNewTokens: 1 });
}
const gen = { taps: [] as number[], plain: [] as number[] };
const cpu = { taps: [] as number[], plain: [] as number[] };
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const decode = { taps: [] as number[], plain: [] as number[] };
const prefill = { taps: [] as number[], plain: [] as number[] };
let newTokens = 0;
let promptTokens = 0;
for (let r = 0; r < ROUNDS; r++) {
  // alternate the order so that drift in machine load hits both alike
  const order = r % 2 ? (['plain', 'taps'] as const) : (['taps', 'plain'] as const);
  for (const which of order) {
    const rt = which === 'taps' ? tapped : plain;
    const c0 = cpuMs();
    const g = await rt.generate({ prompt: shortPrompt, maxNewTokens: NEW_TOKENS });
    cpu[which].push(cpuMs() - c0);
    gen[which].push(g.timing.totalMs);
    decode[which].push(g.timing.decodeTokensPerSecond);
    newTokens = g.tokens.length;
    const p = await rt.generate({ prompt: longPrompt, maxNewTokens: 1 });
    prefill[which].push(p.timing.prefillTokensPerSecond);
    promptTokens = p.timing.promptTokens;
    if (which === 'taps' && !g.prefillStates) throw new Error('the tapped model returned no states');
    if (which === 'plain' && g.prefillStates) throw new Error('the plain model returned states');
  }
}
await tapped.dispose();
await plain.dispose();
process.stdout.write(
  JSON.stringify({
    backend,
    model: info.id,
    dtype: info.dtype,
    layers: info.numLayers,
    hidden: info.hiddenSize,
    rounds: ROUNDS,
    newTokens,
    promptTokens,
    prefillTpsTaps: median(prefill.taps),
    prefillTpsPlain: median(prefill.plain),
    decodeTpsTaps: median(decode.taps),
    decodeTpsPlain: median(decode.plain),
    // ratios of adjacent runs (same round), then the median: robust to the load drifting on a shared machine
    tapOverhead: median(gen.taps.map((t, i) => t / gen.plain[i])),
    tapOverheadIqr: iqr(gen.taps.map((t, i) => t / gen.plain[i])),
    prefillOverhead: median(prefill.plain.map((p, i) => p / prefill.taps[i])),
    // CPU time (all threads) of the same generation: less sensitive than wall time to other jobs on the machine
    cpuOverhead: median(cpu.taps.map((t, i) => t / cpu.plain[i])),
    firstModelMiB: (rss1 - rss0) / 2 ** 20,
    secondModelMiB: (rss2 - rss1) / 2 ** 20,
  }) + '\n',
);
