/**
 * Browser (model worker) adapter for the model runtime: transformers.js's web build on onnxruntime-web, WebGPU or
 * WASM, with the wasm files and the embedded models served by the app itself (no CDN at run time).
 */
import { ModelRuntime, type Platform, type ResolvedModel } from './runtime';
import { wasmThreadCount } from './threads';
import { DEFAULT_HUB_URL } from './hub';
import { REGISTRY } from '../../models/registry';
import { probeWebGpu } from './gpu';
import { TAP_OUTPUT } from '../core/onnx/taps';

/** Cache name for patched hub downloads; distinct from transformers.js's own "transformers-cache". */
/** onnxruntime-web's plain (no asyncify) wasm build, which wasm-backend workers load; vite.config.ts ships it in ort/. */
export const ORT_WASM_FILES = { mjs: 'ort-wasm-simd-threaded.mjs', wasm: 'ort-wasm-simd-threaded.wasm' } as const;

export const TAPPED_CACHE_KEY = 'social-minds-lab-tapped-v1';

/**
 * The app's root URL, where its models/ and ort/ folders are. An absolute base ('/' in dev) is the root on this
 * origin. The build's base is relative ('./', so that it works from any sub-path): relative to the page, and in a
 * worker, whose own URL is a file in the build's assets/ folder, one level further up.
 */
export function appBase(
  base = (import.meta.env?.BASE_URL as string | undefined) ?? '/',
  here = self.location.href,
  inWorker = typeof document === 'undefined',
): string {
  if (!base.startsWith('.')) return new URL(base, here).href;
  return new URL(inWorker ? `../${base}` : base, here).href;
}

function resolveLocal(model: string): ResolvedModel | undefined {
  const entry = REGISTRY.find((e) => e.source === 'local' && (e.id === model || e.repo === model));
  if (!entry) return undefined;
  // a path, not a URL: transformers.js only treats non-URL local paths as local files (metadata probes included)
  return { id: entry.id, repo: entry.repo, source: 'local', localDir: new URL('models/', appBase()).pathname, revision: null, entry, warnings: [] };
}

type SessionCreate = (arg0: unknown, arg1?: unknown, ...rest: unknown[]) => Promise<unknown>;
let ortPatched: Promise<void> | null = null;

/**
 * On WebGPU, keep the tap output on the GPU (like the KV cache): the runtime downloads it once, on the prefill call,
 * and disposes it on decode steps, so that generation does not pay a GPU→CPU readback per token for states it
 * does not use. transformers.js sets preferredOutputLocation for the KV cache only; this adds the tap output. It
 * patches the InferenceSession of the same onnxruntime-web module that transformers.js imports.
 */
function keepTapsOnGpu(): Promise<void> {
  return (ortPatched ??= import('onnxruntime-web/webgpu').then((ort) => {
    const IS = ort.InferenceSession as unknown as { create: SessionCreate };
    const create = IS.create.bind(IS);
    IS.create = (arg0, arg1, ...rest) => {
      const opts = arg1 as { executionProviders?: unknown[]; preferredOutputLocation?: unknown } | undefined;
      const onGpu = opts?.executionProviders?.some((ep) => (typeof ep === 'string' ? ep : (ep as { name?: string })?.name) === 'webgpu');
      if (onGpu && typeof opts!.preferredOutputLocation !== 'string') {
        arg1 = { ...opts, preferredOutputLocation: { ...(opts!.preferredOutputLocation as object | undefined), [TAP_OUTPUT]: 'gpu-buffer' } };
      }
      return create(arg0, arg1, ...rest);
    };
  }));
}

/**
 * Which onnxruntime build a worker loads. The WebGPU bundle that transformers.js imports asks for the asyncify build,
 * whose every wasm call carries the instrumentation that lets WebGPU's asynchronous calls unwind the stack. A worker
 * on the wasm backend never makes those calls, so it loads the plain build of the same version, which the bundle's
 * loader accepts by name (`wasmPaths` as { mjs, wasm }). Measured on this 2-core machine: the Similarity preset ran
 * in 24 s instead of 46 s, the Synchrony preset in 37 s instead of 44 s. One worker holds one model on one backend,
 * so a worker never needs both builds.
 */
export function ortFiles(backend: string, base = appBase()): string | { mjs: string; wasm: string } {
  const dir = new URL('ort/', base).href;
  if (backend !== 'wasm') return dir;
  return { mjs: `${dir}${ORT_WASM_FILES.mjs}`, wasm: `${dir}${ORT_WASM_FILES.wasm}` };
}

export const browserPlatform: Platform = {
  kind: 'browser',
  tf: async () => {
    await keepTapsOnGpu();
    return await import('@huggingface/transformers');
  },
  resolveLocal,
  configure(tf, model, wrap, backend) {
    const env = tf.env;
    env.allowLocalModels = model.source === 'local';
    env.allowRemoteModels = model.source === 'hub';
    env.remoteHost = model.hubUrl ?? DEFAULT_HUB_URL;
    if (model.localDir) env.localModelPath = model.localDir;
    // The embedded model is served by the app: never cache it (a rebuilt model must not be shadowed by an old copy).
    env.useBrowserCache = model.source === 'hub' && typeof caches !== 'undefined';
    env.cacheKey = TAPPED_CACHE_KEY;
    // onnxruntime-web's env always has its wasm flags; the types leave room for a runtime without them.
    const wasm = env.backends.onnx.wasm;
    if (!wasm) throw new Error('This transformers.js has no onnxruntime-web wasm backend to configure.');
    wasm.wasmPaths = ortFiles(backend);
    wasm.proxy = false;
    wasm.numThreads = wasmThreadCount();
    env.useWasmCache = false;
    env.fetch = wrap(globalThis.fetch.bind(globalThis));
    env.logLevel = 40;
  },
  webgpu: () => probeWebGpu(),
};

export function createBrowserRuntime(): ModelRuntime {
  return new ModelRuntime(browserPlatform);
}
