/**
 * A minimal protobuf wire-format reader and writer: just enough to read an ONNX graph's topology without
 * decoding its weights, and to write the small ModelProto suffix that adds the hidden-state taps.
 */

export const WIRE_VARINT = 0;
export const WIRE_I64 = 1;
export const WIRE_LEN = 2;
export const WIRE_I32 = 5;

export class ProtobufError extends Error {}

const utf8 = new TextDecoder('utf-8', { fatal: false });
const utf8enc = new TextEncoder();

/** A cursor over a byte range; fields are visited in order and sub-messages are returned as ranges. */
export class Reader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
    if (end > buf.length) throw new ProtobufError(`message runs past the end of the data (${end} > ${buf.length})`);
  }

  done(): boolean {
    return this.pos >= this.end;
  }

  /** Reads a varint as a JS number (exact up to 2^53; larger values lose precision, which we never need). */
  varint(): number {
    let result = 0;
    let mul = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtobufError('truncated varint');
      const b = this.buf[this.pos++];
      result += (b & 0x7f) * mul;
      if (b < 0x80) return result;
      mul *= 128;
    }
    throw new ProtobufError('varint longer than 10 bytes');
  }

  /** Reads a field key; returns [fieldNumber, wireType]. */
  key(): [number, number] {
    const k = this.varint();
    const field = Math.floor(k / 8);
    if (field === 0) throw new ProtobufError(`invalid field number 0 at byte ${this.pos}`);
    return [field, k & 7];
  }

  /** Reads a length-delimited field and returns its [start, end) range, advancing past it. */
  lenRange(): [number, number] {
    const n = this.varint();
    const start = this.pos;
    const end = start + n;
    if (end > this.end) throw new ProtobufError(`length-delimited field of ${n} bytes runs past its message (byte ${start})`);
    this.pos = end;
    return [start, end];
  }

  string(): string {
    const [s, e] = this.lenRange();
    return utf8.decode(this.buf.subarray(s, e));
  }

  skip(wire: number): void {
    switch (wire) {
      case WIRE_VARINT:
        this.varint();
        return;
      case WIRE_I64:
        this.pos += 8;
        break;
      case WIRE_LEN:
        this.lenRange();
        return;
      case WIRE_I32:
        this.pos += 4;
        break;
      default:
        throw new ProtobufError(`unsupported wire type ${wire} at byte ${this.pos}`);
    }
    if (this.pos > this.end) throw new ProtobufError('truncated fixed-width field');
  }

  sub(range: [number, number]): Reader {
    return new Reader(this.buf, range[0], range[1]);
  }
}

/** An append-only protobuf writer. Nested messages are written by encoding them first and then as bytes. */
export class Writer {
  private chunks: Uint8Array[] = [];
  private scratch: number[] = [];
  length = 0;

  private flushScratch(): void {
    if (this.scratch.length) {
      this.chunks.push(Uint8Array.from(this.scratch));
      this.length += this.scratch.length;
      this.scratch = [];
    }
  }

  private rawVarint(v: number): void {
    if (!Number.isFinite(v)) throw new ProtobufError(`cannot encode ${v} as a varint`);
    if (v < 0) {
      // two's complement, 10 bytes (int64 negative values)
      let lo = v >>> 0;
      let hi = Math.floor(v / 4294967296) >>> 0;
      for (let i = 0; i < 9; i++) {
        this.scratch.push((lo & 0x7f) | 0x80);
        lo = ((lo >>> 7) | (hi << 25)) >>> 0;
        hi = hi >>> 7;
      }
      this.scratch.push(1);
      return;
    }
    while (v >= 0x80) {
      this.scratch.push((v % 128) | 0x80);
      v = Math.floor(v / 128);
    }
    this.scratch.push(v);
  }

  key(field: number, wire: number): this {
    this.rawVarint(field * 8 + wire);
    return this;
  }

  varint(field: number, v: number): this {
    this.key(field, WIRE_VARINT);
    this.rawVarint(v);
    return this;
  }

  bytes(field: number, data: Uint8Array): this {
    this.key(field, WIRE_LEN);
    this.rawVarint(data.length);
    this.flushScratch();
    this.chunks.push(data);
    this.length += data.length;
    return this;
  }

  string(field: number, s: string): this {
    return this.bytes(field, utf8enc.encode(s));
  }

  message(field: number, w: Writer): this {
    return this.bytes(field, w.finish());
  }

  finish(): Uint8Array {
    this.flushScratch();
    const out = new Uint8Array(this.length);
    let o = 0;
    for (const c of this.chunks) {
      out.set(c, o);
      o += c.length;
    }
    return out;
  }
}
