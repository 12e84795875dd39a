/**
 * "Bring your own data": hidden states recorded elsewhere, read into the inputs of the compute worker's syncR2.
 * Two layouts, both documented in the view:
 *  - one .safetensors in the `sync` format of the CLI (docs/formats.md): source [n, L_A, H_A], target [n, L_B, H_B]
 *    (F32 or F64), group [n] (I32, I64 or U8), optional split [n] (U8, 1 = test);
 *  - .npy files named source.npy, target.npy and group.npy (and optionally split.npy), or the two state files plus
 *    a .json {"group": [...], "split"?: [...]}.
 * Every file is untrusted: the readers check sizes and shapes, and each failure names the file and the problem.
 */
import { readSafetensors, type SafeTensor } from '../../../core/safetensors';
import { readNpy, type NpyArray } from '../../../core/npy';
import type { LayerStack } from '../../../core/layer-stack';
import { parseJson, scanUntrusted } from '../../../core/config/untrusted';

export interface SyncInput {
  /** What the user imported, for the heading. */
  name: string;
  source: LayerStack;
  target: LayerStack;
  group: Int32Array;
  split?: Uint8Array;
  groups: number;
}

export class ImportError extends Error {}

export const MAX_IMPORT_BYTES = 1024 ** 3;
/** Heatmaps are drawn as SVG; beyond this many layers they would be unreadable anyway. */
export const MAX_LAYERS = 128;

interface Tensorish {
  dtype: string;
  shape: number[];
  data: ArrayLike<number | bigint>;
}

function stack(t: Tensorish | undefined, what: string, file: string): LayerStack {
  if (!t) throw new ImportError(`${file}: the "${what}" states are missing`);
  if (t.shape.length !== 3) throw new ImportError(`${file}: "${what}" must be [n, L, H] (got shape [${t.shape.join(', ')}])`);
  const [n, L, H] = t.shape;
  if (L < 1 || H < 1) throw new ImportError(`${file}: "${what}" has no layers or no units (shape [${t.shape.join(', ')}])`);
  if (L > MAX_LAYERS) throw new ImportError(`${file}: "${what}" has ${L} layers; at most ${MAX_LAYERS} are supported`);
  const ok = t.data instanceof Float32Array || t.data instanceof Float64Array;
  if (!ok) throw new ImportError(`${file}: "${what}" must be float32 or float64 (got ${t.dtype})`);
  return { data: t.data as Float32Array | Float64Array, n, L, H };
}

function ints(values: ArrayLike<number | bigint>, what: string, n: number, file: string): Int32Array {
  if (values.length !== n) throw new ImportError(`${file}: "${what}" has ${values.length} entries for ${n} samples`);
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const v = Number(values[i]);
    if (!Number.isInteger(v) || Math.abs(v) > 2 ** 31 - 1)
      throw new ImportError(`${file}: "${what}" entry ${i} (${String(values[i]).slice(0, 20)}) is not a whole number that fits 32 bits`);
    out[i] = v;
  }
  return out;
}

function vector(t: Tensorish | undefined, what: string, n: number, file: string): Int32Array | undefined {
  if (!t) return undefined;
  if (t.shape.length !== 1) throw new ImportError(`${file}: "${what}" must be one-dimensional [${n}] (got [${t.shape.join(', ')}])`);
  if (t.data instanceof Float32Array || t.data instanceof Float64Array) throw new ImportError(`${file}: "${what}" must hold integers (got ${t.dtype})`);
  return ints(t.data, what, n, file);
}

function finish(name: string, source: LayerStack, target: LayerStack, group: Int32Array | undefined, split: Int32Array | undefined, file: string): SyncInput {
  if (source.n !== target.n) throw new ImportError(`${file}: source has ${source.n} samples but target has ${target.n}`);
  if (!group) throw new ImportError(`${file}: the "group" ids are missing (one episode group per sample; splits never cut a group)`);
  const groups = new Set(group).size;
  if (!split && groups < 2) throw new ImportError(`${file}: all samples are in ${groups} group; the grouped split needs at least 2 groups`);
  let mask: Uint8Array | undefined;
  if (split) {
    if (split.some((v) => v !== 0 && v !== 1)) throw new ImportError(`${file}: "split" must hold 0 (train) or 1 (test)`);
    mask = Uint8Array.from(split);
    const test = mask.reduce((a, v) => a + v, 0);
    if (test === 0 || test === mask.length) throw new ImportError(`${file}: "split" puts every sample on one side; both train and test need samples`);
  }
  if (source.n < 4) throw new ImportError(`${file}: only ${source.n} samples; SyncR² needs at least a few per split`);
  return { name, source, target, group, ...(mask ? { split: mask } : {}), groups };
}

