/**
 * Max abs diff of the embedded model's last-token states against the PyTorch fixture, and greedy equality, on one
 * Node backend, fp32 and q4 (the table in docs/runtime.md, "Measured here"):
 *   npx tsx models/tiny-social/fixture-diffs.ts cpu|wasm
 * One backend per process: transformers.js binds onnxruntime-node or onnxruntime-web once.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createNodeRuntime } from '../../src/runtime/node';
import type { HiddenStateCase, HiddenStateFixture } from '../../src/runtime/fixture';

const backend = (process.argv[2] ?? 'cpu') as 'cpu' | 'wasm';
const fixturePath = resolve(import.meta.dirname, '../../models/tiny-social/reference.json');
const fixture = JSON.parse(readFileSync(fixturePath, 'utf8')) as HiddenStateFixture;
const input = (c: HiddenStateCase) => (c.kind === 'chat' ? { messages: c.messages! } : { prompt: c.text });
const maxAbsDiff = (a: Float32Array, rows: number[][]) => rows.flat().reduce((m, v, i) => Math.max(m, Math.abs(a[i] - v)), 0);

for (const dtype of ['fp32', 'q4'] as const) {
  const rt = createNodeRuntime();
  await rt.load('tiny-social', { device: backend, dtype });
  let worst = 0;
  let greedy = 0;
  for (const c of fixture.cases) {
    const r = await rt.generate({ ...input(c), maxNewTokens: c.greedy_continuation.length });
    worst = Math.max(worst, maxAbsDiff(r.prefillStates!, c.hidden_last_token));
    if (JSON.stringify(r.tokens) === JSON.stringify(c.greedy_continuation)) greedy++;
  }
  console.log(`${backend} ${dtype}: max |states - PyTorch fp32| ${worst.toExponential(2)}, greedy equal ${greedy}/${fixture.cases.length}`);
  await rt.dispose();
}
