/**
 * C = A·Bᵀ (rows dot rows) in WebAssembly SIMD (f64x2), for the Gram and cross products that dominate the ridge
 * and CKA grids. Plain JS tops out near one multiply-add per cycle because V8 does not vectorise; two-lane f64
 * SIMD roughly doubles that. The module is assembled here from a few dozen opcodes (no toolchain, no binary blob),
 * and every caller falls back to the JS kernel when WebAssembly SIMD is unavailable.
 *
 * Kernel: a TILE_ROWS×4 tile of C with f64x2 accumulators, streaming k two lanes at a time. Inputs are copied
 * into the module's memory padded to m a multiple of TILE_ROWS, n a multiple of 4 and k even (zero padding does not
 * change the sums). Up to ~5 GMAC/s on one core of this machine when it is idle (the JS tile: ~1.8).
 */

const enum Op {
  block = 0x02,
  loop = 0x03,
  br = 0x0c,
  brIf = 0x0d,
  end = 0x0b,
  get = 0x20,
  set = 0x21,
  i32const = 0x41,
  i32ge = 0x4e,
  i32add = 0x6a,
  i32mul = 0x6c,
  i32and = 0x71,
  f64add = 0xa0,
  f64store = 0x39,
  select = 0x1b,
  simd = 0xfd,
}

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

/**
 * f64x2.relaxed_madd (a·b + c), from WebAssembly's relaxed SIMD: one fused multiply-add where the plain module needs
 * a multiply and an add. Fused, each product is added unrounded, so the sums differ from the plain module's in the
 * last bits (both are within 1e-15 relative of numpy's); a runtime runs one module everywhere (its workers too), so
 * its numbers do not depend on the number of workers. 1.3× faster on this machine's Gram products (bench "Gram
 * products"), whose loads rather than arithmetic then bound the tile.
 */
const RELAXED_MADD = 0x107;

/** Rows of C per tile (2 × 4 tile: 8 accumulators). A 3 × 4 tile (16 live registers) measured no faster; 1 × 4 was ~2× slower. */
const TILE_ROWS = 2;
/** Columns of C per cache panel: that many rows of B stay in L2 while every row pair of A streams past them. */
const PANEL = 64;