export function syncInputFromSafetensors(bytes: Uint8Array, file: string): SyncInput {
  let tensors: Record<string, SafeTensor>;
  try {
    tensors = readSafetensors(bytes).tensors;
  } catch (e) {
    throw new ImportError(`${file}: ${(e as Error).message}`);
  }
  const has = Object.keys(tensors);
  if (!tensors.source || !tensors.target)
    throw new ImportError(`${file}: needs tensors "source" and "target" (and "group"); it has ${has.join(', ').slice(0, 200) || 'none'}`);
  const source = stack(tensors.source, 'source', file);
  const target = stack(tensors.target, 'target', file);
  return finish(file, source, target, vector(tensors.group, 'group', source.n, file), vector(tensors.split, 'split', source.n, file), file);
}

export interface NamedBytes {
  name: string;
  bytes: Uint8Array;
}

const role = (name: string) => /^(source|target|group|split)(?![a-z])/i.exec(name.replace(/^.*[\\/]/, ''))?.[1].toLowerCase();

export function syncInputFromNpy(files: NamedBytes[]): SyncInput {
  const arrays: Record<string, Tensorish> = {};
  type Meta = { group?: unknown; split?: unknown };
  let json = null as Meta | null;
  for (const f of files) {
    if (/\.json$/i.test(f.name)) {
      const parsed = parseJson(new TextDecoder().decode(f.bytes));
      if (!parsed.ok) throw new ImportError(`${f.name}: ${parsed.message}`);
      const v = parsed.value;
      if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ImportError(`${f.name}: expected an object {"group": [...], "split"?: [...]}`);
      const hostile = scanUntrusted(v);
      if (hostile.length) throw new ImportError(`${f.name}: ${hostile[0].path} ${hostile[0].message}`);
      json = v as Meta;
      continue;
    }
    const r = role(f.name);
    if (!r) throw new ImportError(`${f.name}: name it source.npy, target.npy, group.npy or split.npy so that its role is clear`);
    let a: NpyArray;
    try {
      a = readNpy(f.bytes);
    } catch (e) {
      throw new ImportError(`${f.name}: ${(e as Error).message}`);
    }
    arrays[r] = a;
  }
  const label = files.map((f) => f.name).join(' + ');
  const source = stack(arrays.source, 'source', 'source.npy');
  const target = stack(arrays.target, 'target', 'target.npy');
  const fromJson = (key: 'group' | 'split'): Int32Array | undefined => {
    const v = json?.[key];
    if (v === undefined) return undefined;
    if (!Array.isArray(v)) throw new ImportError(`the JSON file: "${key}" must be a list`);
    return ints(v as number[], key, source.n, 'the JSON file');
  };
  const group = vector(arrays.group, 'group', source.n, 'group.npy') ?? fromJson('group');
  const split = vector(arrays.split, 'split', source.n, 'split.npy') ?? fromJson('split');
  return finish(label, source, target, group, split, label);
}

/** One import from the files a user picked: a .safetensors alone, or a set of .npy (+ .json). */
export function syncInputFromFiles(files: NamedBytes[]): SyncInput {
  if (!files.length) throw new ImportError('no file was chosen');
  const total = files.reduce((a, f) => a + f.bytes.length, 0);
  if (total > MAX_IMPORT_BYTES) throw new ImportError(`the files hold ${(total / 2 ** 20).toFixed(0)} MB; the limit is 1 GB`);
  const st = files.filter((f) => /\.safetensors$/i.test(f.name));
  if (st.length) {
    if (files.length > 1) throw new ImportError('choose one .safetensors file on its own (or .npy files plus an optional .json)');
    return syncInputFromSafetensors(st[0].bytes, st[0].name);
  }
  const unknown = files.find((f) => !/\.(npy|json)$/i.test(f.name));
  if (unknown) throw new ImportError(`${unknown.name}: not a .safetensors, .npy or .json file`);
  return syncInputFromNpy(files);
}
