import { readFileSync } from 'node:fs';
import { CliUsageError } from '../command.ts';
import { readCsvText } from '../../src/core/csv.ts';
import { readSafetensors, type SafeTensor } from '../../src/core/safetensors.ts';
import type { LayerStack } from '../../src/core/ridge.ts';

/** Shared input helpers for the sync, cka and mixedlm commands. */

export function readTensors(file: string | undefined): Record<string, SafeTensor> {
  if (!file) throw new CliUsageError('give the input .safetensors file');
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(file));
  } catch (e) {
    throw new CliUsageError(`cannot read ${file}: ${(e as Error).message}`);
  }
  return readSafetensors(bytes).tensors;
}

export function layerStack(t: Record<string, SafeTensor>, name: string): LayerStack {
  const x = t[name];
  if (!x) throw new CliUsageError(`tensor "${name}" is missing (have: ${Object.keys(t).join(', ') || 'none'})`);
  if (x.dtype !== 'F32' && x.dtype !== 'F64') throw new CliUsageError(`tensor "${name}" must be F32 or F64 (got ${x.dtype})`);
  if (x.shape.length !== 3) throw new CliUsageError(`tensor "${name}" must be [n, L, H] (got shape [${x.shape.join(', ')}])`);
  const [n, L, H] = x.shape;
  return { data: x.data as Float32Array | Float64Array, n, L, H };
}

export function intVector(t: Record<string, SafeTensor>, name: string, n: number): Int32Array {
  const x = t[name];
  if (!x) throw new CliUsageError(`tensor "${name}" is missing`);
  if (x.shape.length !== 1 || x.shape[0] !== n) throw new CliUsageError(`tensor "${name}" must be [${n}] (got [${x.shape.join(', ')}])`);
  if (x.dtype === 'I32') return x.data as Int32Array;
  if (x.dtype === 'I64' || x.dtype === 'U8') return Int32Array.from(x.data as ArrayLike<number | bigint>, Number);
  throw new CliUsageError(`tensor "${name}" must be I32 (got ${x.dtype})`);
}

export function numberOption(v: unknown, name: string, fallback: number): number {
  if (v === undefined) return fallback;
  const x = Number(v);
  if (!Number.isFinite(x)) throw new CliUsageError(`--${name} must be a number (got "${v}")`);
  return x;
}

/** A whole-number option of at least `min`, or `fallback` when absent. */
export function wholeNumberOption(v: unknown, name: string, min: number, fallback: number): number {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new CliUsageError(`--${name} must be a whole number of at least ${min} (got "${v}")`);
  return n;
}

/** Row-major Float64Array (rows × cols) as nested arrays, for JSON. */
export function nested(a: ArrayLike<number>, rows: number, cols: number): number[][] {
  return Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => a[i * cols + j]));
}

export function fmt(x: number, d = 3): string {
  return Number.isFinite(x) ? x.toFixed(d) : String(x);
}

/** Minimal RFC 4180 CSV: a header row, commas, double-quoted fields with "" escapes. */
export function parseCsv(text: string): Record<string, string[]> {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      field = '';
      if (row.length > 1 || row[0] !== '') rows.push(row);
      row = [];
    } else field += ch;
  }
  if (quoted) throw new CliUsageError('CSV: unterminated quoted field');
  row.push(field);
  if (row.length > 1 || row[0] !== '') rows.push(row);
  if (rows.length < 2) throw new CliUsageError('CSV: need a header row and at least one data row');
  // readCsvText: the app's exports write text such as "-x" as "'-x" (formula neutralisation); read it back.
  const header = rows[0].map((h) => readCsvText(h.trim()));
  const cols: Record<string, string[]> = Object.fromEntries(header.map((h) => [h, [] as string[]]));
  rows.slice(1).forEach((r, i) => {
    if (r.length !== header.length) throw new CliUsageError(`CSV: row ${i + 2} has ${r.length} fields, the header has ${header.length}`);
    r.forEach((v, j) => cols[header[j]].push(readCsvText(v)));
  });
  return cols;
}
