/**
 * Wraps transformers.js's `env.fetch` so that ONNX graph files are patched with the hidden-state taps as they
 * download, and every byte is counted for progress. Range probes and non-GET requests pass through untouched.
 * External data files (`.onnx_data`) are counted but never patched. Errors while patching are kept and re-thrown by
 * the runtime (transformers.js would otherwise hide them behind a generic "could not load" error).
 */
import { patchOnnx, type TapPlan } from '../core/onnx/taps';
import { OnnxFormatError } from '../core/onnx/model';

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface TapFetchOptions {
  modelName: string;
  numLayers?: number;
  taps: boolean;
  onProgress?: (p: { file: string; loaded: number; total: number; phase: 'download' | 'patch' | 'session' }) => void;
}

export interface TapFetch {
  fetch: FetchLike;
  /** The plan of every graph file patched so far, by file name. */
  plans: Map<string, TapPlan>;
  /** The first error raised while patching, if any. */
  error: Error | null;
}

function urlOf(input: string | URL | Request): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

function hasRange(input: string | URL | Request, init?: RequestInit): boolean {
  if (init?.headers && new Headers(init.headers).has('range')) return true;
  return typeof input === 'object' && 'headers' in input && input.headers.has('range');
}

export function fileName(url: string): string {
  const path = url.split(/[?#]/)[0];
  return path.slice(path.lastIndexOf('/') + 1);
}

export const isGraphFile = (url: string) => /\.onnx$/i.test(url.split(/[?#]/)[0]);
const isModelFile = (url: string) => /\.(onnx|onnx_data(_\d+)?|json)$/i.test(url.split(/[?#]/)[0]);

/** Reads a response body chunk by chunk, reporting bytes as they arrive. */
async function readAll(res: Response, onBytes: (n: number) => void): Promise<Uint8Array> {
  if (!res.body) {
    const b = new Uint8Array(await res.arrayBuffer());
    onBytes(b.length);
    return b;
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    onBytes(value.length);
  }
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

export function createTapFetch(base: FetchLike, opts: TapFetchOptions): TapFetch {
  const files = new Map<string, { loaded: number; total: number }>();
  const state: TapFetch = { fetch: null as unknown as FetchLike, plans: new Map(), error: null };
  const report = (file: string, phase: 'download' | 'patch' | 'session') => {
    let loaded = 0;
    let total = 0;
    for (const f of files.values()) {
      loaded += f.loaded;
      total += Math.max(f.total, f.loaded);
    }
    opts.onProgress?.({ file, loaded, total, phase });
  };

  state.fetch = async (input, init) => {
    const url = urlOf(input);
    const method = (init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET')).toUpperCase();
    if (method !== 'GET' || hasRange(input, init) || !isModelFile(url)) return base(input, init);
    const res = await base(input, init);
    if (!res.ok) return res;
    const file = fileName(url);
    const total = Number(res.headers.get('content-length') ?? 0) || 0;
    const entry = { loaded: 0, total };
    files.set(url, entry);
    const count = (n: number) => {
      entry.loaded += n;
      report(file, 'download');
    };
    if (!isGraphFile(url) || !opts.taps) {
      // stream it through (external data can be gigabytes): count the bytes as transformers.js reads them
      if (!res.body) return res;
      const counter = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, ctl) {
          count(chunk.length);
          ctl.enqueue(chunk);
        },
      });
      return new Response(res.body.pipeThrough(counter), { status: res.status, statusText: res.statusText, headers: res.headers });
    }
    const bytes = await readAll(res, count);
    report(file, 'patch');
    let patched: Uint8Array;
    try {
      const result = patchOnnx(bytes, { modelName: opts.modelName, numLayers: opts.numLayers });
      if (result.plan) state.plans.set(file, result.plan);
      patched = result.bytes;
    } catch (e) {
      const err = e instanceof OnnxFormatError ? new OnnxFormatError(`${opts.modelName}: ${file} is corrupt: ${(e as Error).message}`) : (e as Error);
      state.error ??= err;
      throw err;
    }
    report(file, 'session'); // patched: the runtime builds the session next
    const headers = new Headers(res.headers);
    headers.set('content-length', String(patched.length));
    headers.set('content-type', 'application/octet-stream');
    return new Response(patched as BodyInit, { status: 200, statusText: 'OK', headers });
  };
  return state;
}