// Parameters: 0 a, 1 b, 2 c (byte offsets), 3 m, 4 n, 5 kb (row stride in bytes), 6 sym.
// i32 locals: i, j, p, a[0..R), b[0..4), crow; v128 locals: va[0..R), vb, acc[r*4 + q].
function body(R: number, fma: boolean): number[] {
  const P = { a: 0, b: 1, c: 2, m: 3, n: 4, kb: 5, sym: 6 };
  const iI = 7,
    iJ = 8,
    iP = 9,
    iA = 10,
    iB = 10 + R,
    iCrow = 14 + R,
    iJB = 15 + R,
    iJEnd = 16 + R;
  const nI32 = 10 + R;
  const vA = 7 + nI32,
    vB = vA + R,
    vAcc = vB + 1;
  const nV = R + 1 + 4 * R;
  const c: number[] = [];
  const get = (x: number) => c.push(Op.get, ...uleb(x));
  const set = (x: number) => c.push(Op.set, ...uleb(x));
  const i32 = (x: number) => c.push(Op.i32const, ...sleb(x));
  const simd = (op: number, ...imm: number[]) => c.push(Op.simd, ...uleb(op), ...imm);
  const v128load = () => simd(0x00, 4, 0);
  const zero = () => simd(0x0c, ...new Array(16).fill(0));

  // for jb over panels of PANEL columns: jEnd = min(jb + PANEL, n)
  i32(0);
  set(iJB);
  c.push(Op.block, 0x40, Op.loop, 0x40);
  get(iJB);
  get(P.n);
  c.push(Op.i32ge, Op.brIf, 1);
  get(iJB);
  i32(PANEL);
  c.push(Op.i32add);
  get(P.n);
  get(iJB);
  i32(PANEL);
  c.push(Op.i32add);
  get(P.n);
  c.push(0x48 /* i32.lt_s */, Op.select);
  set(iJEnd);
  i32(0);
  set(iI);
  c.push(Op.block, 0x40, Op.loop, 0x40);
  get(iI);
  get(P.m);
  c.push(Op.i32ge, Op.brIf, 1);
  get(P.a);
  get(iI);
  get(P.kb);
  c.push(Op.i32mul, Op.i32add);
  set(iA);
  for (let r = 1; r < R; r++) {
    get(iA + r - 1);
    get(P.kb);
    c.push(Op.i32add);
    set(iA + r);
  }
  // j = max(sym ? i & ~3 : 0, jb)
  get(iI);
  i32(-4);
  c.push(Op.i32and);
  i32(0);
  get(P.sym);
  c.push(Op.select);
  set(iJ);
  get(iJ);
  get(iJB);
  get(iJ);
  get(iJB);
  c.push(0x4a /* i32.gt_s */, Op.select);
  set(iJ);
  c.push(Op.block, 0x40, Op.loop, 0x40);
  get(iJ);
  get(iJEnd);
  c.push(Op.i32ge, Op.brIf, 1);
  get(P.b);
  get(iJ);
  get(P.kb);
  c.push(Op.i32mul, Op.i32add);
  set(iB);
  for (let q = 1; q < 4; q++) {
    get(iB + q - 1);
    get(P.kb);
    c.push(Op.i32add);
    set(iB + q);
  }
  for (let t = 0; t < 4 * R; t++) {
    zero();
    set(vAcc + t);
  }
  i32(0);
  set(iP);
  c.push(Op.block, 0x40, Op.loop, 0x40);
  get(iP);
  get(P.kb);
  c.push(Op.i32ge, Op.brIf, 1);
  for (let r = 0; r < R; r++) {
    get(iA + r);
    get(iP);
    c.push(Op.i32add);
    v128load();
    set(vA + r);
  }
  for (let q = 0; q < 4; q++) {
    get(iB + q);
    get(iP);
    c.push(Op.i32add);
    v128load();
    set(vB);
    for (let r = 0; r < R; r++) {
      const acc = vAcc + 4 * r + q;
      if (fma) {
        get(vA + r);
        get(vB);
        get(acc);
        simd(RELAXED_MADD);
      } else {
        get(acc);
        get(vA + r);
        get(vB);
        simd(0xf2);
        simd(0xf0);
      }
      set(acc);
    }
  }
  get(iP);
  i32(16);
  c.push(Op.i32add);
  set(iP);
  c.push(Op.br, 0, Op.end, Op.end);
  for (let r = 0; r < R; r++) {
    // crow = c + ((i + r)·n + j)·8
    get(P.c);
    get(iI);
    i32(r);
    c.push(Op.i32add);
    get(P.n);
    c.push(Op.i32mul);
    get(iJ);
    c.push(Op.i32add);
    i32(8);
    c.push(Op.i32mul, Op.i32add);
    set(iCrow);
    for (let q = 0; q < 4; q++) {
      get(iCrow);
      get(vAcc + 4 * r + q);
      simd(0x21, 0);
      get(vAcc + 4 * r + q);
      simd(0x21, 1);
      c.push(Op.f64add, Op.f64store, 3, ...uleb(8 * q));
    }
  }
  get(iJ);
  i32(4);
  c.push(Op.i32add);
  set(iJ);
  c.push(Op.br, 0, Op.end, Op.end);
  get(iI);
  i32(R);
  c.push(Op.i32add);
  set(iI);
  c.push(Op.br, 0, Op.end, Op.end);
  get(iJB);
  i32(PANEL);
  c.push(Op.i32add);
  set(iJB);
  c.push(Op.br, 0, Op.end, Op.end);
  c.push(Op.end);
  const fn = [
    ...vec([
      [...uleb(nI32), 0x7f],
      [...uleb(nV), 0x7b],
    ]),
    ...c,
  ];
  return [...uleb(fn.length), ...fn];
}

