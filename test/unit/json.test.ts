import { describe, expect, it } from 'vitest';
import { typedArraysAsLists } from '../../src/core/json';

describe('typedArraysAsLists', () => {
  it('writes typed arrays as lists and leaves everything else as JSON writes it', () => {
    const value = { a: Float64Array.from([0.5, -1]), b: { c: Int32Array.from([3]) }, d: [1, 'x'], e: new DataView(new ArrayBuffer(2)), f: null };
    const plain = JSON.parse(JSON.stringify(value, typedArraysAsLists));
    // The reference: the same object with plain arrays, written without a replacer.
    expect(plain).toEqual(JSON.parse(JSON.stringify({ a: [0.5, -1], b: { c: [3] }, d: [1, 'x'], e: {}, f: null })));
    expect(JSON.stringify(Float32Array.from([1, 2]))).toBe('{"0":1,"1":2}');
  });
});
