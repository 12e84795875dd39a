import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as ort from 'onnxruntime-node';
import { Reader, Writer, ProtobufError } from '../../src/core/onnx/protobuf';
import { readOnnxTopology, OnnxFormatError } from '../../src/core/onnx/model';
import { detectTaps, patchOnnx, isTapped, TapDetectionError, TAP_OUTPUT } from '../../src/core/onnx/taps';

const dir = resolve(import.meta.dirname, '../fixtures/taps');
const expected = JSON.parse(readFileSync(resolve(dir, 'expected.json'), 'utf8')) as {
  input_ids: number[][];
  num_layers: number;
  hidden_size: number;
  last_token_states: number[][][];
  last_token_logits: number[][];
  tolerance: number;
};
const load = (name: string) => new Uint8Array(readFileSync(resolve(dir, `${name}.onnx`)));

async function run(bytes: Uint8Array) {
  const session = await ort.InferenceSession.create(bytes);
  const [B, S] = [expected.input_ids.length, expected.input_ids[0].length];
  const ids = new ort.Tensor('int64', BigInt64Array.from(expected.input_ids.flat().map(BigInt)), [B, S]);
  const mask = new ort.Tensor('int64', new BigInt64Array(B * S).fill(1n), [B, S]);
  const out = await session.run({ input_ids: ids, attention_mask: mask });
  await session.release();
  return out;
}

function maxAbsDiff(a: ArrayLike<number>, b: number[]): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < b.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

describe('protobuf reader/writer', () => {
  it('round-trips varints, strings and nested messages', () => {
    const values = [0, 1, 127, 128, 300, 2 ** 31, 2 ** 40 + 5];
    const inner = new Writer().string(1, 'héllo');
    const w = new Writer();
    for (const v of values) w.varint(3, v);
    w.message(4, inner);
    const r = new Reader(w.finish());
    const got: number[] = [];
    let text = '';
    while (!r.done()) {
      const [f, wire] = r.key();
      if (f === 3) got.push(r.varint());
      else if (f === 4 && wire === 2) {
        const sub = r.sub(r.lenRange());
        sub.key();
        text = sub.string();
      }
    }
    expect(got).toEqual(values);
    expect(text).toBe('héllo');
  });

  it('encodes negative int64 varints in ten bytes', () => {
    const bytes = new Writer().varint(1, -1).finish();
    expect(bytes.length).toBe(11);
    expect(Array.from(bytes.slice(1))).toEqual([255, 255, 255, 255, 255, 255, 255, 255, 255, 1]);
  });

  it('refuses a length that runs past the message', () => {
    const r = new Reader(Uint8Array.from([0x0a, 0x05, 0x41]));
    r.key();
    expect(() => r.lenRange()).toThrow(ProtobufError);
  });
});

describe('ONNX topology reader', () => {
  it('reads nodes, outputs, opsets and initializer names/shapes without the weights', () => {
    const topo = readOnnxTopology(load('optimum'));
    expect(topo.opsets['']).toBe(14);
    expect(topo.appended).toHaveLength(0);
    expect(topo.graph.outputs.map((o) => o.name)).toEqual(['logits']);
    expect(topo.graph.outputs[0].elemType).toBe(1);
    expect(topo.graph.outputs[0].dims).toEqual(['batch_size', 'sequence_length', 32]);
    expect(topo.graph.inputs.map((o) => o.name)).toEqual(['input_ids', 'attention_mask']);
    expect(topo.graph.initializers.get('model.norm.weight')?.dims).toEqual([expected.hidden_size]);
    expect(topo.graph.initializers.get('model.embed_tokens.weight')?.dims).toEqual([32, expected.hidden_size]);
    const add1 = topo.graph.nodes.find((n) => n.name === '/model/layers.1/Add_1');
    expect(add1?.opType).toBe('Add');
    expect(add1?.outputs).toEqual(['/model/layers.1/Add_1_output_0']);
    const fused = readOnnxTopology(load('fused'));
    expect(fused.opsets['com.microsoft']).toBe(1);
    expect(fused.graph.nodes.find((n) => n.opType === 'SkipSimplifiedLayerNormalization')?.domain).toBe('com.microsoft');
  });

  it('refuses bytes that are not ONNX (a 404 page, random bytes, a truncated file)', () => {
    expect(() => readOnnxTopology(new TextEncoder().encode('<!DOCTYPE html><title>404</title>'))).toThrow(OnnxFormatError);
    const junk = new Uint8Array(256).map((_, i) => (i * 131 + 7) & 255);
    expect(() => readOnnxTopology(junk)).toThrow(OnnxFormatError);
    const whole = load('optimum');
    expect(() => readOnnxTopology(whole.slice(0, whole.length - 100))).toThrow(OnnxFormatError);
  });
});