// gemv: params 0 a, 1 x, 2 out (byte offsets), 3 rows, 4 kb (row stride in bytes, a multiple of 32);
// i32 locals 5 i, 6 p, 7 arow; v128 locals 8 acc0, 9 acc1, 10 sum.
function gemvBody(fma: boolean): number[] {
  const c: number[] = [];
  const get = (x: number) => c.push(Op.get, ...uleb(x));
  const set = (x: number) => c.push(Op.set, ...uleb(x));
  const i32 = (x: number) => c.push(Op.i32const, ...sleb(x));
  const simd = (op: number, ...imm: number[]) => c.push(Op.simd, ...uleb(op), ...imm);
  const load = (offset: number) => simd(0x00, 4, ...uleb(offset));
  i32(0);
  set(5);
  c.push(Op.block, 0x40, Op.loop, 0x40);
  get(5);
  get(3);
  c.push(Op.i32ge, Op.brIf, 1);
  get(0);
  get(5);
  get(4);
  c.push(Op.i32mul, Op.i32add);
  set(7);
  simd(0x0c, ...new Array(16).fill(0));
  set(8);
  simd(0x0c, ...new Array(16).fill(0));
  set(9);
  i32(0);
  set(6);
  c.push(Op.block, 0x40, Op.loop, 0x40);
  get(6);
  get(4);
  c.push(Op.i32ge, Op.brIf, 1);
  for (const [acc, off] of [
    [8, 0],
    [9, 16],
  ]) {
    if (!fma) get(acc);
    get(7);
    get(6);
    c.push(Op.i32add);
    load(off);
    get(1);
    get(6);
    c.push(Op.i32add);
    load(off);
    if (fma) {
      get(acc);
      simd(RELAXED_MADD);
    } else {
      simd(0xf2);
      simd(0xf0);
    }
    set(acc);
  }
  get(6);
  i32(32);
  c.push(Op.i32add);
  set(6);
  c.push(Op.br, 0, Op.end, Op.end);
  get(8);
  get(9);
  simd(0xf0);
  set(10);
  get(2);
  get(5);
  i32(8);
  c.push(Op.i32mul, Op.i32add);
  get(10);
  simd(0x21, 0);
  get(10);
  simd(0x21, 1);
  c.push(Op.f64add, Op.f64store, 3, 0);
  get(5);
  i32(1);
  c.push(Op.i32add);
  set(5);
  c.push(Op.br, 0, Op.end, Op.end);
  c.push(Op.end);
  const fn = [
    ...vec([
      [...uleb(3), 0x7f],
      [...uleb(3), 0x7b],
    ]),
    ...c,
  ];
  return [...uleb(fn.length), ...fn];
}

/** The whole module is ~0.9 KB, under Chrome's 4 KB limit for synchronous compilation on a page's main thread. */
function moduleBytes(fma: boolean): Uint8Array<ArrayBuffer> {
  const I32 = 0x7f;
  const type = section(
    1,
    vec([
      [0x60, ...vec(new Array(7).fill([I32])), 0x00],
      [0x60, ...vec(new Array(5).fill([I32])), 0x00],
    ]),
  );
  const str = (t: string) => [t.length, ...[...t].map((ch) => ch.charCodeAt(0))];
  // import "env" "mem": a memory (kind 2) with flags 0 (no maximum) and a minimum of 1 page
  const imp = section(2, vec([[...str('env'), ...str('mem'), 0x02, 0x00, 0x01]]));
  const func = section(3, vec([[0], [1]]));
  const exp = section(
    7,
    vec([
      [...str('gemmNT'), 0x00, 0],
      [...str('gemv'), 0x00, 1],
    ]),
  );
  const code = section(10, vec([body(TILE_ROWS, fma), gemvBody(fma)]));
  return new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, ...type, ...imp, ...func, ...exp, ...code]);
}

interface Kernel {
  fma: boolean;
  memory: WebAssembly.Memory;
  run: (a: number, b: number, c: number, m: number, n: number, kb: number, sym: number) => void;
  gemv: (a: number, x: number, out: number, rows: number, kb: number) => void;
}

let kernel: Kernel | null | undefined;

/** Whether this runtime validates the fused module now (cli/wasm-features.ts asks before it turns relaxed SIMD on). */
export function relaxedSimdValidates(): boolean {
  try {
    return typeof WebAssembly !== 'undefined' && WebAssembly.validate(moduleBytes(true));
  } catch {
    return false;
  }
}

