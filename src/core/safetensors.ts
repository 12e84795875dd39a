/**
 * safetensors reader/writer (https://github.com/huggingface/safetensors format):
 * 8-byte little-endian header length N, N bytes of JSON header, then the raw little-endian tensor bytes.
 * The reader treats its input as hostile: every size and offset is checked before any view is made.
 */

export type SafeDtype = 'F32' | 'F64' | 'I32' | 'I64' | 'U8';
export type SafeData = Float32Array | Float64Array | Int32Array | BigInt64Array | Uint8Array;

export interface SafeTensor {
  dtype: SafeDtype;
  shape: number[];
  data: SafeData;
}

export interface SafetensorsFile {
  tensors: Record<string, SafeTensor>;
  metadata: Record<string, string>;
}

const BYTES: Record<SafeDtype, number> = { F32: 4, F64: 8, I32: 4, I64: 8, U8: 1 };
/** A header larger than this is refused: real headers are kilobytes, and a huge one is a memory attack. */
export const MAX_HEADER_BYTES = 100 * 1024 * 1024;

function isDtype(d: unknown): d is SafeDtype {
  return typeof d === 'string' && Object.prototype.hasOwnProperty.call(BYTES, d);
}

function dtypeOf(data: SafeData): SafeDtype {
  if (data instanceof Float32Array) return 'F32';
  if (data instanceof Float64Array) return 'F64';
  if (data instanceof Int32Array) return 'I32';
  if (data instanceof BigInt64Array) return 'I64';
  if (data instanceof Uint8Array) return 'U8';
  throw new Error('safetensors: unsupported data array type');
}

function product(shape: number[]): number {
  let n = 1;
  for (const s of shape) n *= s;
  return n;
}

function makeView(dtype: SafeDtype, bytes: Uint8Array, begin: number, end: number): SafeData {
  // Copy into a fresh, aligned buffer: the source offset need not be a multiple of the element size,
  // and the caller may keep the tensors after dropping the file bytes.
  const copy = bytes.slice(begin, end);
  const buf = copy.buffer;
  const n = (end - begin) / BYTES[dtype];
  if (new Uint16Array(new Uint8Array([1, 0]).buffer)[0] !== 1) throw new Error('safetensors: big-endian hosts are not supported');
  switch (dtype) {
    case 'F32':
      return new Float32Array(buf, 0, n);
    case 'F64':
      return new Float64Array(buf, 0, n);
    case 'I32':
      return new Int32Array(buf, 0, n);
    case 'I64':
      return new BigInt64Array(buf, 0, n);
    case 'U8':
      return copy;
  }
}

