/**
 * A reader for NumPy's .npy format (versions 1–3), for hidden states recorded elsewhere. The input is treated as
 * hostile: the magic, the header's size and every field of its dict are checked, and the data must be exactly
 * shape × item size bytes. Only C order; float32/64, int8/16/32/64, uint8/16/32 and bool; either byte order.
 */

export type NpyData = Float32Array | Float64Array | Int32Array | Uint8Array | Int8Array | Int16Array | Uint16Array | Uint32Array | BigInt64Array;

export interface NpyArray {
  /** NumPy's descr without the byte-order mark, e.g. "f4". */
  dtype: string;
  shape: number[];
  data: NpyData;
}

export const MAX_NPY_HEADER = 1 << 20;

const KINDS: Record<string, { size: number; make: (n: number) => NpyData; get: (dv: DataView, o: number, le: boolean) => number | bigint }> = {
  f4: { size: 4, make: (n) => new Float32Array(n), get: (dv, o, le) => dv.getFloat32(o, le) },
  f8: { size: 8, make: (n) => new Float64Array(n), get: (dv, o, le) => dv.getFloat64(o, le) },
  i1: { size: 1, make: (n) => new Int8Array(n), get: (dv, o) => dv.getInt8(o) },
  i2: { size: 2, make: (n) => new Int16Array(n), get: (dv, o, le) => dv.getInt16(o, le) },
  i4: { size: 4, make: (n) => new Int32Array(n), get: (dv, o, le) => dv.getInt32(o, le) },
  i8: { size: 8, make: (n) => new BigInt64Array(n), get: (dv, o, le) => dv.getBigInt64(o, le) },
  u1: { size: 1, make: (n) => new Uint8Array(n), get: (dv, o) => dv.getUint8(o) },
  b1: { size: 1, make: (n) => new Uint8Array(n), get: (dv, o) => dv.getUint8(o) },
  u2: { size: 2, make: (n) => new Uint16Array(n), get: (dv, o, le) => dv.getUint16(o, le) },
  u4: { size: 4, make: (n) => new Uint32Array(n), get: (dv, o, le) => dv.getUint32(o, le) },
};

const HOST_LE = new Uint16Array(new Uint8Array([1, 0]).buffer)[0] === 1;

/** Parses the header dict, e.g. {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }. */
function parseHeader(text: string): { descr: string; fortran: boolean; shape: number[] } {
  const t = text.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) throw new Error('npy: the header is not a dict');
  const descr = /['"]descr['"]\s*:\s*['"]([<>|=]?[a-zA-Z]\d+)['"]/.exec(t);
  const fortran = /['"]fortran_order['"]\s*:\s*(True|False)/.exec(t);
  const shape = /['"]shape['"]\s*:\s*\(([^)]*)\)/.exec(t);
  if (!descr) throw new Error('npy: the header has no simple "descr" (structured dtypes are not supported)');
  if (!fortran) throw new Error('npy: the header has no "fortran_order"');
  if (!shape) throw new Error('npy: the header has no "shape" tuple');
  const parts = shape[1]
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const dims = parts.map((p) => {
    if (!/^\d{1,15}L?$/.test(p)) throw new Error(`npy: shape entry "${p.slice(0, 20)}" is not a whole number`);
    return Number(p.replace(/L$/, ''));
  });
  return { descr: descr[1], fortran: fortran[1] === 'True', shape: dims };
}

export function readNpy(bytes: Uint8Array): NpyArray {
  if (!(bytes instanceof Uint8Array)) throw new Error('npy: input must be bytes');
  const magic = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];
  if (bytes.length < 10 || magic.some((b, i) => bytes[i] !== b)) throw new Error('npy: not a .npy file (the magic "\\x93NUMPY" is missing)');
  const major = bytes[6];
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let headerLen: number;
  let start: number;
  if (major === 1) {
    headerLen = dv.getUint16(8, true);
    start = 10;
  } else if (major === 2 || major === 3) {
    if (bytes.length < 12) throw new Error('npy: file too short for its header length');
    headerLen = dv.getUint32(8, true);
    start = 12;
  } else throw new Error(`npy: format version ${major} is not supported (1, 2 or 3)`);
  if (headerLen > MAX_NPY_HEADER) throw new Error(`npy: header length ${headerLen} is over the 1 MB limit`);
  if (start + headerLen > bytes.length) throw new Error(`npy: header length ${headerLen} runs past the end of the file (${bytes.length} bytes)`);
  let text: string;
  try {
    text = new TextDecoder(major === 3 ? 'utf-8' : 'latin1', { fatal: major === 3 }).decode(bytes.subarray(start, start + headerLen));
  } catch {
    throw new Error('npy: the header is not valid text');
  }
  const h = parseHeader(text);
  if (h.fortran) throw new Error('npy: Fortran-order arrays are not supported (save with np.ascontiguousarray)');
  const order = /^[<>|=]/.test(h.descr) ? h.descr[0] : '=';
  const kind = h.descr.replace(/^[<>|=]/, '');
  const k = Object.prototype.hasOwnProperty.call(KINDS, kind) ? KINDS[kind] : undefined;
  if (!k) throw new Error(`npy: dtype "${h.descr}" is not supported (float32/64, int, uint or bool)`);
  const little = order === '<' || order === '|' || (order === '=' && HOST_LE);
  let count = 1;
  for (const d of h.shape) count *= d;
  if (!Number.isSafeInteger(count)) throw new Error('npy: the shape is too large');
  const dataStart = start + headerLen;
  const need = count * k.size;
  const have = bytes.length - dataStart;
  if (need !== have) throw new Error(`npy: shape (${h.shape.join(', ')}) × ${kind} needs ${need} bytes but the file holds ${have}`);
  let data: NpyData;
  if (little === HOST_LE || k.size === 1) {
    const copy = bytes.slice(dataStart, dataStart + need);
    const out = k.make(0);
    data = new (out.constructor as new (b: ArrayBuffer, o: number, n: number) => NpyData)(copy.buffer, 0, count);
  } else {
    data = k.make(count);
    for (let i = 0; i < count; i++) (data as unknown as Array<number | bigint>)[i] = k.get(dv, dataStart + i * k.size, little);
  }
  return { dtype: kind, shape: h.shape, data };
}

/** Writes a C-order little-endian .npy (version 1), for tests and exports. */
export function writeNpy(data: Float32Array | Float64Array | Int32Array | Uint8Array, shape: number[]): Uint8Array {
  const descr = data instanceof Float32Array ? '<f4' : data instanceof Float64Array ? '<f8' : data instanceof Int32Array ? '<i4' : '|u1';
  const count = shape.reduce((a, b) => a * b, 1);
  if (count !== data.length) throw new Error(`npy: shape (${shape.join(', ')}) does not match ${data.length} values`);
  const dict = `{'descr': '${descr}', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  const pad = 64 - ((10 + dict.length + 1) % 64);
  const header = dict + ' '.repeat(pad % 64) + '\n';
  const out = new Uint8Array(10 + header.length + data.byteLength);
  out.set([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]);
  new DataView(out.buffer).setUint16(8, header.length, true);
  for (let i = 0; i < header.length; i++) out[10 + i] = header.charCodeAt(i);
  out.set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength), 10 + header.length);
  return out;
}
