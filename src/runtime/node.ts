/**
 * Node adapter for the model runtime (CLI, tests, benchmarks): onnxruntime-node on the CPU.
 *
 * transformers.js in Node hands local .onnx files to onnxruntime-node as paths, bypassing env.fetch. So that the
 * graph is patched by the same wrapper as in the browser, this adapter turns env.useFS off (every file is fetched
 * through env.fetch, and the base fetch below reads local paths from disk) and installs a small custom cache: it
 * gives transformers.js back the patched bytes of the file it just fetched (one-shot, in memory) and keeps hub
 * downloads (the graph patched) on disk under a cache folder distinct from transformers.js's own. The hub's address
 * is HF_ENDPOINT when set (a mirror), as huggingface_hub reads it.
 */
import { existsSync, statSync, mkdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { homedir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ModelRuntime, type Platform, type ResolvedModel, type Transformers } from './runtime';
import { REGISTRY } from '../../models/registry';
import type { FetchLike } from './tap-fetch';
import { hubEndpoint } from './hub';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
export const MODELS_DIR = join(REPO_ROOT, 'models');
export const TAPPED_CACHE_DIR = join(process.env.SML_CACHE_DIR ?? join(homedir(), '.cache'), 'social-minds-lab', 'tapped-v1');

const isUrl = (s: string) => /^(https?|blob|data):/i.test(s);

/** fetch() that also reads local paths (and file: URLs) from disk; a missing file is a 404 response. */
export const nodeFetch: FetchLike = async (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  if (isUrl(url)) return fetch(input, init);
  const path = url.startsWith('file:') ? new URL(url).pathname : url;
  if (!existsSync(path) || !statSync(path).isFile()) return new Response('Not Found', { status: 404, statusText: 'Not Found' });
  const bytes = await readFile(path);
  return new Response(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) as BodyInit, {
    status: 200,
    headers: { 'content-length': String(bytes.byteLength) },
  });
};

const isModelBinary = (key: string) => /\.onnx(_data(_\d+)?)?$/i.test(key);

/** The custom cache transformers.js uses in Node (see the file comment). */
export class NodeTapCache {
  private pending = new Map<string, Uint8Array>();
  constructor(private readonly dir: string) {}

  private diskPath(key: string): string {
    const u = new URL(key);
    return join(this.dir, u.host, decodeURIComponent(u.pathname).replace(/\.\.+/g, '_'));
  }

  async match(key: string): Promise<Response | undefined> {
    const held = this.pending.get(key);
    if (held) {
      this.pending.delete(key);
      return new Response(held as BodyInit, { status: 200, headers: { 'content-length': String(held.length) } });
    }
    if (isUrl(key)) {
      const p = this.diskPath(key);
      if (existsSync(p)) {
        const bytes = readFileSync(p);
        return new Response(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) as BodyInit, {
          status: 200,
          headers: { 'content-length': String(bytes.length) },
        });
      }
    }
    return undefined;
  }

  async put(key: string, response: Response): Promise<void> {
    // Local files are read from disk each time; every hub file (config and tokenizer too) is kept, so that a second
    // load asks the hub for nothing.
    if (!isModelBinary(key) && !isUrl(key)) return;
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (isModelBinary(key)) this.pending.set(key, bytes);
    if (isUrl(key)) {
      const p = this.diskPath(key);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p + '.tmp', bytes);
      renameSync(p + '.tmp', p);
    }
  }

  async delete(key: string): Promise<boolean> {
    return this.pending.delete(key);
  }
}

/** A registry id of a local model, or a folder with a config.json. */
function resolveLocal(model: string): ResolvedModel | undefined {
  const entry = REGISTRY.find((e) => e.source === 'local' && (e.id === model || e.repo === model));
  if (entry) return { id: entry.id, repo: entry.repo, source: 'local', localDir: MODELS_DIR, revision: null, entry, warnings: [] };
  const dir = resolve(model);
  if (existsSync(join(dir, 'config.json'))) {
    return { id: model, repo: basename(dir), source: 'local', localDir: dirname(dir), revision: null, warnings: [] };
  }
  if (model.startsWith('.') || model.startsWith('/') || (existsSync(dir) && statSync(dir).isDirectory())) {
    throw new Error(`Model folder "${model}" has no config.json.`);
  }
  return undefined;
}

let tfModule: Promise<Transformers> | null = null;
let processBackend: 'cpu' | 'wasm' | null = null;

/**
 * transformers.js binds its ONNX runtime when it is first imported, so one Node process runs either onnxruntime-node
 * (cpu) or onnxruntime-web (wasm, registered under Symbol.for('onnxruntime') before the import), not both.
 */
function importTransformers(backend: string): Promise<Transformers> {
  const want = backend === 'wasm' ? 'wasm' : 'cpu';
  if (processBackend && processBackend !== want) {
    return Promise.reject(new Error(`This Node process already runs transformers.js on ${processBackend}; ${want} needs a separate process.`));
  }
  processBackend = want;
  return (tfModule ??= (async () => {
    if (want === 'wasm') {
      const ortWeb = await import('onnxruntime-web');
      (globalThis as Record<symbol, unknown>)[Symbol.for('onnxruntime')] = ortWeb;
    }
    const tf = await import('@huggingface/transformers');
    if (want === 'wasm') {
      // transformers.js points onnxruntime-web at a CDN by default: use the package's own files
      const dist = dirname(fileURLToPath(import.meta.resolve('onnxruntime-web')));
      (tf.env.backends.onnx as { wasm: { wasmPaths?: unknown } }).wasm.wasmPaths = pathToFileURL(dist + '/').href;
    }
    return tf;
  })());
}

/** Which ONNX runtime this process bound transformers.js to (null before the first load). */
export function nodeProcessBackend(): 'cpu' | 'wasm' | null {
  return processBackend;
}

export const nodePlatform: Platform = {
  kind: 'node',
  tf: importTransformers,
  resolveLocal,
  configure(tf, model, wrap) {
    const env = tf.env;
    env.useFS = false;
    env.useFSCache = false;
    env.useBrowserCache = false;
    env.useCustomCache = true;
    env.customCache = new NodeTapCache(TAPPED_CACHE_DIR);
    env.allowLocalModels = model.source === 'local';
    env.allowRemoteModels = model.source === 'hub';
    // A mirror of the hub (or a test's loopback hub), named the way huggingface_hub names it.
    const hub = model.hubUrl ?? hubEndpoint(process.env.HF_ENDPOINT);
    if (!hub) throw new Error(`HF_ENDPOINT "${process.env.HF_ENDPOINT}" is not an http(s) URL.`);
    env.remoteHost = hub;
    if (model.localDir) env.localModelPath = model.localDir.endsWith('/') ? model.localDir : model.localDir + '/';
    env.fetch = wrap(nodeFetch);
    env.logLevel = 40; // errors only
  },
  async webgpu() {
    return null;
  },
  deviceOption(backend) {
    if (backend === 'cpu') return { device: 'cpu' };
    if (backend === 'wasm') {
      // transformers.js lists no devices for an injected runtime: an empty per-file device makes it pass the
      // execution providers through, and onnxruntime-web's wasm backend runs the session.
      return { device: { model: '', decoder_model_merged: '' }, session_options: { executionProviders: ['wasm'] } };
    }
    throw new Error(`The Node runtime runs on cpu (onnxruntime-node) or wasm (onnxruntime-web); "${backend}" runs in the browser.`);
  },
};

/** A runtime for one model in Node. */
export function createNodeRuntime(): ModelRuntime {
  return new ModelRuntime(nodePlatform);
}
