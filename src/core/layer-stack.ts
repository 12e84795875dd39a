/** Per-layer states of many samples, the common input of the ridge grid and CKA. */

/** Per-sample layer states, row-major [n, L, H] (float32 from a model or float64). */
export interface LayerStack {
  data: Float32Array | Float64Array;
  n: number;
  L: number;
  H: number;
}

/** Throws unless the data length matches [n, L, H] and every value is finite (naming the first bad one). */
export function checkStack(s: LayerStack, what: string): void {
  if (!(s.n >= 0 && s.L >= 1 && s.H >= 1) || s.data.length !== s.n * s.L * s.H) {
    throw new Error(`${what}: data length ${s.data.length} does not match [n=${s.n}, L=${s.L}, H=${s.H}]`);
  }
  const d = s.data;
  for (let i = 0; i < d.length; i++) {
    if (!Number.isFinite(d[i])) {
      const h = i % s.H;
      const l = Math.floor(i / s.H) % s.L;
      throw new Error(`${what}: non-finite value ${d[i]} at sample ${Math.floor(i / (s.H * s.L))}, layer ${l}, unit ${h}`);
    }
  }
}
