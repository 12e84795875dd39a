import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { readSafetensors, writeSafetensors, type SafeData } from '../../src/core/safetensors';

const FIX = resolve(import.meta.dirname, '../fixtures/compute');

function header(json: unknown, data = new Uint8Array(0), lenOverride?: bigint): Uint8Array {
  const h = new TextEncoder().encode(typeof json === 'string' ? json : JSON.stringify(json));
  const out = new Uint8Array(8 + h.length + data.length);
  new DataView(out.buffer).setBigUint64(0, lenOverride ?? BigInt(h.length), true);
  out.set(h, 8);
  out.set(data, 8 + h.length);
  return out;
}

describe('safetensors', () => {
  it('round-trips every dtype, shapes and metadata', () => {
    const t: Record<string, { shape: number[]; data: SafeData }> = {
      a: { shape: [2, 3], data: Float32Array.from([1.5, -2, 3e-8, Infinity, -0, 7]) },
      b: { shape: [3], data: Float64Array.from([Math.PI, -1e300, Number.MIN_VALUE]) },
      c: { shape: [1, 2, 2], data: Int32Array.from([-(2 ** 31), 2 ** 31 - 1, 0, 5]) },
      d: { shape: [2], data: BigInt64Array.from([-(2n ** 63n), 2n ** 63n - 1n]) },
      e: { shape: [5], data: Uint8Array.from([0, 1, 2, 254, 255]) },
      f: { shape: [0, 4], data: new Float32Array(0) },
    };
    const bytes = writeSafetensors(t, { hello: 'world' });
    const hl = Number(new DataView(bytes.buffer).getBigUint64(0, true));
    expect((8 + hl) % 8).toBe(0);
    const back = readSafetensors(bytes);
    expect(back.metadata).toEqual({ hello: 'world' });
    expect(Object.keys(back.tensors).sort()).toEqual(Object.keys(t).sort());
    for (const [k, v] of Object.entries(t)) {
      expect(back.tensors[k].shape).toEqual(v.shape);
      expect(back.tensors[k].data.constructor).toBe(v.data.constructor);
      expect(Array.from(back.tensors[k].data as ArrayLike<unknown>)).toEqual(Array.from(v.data as ArrayLike<unknown>));
    }
    expect(back.tensors.a.dtype).toBe('F32');
    expect(back.tensors.d.dtype).toBe('I64');
  });

  it('reads a file that numpy wrote by hand, with exact values', () => {
    const bytes = new Uint8Array(readFileSync(resolve(FIX, 'numpy.safetensors')));
    const ref = JSON.parse(readFileSync(resolve(FIX, 'safetensors_numpy.json'), 'utf8'));
    const f = readSafetensors(bytes);
    expect(f.metadata).toEqual(ref.metadata);
    for (const [k, v] of Object.entries(ref.tensors) as [string, { shape: number[]; values: (number | string)[] }][]) {
      const t = f.tensors[k];
      expect(t.shape).toEqual(v.shape);
      const got = Array.from(t.data as ArrayLike<number | bigint>, (x) => (typeof x === 'bigint' || t.dtype === 'I32' || t.dtype === 'U8' ? String(x) : x));
      expect(got).toEqual(v.values);
    }
    expect(f.tensors.f32.dtype).toBe('F32');
    expect(f.tensors.i64.dtype).toBe('I64');
    expect(f.tensors.u8.dtype).toBe('U8');
  });

  it('refuses corrupt or hostile input with clear messages', () => {
    const ok = { x: { dtype: 'F32', shape: [2], data_offsets: [0, 8] } };
    const d8 = new Uint8Array(8);
    expect(() => readSafetensors(new Uint8Array(3))).toThrow(/too short/);
    expect(() => readSafetensors(header(ok, d8, 10n ** 12n))).toThrow(/100 MB/);
    expect(() => readSafetensors(header(ok, d8, 5000n))).toThrow(/past the end/);
    expect(() => readSafetensors(header('{not json', d8))).toThrow(/JSON/);
    expect(() => readSafetensors(header([1, 2], d8))).toThrow(/JSON object/);
    expect(() => readSafetensors(header({ x: { dtype: 'BF16', shape: [2], data_offsets: [0, 4] } }, d8))).toThrow(/unknown or unsupported dtype/);
    expect(() => readSafetensors(header({ x: { dtype: 'F32', shape: [3], data_offsets: [0, 8] } }, d8))).toThrow(/needs 12 bytes/);
    expect(() => readSafetensors(header({ x: { dtype: 'F32', shape: [2], data_offsets: [4, 12] } }, d8))).toThrow(/past the data section/);
    expect(() => readSafetensors(header({ x: { dtype: 'F32', shape: [-2], data_offsets: [0, 8] } }, d8))).toThrow(/invalid shape/);
    expect(() => readSafetensors(header({ x: { dtype: 'F32', shape: [2], data_offsets: [8, 0] } }, d8))).toThrow(/end before begin/);
    expect(() => readSafetensors(header({ x: { dtype: 'F32', shape: [2], data_offsets: [0] } }, d8))).toThrow(/invalid data_offsets/);
    expect(() =>
      readSafetensors(header({ x: { dtype: 'F32', shape: [2], data_offsets: [0, 8] }, y: { dtype: 'F32', shape: [1], data_offsets: [4, 8] } }, d8)),
    ).toThrow(/overlapping/);
    expect(() => readSafetensors(header({ __metadata__: { a: 1 } }, d8))).toThrow(/not a string/);
    expect(() => writeSafetensors({ x: { shape: [3], data: new Float32Array(2) } })).toThrow(/does not match/);
    expect(() => readSafetensors(header('{"__proto__": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}', d8))).toThrow(/__proto__/);
    expect(() => readSafetensors(header('{"__metadata__": {"__proto__": "x"}}', d8))).toThrow(/__proto__/);
  });
});
