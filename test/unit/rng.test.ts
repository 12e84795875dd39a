import { describe, expect, it } from 'vitest';
import { createRng, hashSeed } from '../../src/core/rng';

describe('seeded rng', () => {
  it('same seed, same stream; different seeds, different streams; string seeds hash', () => {
    const a = createRng(42);
    const b = createRng(42);
    const c = createRng(43);
    const xa = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(xa);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(xa);
    expect(hashSeed('run-1')).not.toBe(hashSeed('run-2'));
    expect(createRng('x').next()).toBe(createRng('x').next());
  });

  it('next ∈ [0,1) with mean ½; int(n) uniform; normal has mean 0, variance 1', () => {
    const r = createRng(7);
    const M = 200_000;
    let s = 0;
    let lo = 1;
    let hi = 0;
    for (let k = 0; k < M; k++) {
      const v = r.next();
      s += v;
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
    expect(lo).toBeGreaterThanOrEqual(0);
    expect(hi).toBeLessThan(1);
    expect(Math.abs(s / M - 0.5)).toBeLessThan(0.005);
    const counts = new Array(6).fill(0);
    for (let k = 0; k < 60_000; k++) counts[r.int(6)]++;
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(400);
    let m = 0;
    let v = 0;
    for (let k = 0; k < M; k++) {
      const z = r.normal();
      m += z;
      v += z * z;
    }
    expect(Math.abs(m / M)).toBeLessThan(0.01);
    expect(Math.abs(v / M - 1)).toBeLessThan(0.02);
  });

  it('shuffle is a permutation and is seeded; fork gives an independent stream', () => {
    const arr = Array.from({ length: 50 }, (_, i) => i);
    const s1 = createRng(3).shuffle(arr.slice());
    expect([...s1].sort((a, b) => a - b)).toEqual(arr);
    expect(s1).not.toEqual(arr);
    expect(createRng(3).shuffle(arr.slice())).toEqual(s1);
    const r = createRng(9);
    const f = r.fork();
    expect(f.next()).not.toBe(r.next());
    expect(r.u32()).toBeGreaterThanOrEqual(0);
  });
});
