/**
 * Seeded PRNG (sfc32, seeded through splitmix32). Every random draw in src/core goes through one of these,
 * so that the same seed gives the same numbers in a page, a worker, Node and vitest.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Standard normal (Box–Muller, one cached spare). */
  normal(): number;
  /** Fisher–Yates shuffle in place; returns the same array. */
  shuffle<T>(arr: T[]): T[];
  /** Raw 32-bit unsigned output, for hot loops that want integer thresholds. */
  u32(): number;
  /** An independent child stream, so that sub-tasks do not depend on each other's draw counts. */
  fork(): Rng;
}

/** FNV-1a, so that string seeds ("run-42") are as good as numbers. */
export function hashSeed(seed: number | string): number {
  if (typeof seed === 'number') return seed >>> 0;
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    h ^= seed.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function splitmix32(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function createRng(seed: number | string = 0): Rng {
  const sm = splitmix32(hashSeed(seed));
  let a = sm();
  let b = sm();
  let c = sm();
  let d = sm();
  let spare: number | null = null;

  const u32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  // Warm-up: sfc32's first outputs are correlated with the seed words.
  for (let i = 0; i < 12; i++) u32();

  const next = (): number => u32() / 4294967296;

  const rng: Rng = {
    next,
    u32,
    int(n: number): number {
      return Math.floor(next() * n);
    },
    normal(): number {
      if (spare !== null) {
        const v = spare;
        spare = null;
        return v;
      }
      let u = next();
      while (u === 0) u = next();
      const v = next();
      const r = Math.sqrt(-2 * Math.log(u));
      spare = r * Math.sin(2 * Math.PI * v);
      return r * Math.cos(2 * Math.PI * v);
    },
    shuffle<T>(arr: T[]): T[] {
      for (let i = arr.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        const tmp = arr[i];
        arr[i] = arr[j];
        arr[j] = tmp;
      }
      return arr;
    },
    fork(): Rng {
      return createRng(u32());
    },
  };
  return rng;
}
