import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { BenchSuite } from '../run.ts';

interface Result {
  backend: string;
  model: string;
  dtype: string;
  layers: number;
  hidden: number;
  rounds: number;
  newTokens: number;
  promptTokens: number;
  prefillTpsTaps: number;
  prefillTpsPlain: number;
  decodeTpsTaps: number;
  decodeTpsPlain: number;
  tapOverhead: number;
  tapOverheadIqr: [number, number];
  prefillOverhead: number;
  cpuOverhead: number;
  firstModelMiB: number;
  secondModelMiB: number;
}

const root = resolve(import.meta.dirname, '../..');

function measure(backend: string): Result {
  // one process per backend: transformers.js binds onnxruntime-node or onnxruntime-web once per process
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', resolve(root, 'bench/runtime-child.ts'), backend], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out.trim().split('\n').pop()!) as Result;
}

/** Extra microseconds per decoded token with the taps, from the decode rates (negative: within noise). */
const usPerStep = (r: Result) => (1e6 / r.decodeTpsTaps - 1e6 / r.decodeTpsPlain).toFixed(0);

const suite: BenchSuite = {
  title: 'Model runtime (embedded model, Node)',
  async run() {
    const rows = ['cpu', 'wasm'].map(measure);
    const f = (x: number, d = 0) => x.toFixed(d);
    const name: Record<string, string> = { cpu: 'onnxruntime-node CPU', wasm: 'onnxruntime-web wasm (in Node)' };
    const r0 = rows[0];
    return [
      `tiny-social fp32 (${r0.layers} layers × ${r0.hidden}); greedy, ${r0.newTokens} new tokens after a short prompt; prefill on a ${r0.promptTokens}-token prompt; medians of ${r0.rounds} alternating rounds; overheads are medians of the per-round ratios.`,
      '',
      '| backend | prefill tok/s (taps) | prefill tok/s (no taps) | decode tok/s (taps) | decode tok/s (no taps) | tap overhead, generate wall time (taps ÷ none, goal ≤ 1.05) | tap overhead, generate CPU time | tap overhead, prefill | memory, 1st model (MiB RSS) | memory, 2nd model (MiB RSS) |',
      '|---|---|---|---|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| ${name[r.backend]} | ${f(r.prefillTpsTaps)} | ${f(r.prefillTpsPlain)} | ${f(r.decodeTpsTaps, 1)} | ${f(r.decodeTpsPlain, 1)} | ${f(r.tapOverhead, 3)} (IQR ${f(r.tapOverheadIqr[0], 2)}–${f(r.tapOverheadIqr[1], 2)}) | ${f(r.cpuOverhead, 3)} | ${f(r.prefillOverhead, 3)} | ${f(r.firstModelMiB)} | ${r.secondModelMiB > 0 ? f(r.secondModelMiB) : 'n/a (GC)'} |`,
      ),
      '',
      'Tap overhead is the median time of the same greedy generation with the tapped graph over the stock graph, on the same backend in the same process ' +
        '(both produce the same tokens; the tapped one also returns the [L+1, H] prefill states and reads back [L+1, 1, H] per step). ' +
        'The CPU-time ratio (all threads of the process) is the steadier measure on a shared machine, where wall time also counts waiting for a core. ' +
        'Memory is the growth of the process RSS after loading a model (the first includes the runtime itself). WebGPU numbers need a GPU: see bench/gpu/. ' +
        `Per decode step the taps cost ${usPerStep(rows[0])} µs on CPU and ${usPerStep(rows[1])} µs on wasm (1/decode tok/s, taps minus none): a fixed cost of a few small ops ` +
        '(a Gather per layer, one Concat, one more output to read back) against a step of about 0.5 ms on this 1.6M-parameter model, so it shows as a few percent here; ' +
        'on hub models, whose steps take tens of milliseconds, it should be far smaller (not measured here: no hub model can be downloaded on this machine).',
    ].join('\n');
  },
};

export default suite;