/** Which module this runtime takes: the fused one where relaxed SIMD validates, decided once per thread. */
let fmaSupported: boolean | undefined;
function useFma(): boolean {
  return (fmaSupported ??= relaxedSimdValidates());
}

/**
 * A fresh instance with its own memory (each instance's memory is private to its callers). `fma` picks the module:
 * by default the fused one where this runtime has relaxed SIMD (tests ask for each explicitly).
 */
function instantiate(fma = useFma()): Kernel | null {
  try {
    if (typeof WebAssembly === 'undefined') return null;
    const bytes = moduleBytes(fma);
    if (!WebAssembly.validate(bytes)) return null;
    const memory = new WebAssembly.Memory({ initial: 16 });
    const inst = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { mem: memory } });
    return { fma, memory, run: inst.exports.gemmNT as Kernel['run'], gemv: inst.exports.gemv as Kernel['gemv'] };
  } catch {
    return null;
  }
}

function getKernel(): Kernel | null {
  if (kernel === undefined) kernel = instantiate();
  return kernel;
}

/**
 * Rows kept resident in their own wasm memory, dotted with one vector at a time: out[i] = ⟨row_i, x⟩.
 * The ridge grid keeps each source layer's operator here and dots it with each target layer's Gram, which would
 * otherwise be the largest plain-JS loop left. Falls back to JS when wasm SIMD is unavailable.
 */
export class ResidentRows {
  private readonly k: Kernel | null;
  private readonly stride: number; // doubles per row, a multiple of 4
  private readonly rowsJs: Float64Array[] = [];
  constructor(
    readonly rows: number,
    readonly cols: number,
    useWasm = true,
  ) {
    this.stride = cols + ((4 - (cols % 4)) % 4);
    const bytes = (rows + 1) * this.stride * 8 + rows * 8;
    let k = useWasm && bytes < 2 ** 31 - 2 ** 20 ? instantiate(getKernel()?.fma ?? useFma()) : null;
    if (k) {
      try {
        const have = k.memory.buffer.byteLength;
        if (bytes > have) k.memory.grow(Math.ceil((bytes - have) / 65536));
      } catch {
        k = null; // the host refused the memory: keep the rows in JS instead
      }
    }
    this.k = k;
  }
  /** Row i is the concatenation of `parts` (their lengths must add up to cols). */
  setRow(i: number, parts: Float64Array[]): void {
    if (!this.k) {
      const row = new Float64Array(this.cols);
      let o = 0;
      for (const p of parts) {
        row.set(p, o);
        o += p.length;
      }
      this.rowsJs[i] = row;
      return;
    }
    let o = i * this.stride * 8;
    const buf = this.k.memory.buffer;
    for (const p of parts) {
      new Float64Array(buf, o, p.length).set(p);
      o += p.length * 8;
    }
    new Float64Array(buf, o, this.stride - this.cols).fill(0);
  }
  /** ⟨row_i, x⟩ for the first `count` rows, x given as concatenated parts. */
  dotAll(parts: Float64Array[], count = this.rows): Float64Array {
    const out = new Float64Array(count);
    if (!this.k) {
      for (let i = 0; i < count; i++) {
        let o = 0;
        let s = 0;
        const row = this.rowsJs[i];
        for (const p of parts) {
          for (let j = 0; j < p.length; j++) s += row[o + j] * p[j];
          o += p.length;
        }
        out[i] = s;
      }
      return out;
    }
    const xOff = this.rows * this.stride * 8;
    const buf = this.k.memory.buffer;
    let o = xOff;
    for (const p of parts) {
      new Float64Array(buf, o, p.length).set(p);
      o += p.length * 8;
    }
    new Float64Array(buf, o, this.stride - this.cols).fill(0);
    const outOff = xOff + this.stride * 8;
    this.k.gemv(0, xOff, outOff, count, this.stride * 8);
    out.set(new Float64Array(buf, outOff, count));
    return out;
  }
}

/** Whether the SIMD kernel is available here (it is in Node ≥ 16 and current browsers). */
export function simdAvailable(): boolean {
  return getKernel() !== null;
}