describe('tap detection', () => {
  it('finds Optimum-named residuals', () => {
    const plan = detectTaps(readOnnxTopology(load('optimum')), { modelName: 'optimum' });
    expect(plan.numLayers).toBe(expected.num_layers);
    expect(plan.hiddenSize).toBe(expected.hidden_size);
    expect(plan.styles).toEqual(['optimum']);
    expect(plan.sources.map((s) => s.tensor)).toEqual([
      '/model/embed_tokens/Gather_output_0',
      '/model/layers.0/Add_1_output_0',
      '/model/layers.1/Add_1_output_0',
      '/model/layers.2/Add_1_output_0',
    ]);
  });

  it('finds fused residuals as output 3 of the next skip norm, and an Add for the last layer', () => {
    const plan = detectTaps(readOnnxTopology(load('fused')), { modelName: 'fused' });
    expect(plan.styles).toEqual(['fused']);
    expect(plan.sources[0].tensor).toBe('/model/embed_tokens/Gather/output_0');
    expect(plan.sources[1].tensor).toBe('/model/layers.1/input_layernorm/output_3');
    expect(plan.sources[2].tensor).toBe('/model/layers.2/input_layernorm/output_3');
    expect(plan.sources[3].tensor).toBeUndefined();
    expect(plan.sources[3].sum).toEqual(['/model/layers.2/mlp/down_proj/MatMul/output_0', '/model/layers.2/post_attention_layernorm/output_3']);
  });

  it('finds the builder final norm under its node-derived weight name, and counts layers without it', () => {
    const plan = detectTaps(readOnnxTopology(load('fused_final_name')), { modelName: 'fused_final_name' });
    expect(plan.numLayers).toBe(expected.num_layers);
    expect(plan.hiddenSize).toBe(expected.hidden_size);
    expect(plan.styles).toEqual(['fused']);
    expect(plan.sources[3].sum).toHaveLength(2);
  });

  it('anchors on norm weights when nodes were renamed', () => {
    const plan = detectTaps(readOnnxTopology(load('renamed')), { modelName: 'renamed' });
    expect(plan.styles).toEqual(['anchor']);
    expect(plan.sources).toHaveLength(expected.num_layers + 1);
    for (const s of plan.sources) expect(s.tensor).toMatch(/^t\d+$/);
  });

  it('anchors through a weight transform (Gemma-style 1 + w norms)', () => {
    const plan = detectTaps(readOnnxTopology(load('renamed_offset')), { modelName: 'renamed_offset' });
    expect(plan.styles).toEqual(['anchor']);
    expect(plan.sources).toHaveLength(expected.num_layers + 1);
  });

  it('names the model when the residual stream cannot be found (hybrid layout)', () => {
    const topo = readOnnxTopology(load('hybrid'));
    expect(() => detectTaps(topo, { modelName: 'LiquidAI/LFM2-350M' })).toThrow(TapDetectionError);
    expect(() => detectTaps(topo, { modelName: 'LiquidAI/LFM2-350M' })).toThrow(/LiquidAI\/LFM2-350M.*not supported/s);
  });

  it('checks the layer count it is given', () => {
    expect(() => detectTaps(readOnnxTopology(load('optimum')), { modelName: 'x', numLayers: 5 })).toThrow(/after layer 3 of 5/);
  });
});

describe('tap patch', () => {
  for (const name of ['optimum', 'fused', 'fused_final_name', 'renamed', 'renamed_offset']) {
    it(`${name}: hidden_states_last matches the numpy states, logits unchanged`, async () => {
      const original = load(name);
      const { bytes, plan, alreadyPatched } = patchOnnx(original, { modelName: name });
      expect(alreadyPatched).toBe(false);
      expect(plan?.numLayers).toBe(3);
      // the patch only appends
      expect(bytes.subarray(0, original.length)).toEqual(original);
      const out = await run(bytes);
      const states = out[TAP_OUTPUT];
      expect(states.type).toBe('float32');
      expect(states.dims).toEqual([expected.num_layers + 1, 2, expected.hidden_size]);
      expect(maxAbsDiff(states.data as Float32Array, expected.last_token_states.flat(2))).toBeLessThanOrEqual(expected.tolerance);
      const logits = out.logits.data as Float32Array;
      const V = expected.last_token_logits[0].length;
      const S = expected.input_ids[0].length;
      const last = [0, 1].flatMap((b) => Array.from(logits.subarray((b * S + S - 1) * V, (b * S + S) * V)));
      expect(maxAbsDiff(last, expected.last_token_logits.flat())).toBeLessThanOrEqual(1e-4);
    });
  }

  it('is idempotent: patching twice returns the same bytes and ORT still loads them', async () => {
    const once = patchOnnx(load('fused'), { modelName: 'fused' }).bytes;
    const twice = patchOnnx(once, { modelName: 'fused' });
    expect(twice.alreadyPatched).toBe(true);
    expect(twice.bytes).toBe(once);
    const topo = readOnnxTopology(once);
    expect(isTapped(topo)).toBe(true);
    expect(topo.appended).toHaveLength(1);
    expect(topo.appended[0].outputs.map((o) => o.name)).toEqual([TAP_OUTPUT]);
    const out = await run(twice.bytes);
    expect(out[TAP_OUTPUT].dims).toEqual([4, 2, expected.hidden_size]);
  });

  it('gathers the last position: one row, and a one-token (decode-shaped) call', async () => {
    const { bytes } = patchOnnx(load('optimum'), { modelName: 'optimum' });
    const session = await ort.InferenceSession.create(bytes);
    const H = expected.hidden_size;
    const call = async (ids: number[]) => {
      const t = new ort.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, ids.length]);
      const m = new ort.Tensor('int64', new BigInt64Array(ids.length).fill(1n), [1, ids.length]);
      return (await session.run({ input_ids: t, attention_mask: m }))[TAP_OUTPUT];
    };
    const row1 = await call(expected.input_ids[1]);
    expect(row1.dims).toEqual([4, 1, H]);
    expect(maxAbsDiff(row1.data as Float32Array, expected.last_token_states.map((l) => l[1]).flat())).toBeLessThanOrEqual(expected.tolerance);
    // the embedding (state 0) of the last token does not depend on the context: a single token 12 gives row 0's
    const one = await call([expected.input_ids[0][4]]);
    expect(maxAbsDiff((one.data as Float32Array).subarray(0, H), expected.last_token_states[0][0])).toBe(0);
    await session.release();
  });
});
