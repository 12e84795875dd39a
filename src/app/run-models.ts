import type { ModelClient, ModelHandle } from '../runtime/client';
import { asRunnerModel, RunnerModelSet } from '../runtime/runner-models';
import type { Device, Dtype } from '../runtime/types';
import { hubSetting } from './hub-setting.svelte';

export interface RunRuntime {
  device?: string;
  dtype?: string;
}

function matches(h: ModelHandle, id: string, runtime: RunRuntime): boolean {
  if (h.model !== id || !h.info || h.isCrashed) return false;
  const want = (v: string | undefined, have: string) => !v || v === 'auto' || v === have;
  return want(runtime.device, h.info.backend) && want(runtime.dtype, h.info.dtype);
}

/**
 * The models a run needs, in the page: a model already loaded with a compatible backend and dtype is reused, any
 * other is loaded in its own worker (with download progress). One handle per distinct id. `runtime` may name a
 * backend and dtype per model (a second lane copies each model of the first exactly); handles in `taken` (another
 * lane's) are never reused.
 */
export async function ensureRunModels(
  client: ModelClient,
  ids: readonly string[],
  runtimeOf: RunRuntime | ((id: string) => RunRuntime),
  onProgress?: (note: string, fraction: number) => void,
  taken: readonly string[] = [],
  signal?: AbortSignal,
): Promise<RunnerModelSet> {
  const set = new RunnerModelSet();
  for (const id of new Set(ids)) {
    const runtime = typeof runtimeOf === 'function' ? runtimeOf(id) : runtimeOf;
    // A crashed worker of this model is gone for good: forget it, so the status bar and the next run see only live ones.
    for (const h of client.handles()) if (h.model === id && h.isCrashed) client.unload(h.key);
    let handle = client.handles().find((h) => !taken.includes(h.key) && matches(h, id, runtime));
    if (!handle) {
      const device = (runtime.device ?? 'auto') as Device;
      if (device === 'cpu') throw new Error('The cpu backend exists only in the CLI; choose auto, webgpu or wasm in the page.');
      const hub = hubSetting.url ? { hubUrl: hubSetting.url } : {};
      handle = await client.load(
        id,
        { device, dtype: (runtime.dtype ?? 'auto') as Dtype, ...hub },
        (p) => {
          const frac = p.total ? p.loaded / p.total : 0;
          onProgress?.(`Loading ${id}: ${p.phase}${p.total ? ` ${(p.loaded / 1e6).toFixed(1)} / ${(p.total / 1e6).toFixed(1)} MB` : ''}`, frac);
        },
        undefined,
        signal,
      );
    }
    set.add(asRunnerModel(id, handle, handle.info!), handle.key);
  }
  return set;
}