/** The kernel this thread runs: 'fma' (relaxed SIMD's fused multiply-add), 'simd' (f64x2 mul + add) or 'js'. */
export function gemmKernelKind(): 'fma' | 'simd' | 'js' {
  const k = getKernel();
  return k ? (k.fma ? 'fma' : 'simd') : 'js';
}

/** Whether this runtime has the fused kernel (WebAssembly relaxed SIMD). */
export function fmaAvailable(): boolean {
  return useFma();
}

/**
 * Runs `f` with the given kernel as this thread's kernel, then restores the default one: for the tests, which check
 * each kernel against the other and against numpy in the same process.
 */
export function withGemmKernel<T>(fma: boolean, f: () => T): T {
  const saved = kernel;
  const k = instantiate(fma);
  if (!k) throw new Error(`the ${fma ? 'fused (relaxed SIMD)' : 'plain SIMD'} kernel is not available here`);
  kernel = k;
  try {
    return f();
  } finally {
    kernel = saved;
  }
}

/**
 * C (m×n) = A (m×k) · B (n×k)ᵀ with the SIMD kernel, or null when it is unavailable or the operands would not fit
 * in 2 GiB of wasm memory. With `symmetric`, only tiles with j ≥ i are computed; the lower triangle is then mirrored
 * unless `mirror` is false (callers that read only the upper triangle skip that strided pass).
 */
export function gemmNTSimd(
  A: Float64Array,
  B: Float64Array | null,
  m: number,
  n: number,
  k: number,
  C: Float64Array,
  symmetric: boolean,
  mirror = true,
): Float64Array | null {
  const K = getKernel();
  if (!K) return null;
  const kp = k + (k & 1);
  const mp = Math.ceil(m / TILE_ROWS) * TILE_ROWS;
  const np = n + ((4 - (n % 4)) % 4);
  const same = B === null || B === A;
  const rowsB = same ? Math.max(mp, np) : np;
  const aBytes = (same ? rowsB : mp) * kp * 8;
  const bBytes = same ? 0 : np * kp * 8;
  const cBytes = mp * np * 8;
  const need = aBytes + bBytes + cBytes;
  if (need > 2 ** 31 - 2 ** 20) return null;
  const have = K.memory.buffer.byteLength;
  if (need > have) {
    try {
      K.memory.grow(Math.ceil((need - have) / 65536));
    } catch {
      return null; // the host refused more memory: the caller uses the JS kernel
    }
  }
  const buf = K.memory.buffer;
  const a = new Float64Array(buf, 0, aBytes / 8);
  const pack = (dst: Float64Array, src: Float64Array, rows: number, padRows: number) => {
    if (kp === k) dst.set(src.subarray(0, rows * k));
    else
      for (let r = 0; r < rows; r++) {
        dst.set(src.subarray(r * k, r * k + k), r * kp);
        dst[r * kp + k] = 0;
      }
    dst.fill(0, rows * kp, padRows * kp);
  };
  pack(a, A, m, same ? rowsB : mp);
  const bOff = same ? 0 : aBytes;
  if (!same) pack(new Float64Array(buf, aBytes, bBytes / 8), B!, n, np);
  const cOff = aBytes + bBytes;
  K.run(0, bOff, cOff, mp, np, kp * 8, symmetric ? 1 : 0);
  const c = new Float64Array(buf, cOff, mp * np);
  for (let i = 0; i < m; i++) C.set(c.subarray(i * np, i * np + n), i * n);
  if (symmetric && mirror) mirrorUpper(C, n);
  return C;
}

/** Copies the upper triangle of the square n×n matrix C onto its lower triangle, in cache-sized blocks. */
export function mirrorUpper(C: Float64Array, n: number): void {
  const T = 32;
  for (let i0 = 0; i0 < n; i0 += T) {
    const i1 = Math.min(n, i0 + T);
    for (let j0 = 0; j0 <= i0; j0 += T) {
      const j1 = Math.min(n, j0 + T);
      for (let i = i0; i < i1; i++) {
        const jEnd = Math.min(j1, i);
        for (let j = j0; j < jEnd; j++) C[i * n + j] = C[j * n + i];
      }
    }
  }
}
