/**
 * The same runtime on onnxruntime-web's wasm backend, in Node (this file's process binds transformers.js to
 * onnxruntime-web; vitest runs each test file in its own worker, so the cpu tests are unaffected).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createNodeRuntime, nodeProcessBackend } from '../../src/runtime/node';
import type { ModelRuntime } from '../../src/runtime/runtime';
import type { HiddenStateCase, HiddenStateFixture } from '../../src/runtime/fixture';

type Case = HiddenStateCase;
const fixture = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../models/tiny-social/reference.json'), 'utf8')) as HiddenStateFixture;
const input = (c: Case) => (c.kind === 'chat' ? { messages: c.messages! } : { prompt: c.text });
const maxAbsDiff = (a: Float32Array, rows: number[][]) => rows.flat().reduce((m, v, i) => Math.max(m, Math.abs(a[i] - v)), 0);

describe('Node runtime on onnxruntime-web wasm', () => {
  let rt: ModelRuntime;
  beforeAll(async () => {
    rt = createNodeRuntime();
    const info = await rt.load('tiny-social', { device: 'wasm', dtype: 'fp32' });
    expect(info.backend).toBe('wasm');
    expect(nodeProcessBackend()).toBe('wasm');
  });
  afterAll(() => rt?.dispose());

  it('fp32: prefill states within 1e-5 of PyTorch and greedy tokens equal the fixture', async () => {
    for (const c of fixture.cases) {
      const r = await rt.generate({ ...input(c), maxNewTokens: c.greedy_continuation.length });
      expect(r.promptTokens).toEqual(c.input_ids);
      expect(maxAbsDiff(r.prefillStates!, c.hidden_last_token)).toBeLessThanOrEqual(fixture.tolerances.fp32.hidden_max_abs);
      expect(r.tokens).toEqual(c.greedy_continuation);
    }
  });

  it('seeded sampling reproduces on wasm', async () => {
    const opts = { prompt: fixture.cases[2].text, temperature: 1, maxNewTokens: 12, seed: 11 };
    expect((await rt.generate(opts)).tokens).toEqual((await rt.generate(opts)).tokens);
  });

  it('q4: prefill states within the fixture q4 tolerance', async () => {
    const q4 = createNodeRuntime();
    await q4.load('tiny-social', { device: 'wasm', dtype: 'q4' });
    let worst = 0;
    for (const c of fixture.cases)
      worst = Math.max(worst, maxAbsDiff((await q4.generate({ ...input(c), maxNewTokens: 1 })).prefillStates!, c.hidden_last_token));
    expect(worst).toBeLessThanOrEqual(fixture.tolerances.q4.hidden_max_abs);
    await q4.dispose();
  });

  it('refuses to mix backends in one process', async () => {
    await expect(createNodeRuntime().load('tiny-social', { device: 'cpu' })).rejects.toThrow(/separate process/);
  });
});

describe('tap patch on onnxruntime-web wasm (Optimum, fused, renamed fixture graphs)', () => {
  const dir = resolve(import.meta.dirname, '../fixtures/taps');
  const expected = JSON.parse(readFileSync(resolve(dir, 'expected.json'), 'utf8')) as {
    input_ids: number[][];
    num_layers: number;
    hidden_size: number;
    last_token_states: number[][][];
    tolerance: number;
  };
  for (const name of ['optimum', 'fused', 'fused_final_name', 'renamed', 'renamed_offset']) {
    it(`${name}: hidden_states_last matches numpy on wasm`, async () => {
      const ort = await import('onnxruntime-web');
      const { patchOnnx, TAP_OUTPUT } = await import('../../src/core/onnx/taps');
      const { bytes } = patchOnnx(new Uint8Array(readFileSync(resolve(dir, `${name}.onnx`))), { modelName: name });
      const session = await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'] });
      const [B, S] = [expected.input_ids.length, expected.input_ids[0].length];
      const out = await session.run({
        input_ids: new ort.Tensor('int64', BigInt64Array.from(expected.input_ids.flat().map(BigInt)), [B, S]),
        attention_mask: new ort.Tensor('int64', new BigInt64Array(B * S).fill(1n), [B, S]),
      });
      const t = out[TAP_OUTPUT];
      expect(t.dims).toEqual([expected.num_layers + 1, B, expected.hidden_size]);
      const flat = expected.last_token_states.flat(2);
      const got = t.data as Float32Array;
      expect(flat.reduce((m, v, i) => Math.max(m, Math.abs(got[i] - v)), 0)).toBeLessThanOrEqual(expected.tolerance);
      await session.release();
    });
  }
});