export function readSafetensors(bytes: Uint8Array): SafetensorsFile {
  if (!(bytes instanceof Uint8Array)) throw new Error('safetensors: input must be a Uint8Array');
  if (bytes.length < 8) throw new Error(`safetensors: file too short (${bytes.length} bytes), no header length`);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLen = dv.getBigUint64(0, true);
  if (headerLen > BigInt(MAX_HEADER_BYTES)) throw new Error(`safetensors: header length ${headerLen} exceeds the 100 MB limit`);
  const hl = Number(headerLen);
  if (8 + hl > bytes.length) throw new Error(`safetensors: header length ${hl} runs past the end of the file (${bytes.length} bytes)`);
  let header: unknown;
  try {
    header = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + hl)));
  } catch (e) {
    throw new Error(`safetensors: header is not valid UTF-8 JSON (${(e as Error).message})`);
  }
  if (header === null || typeof header !== 'object' || Array.isArray(header)) throw new Error('safetensors: header must be a JSON object');
  const dataStart = 8 + hl;
  const dataLen = bytes.length - dataStart;
  const metadata: Record<string, string> = {};
  const tensors: Record<string, SafeTensor> = {};
  const spans: Array<[number, number, string]> = [];
  for (const [name, entry] of Object.entries(header as Record<string, unknown>)) {
    if (name === '__metadata__') {
      if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new Error('safetensors: __metadata__ must be an object of strings');
      for (const [k, v] of Object.entries(entry as Record<string, unknown>)) {
        if (k === '__proto__') throw new Error('safetensors: "__proto__" is not allowed as a metadata key');
        if (typeof v !== 'string') throw new Error(`safetensors: __metadata__["${k}"] is not a string`);
        metadata[k] = v;
      }
      continue;
    }
    // JSON.parse makes "__proto__" an own key; assigning it to a plain object would replace the prototype.
    if (name === '__proto__') throw new Error('safetensors: "__proto__" is not allowed as a tensor name');
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new Error(`safetensors: tensor "${name}" entry is not an object`);
    const { dtype, shape, data_offsets: offsets } = entry as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    if (!isDtype(dtype)) throw new Error(`safetensors: tensor "${name}" has unknown or unsupported dtype ${JSON.stringify(dtype)}`);
    if (!Array.isArray(shape) || !shape.every((s) => Number.isSafeInteger(s) && s >= 0)) {
      throw new Error(`safetensors: tensor "${name}" has an invalid shape ${JSON.stringify(shape)}`);
    }
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every((o) => Number.isSafeInteger(o) && o >= 0)) {
      throw new Error(`safetensors: tensor "${name}" has invalid data_offsets ${JSON.stringify(offsets)}`);
    }
    const [begin, end] = offsets as [number, number];
    if (end < begin) throw new Error(`safetensors: tensor "${name}" has data_offsets [${begin}, ${end}] with end before begin`);
    if (end > dataLen) throw new Error(`safetensors: tensor "${name}" data_offsets [${begin}, ${end}] run past the data section (${dataLen} bytes)`);
    const expected = product(shape as number[]) * BYTES[dtype];
    if (expected !== end - begin) {
      throw new Error(`safetensors: tensor "${name}" shape ${JSON.stringify(shape)} × ${dtype} needs ${expected} bytes but data_offsets span ${end - begin}`);
    }
    spans.push([begin, end, name]);
    tensors[name] = { dtype, shape: [...(shape as number[])], data: makeView(dtype, bytes, dataStart + begin, dataStart + end) };
  }
  spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let reach = 0;
  let reachName = '';
  for (const [b, e, n] of spans) {
    if (e > b && b < reach) throw new Error(`safetensors: tensors "${reachName}" and "${n}" have overlapping data_offsets`);
    if (e > reach) [reach, reachName] = [e, n];
  }
  return { tensors, metadata };
}

export function writeSafetensors(
  tensors: Record<string, { dtype?: SafeDtype; shape: number[]; data: SafeData }>,
  metadata?: Record<string, string>,
): Uint8Array {
  const header: Record<string, unknown> = {};
  if (metadata && Object.keys(metadata).length) header.__metadata__ = { ...metadata };
  const names = Object.keys(tensors).sort();
  let offset = 0;
  for (const name of names) {
    if (name === '__metadata__' || name === '__proto__') throw new Error(`safetensors: "${name}" cannot name a tensor`);
    const t = tensors[name];
    const dtype = dtypeOf(t.data);
    if (t.dtype && t.dtype !== dtype) throw new Error(`safetensors: tensor "${name}" declares ${t.dtype} but its data is ${dtype}`);
    if (product(t.shape) !== t.data.length) {
      throw new Error(`safetensors: tensor "${name}" shape ${JSON.stringify(t.shape)} does not match its ${t.data.length} elements`);
    }
    const size = t.data.byteLength;
    header[name] = { dtype, shape: t.shape, data_offsets: [offset, offset + size] };
    offset += size;
  }
  let json = JSON.stringify(header);
  // Pad with spaces so the data section starts 8-byte aligned, as the reference writer does.
  const enc = new TextEncoder();
  let hb = enc.encode(json);
  const pad = (8 - (hb.length % 8)) % 8;
  if (pad) {
    json += ' '.repeat(pad);
    hb = enc.encode(json);
  }
  const out = new Uint8Array(8 + hb.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(hb.length), true);
  out.set(hb, 8);
  let pos = 8 + hb.length;
  for (const name of names) {
    const d = tensors[name].data;
    out.set(new Uint8Array(d.buffer, d.byteOffset, d.byteLength), pos);
    pos += d.byteLength;
  }
  return out;
}
