import { createNodeRuntime } from '../src/runtime/node.ts';
import { asRunnerModel, RunnerModelSet } from '../src/runtime/runner-models.ts';
import type { ModelRuntime } from '../src/runtime/runtime.ts';
import type { Device, Dtype } from '../src/runtime/types.ts';

/**
 * Loads every model a run's plan names, once each, in this Node process. In Node, 'auto' means the CPU
 * (onnxruntime-node); 'webgpu' exists only in the page.
 */
export async function loadRunModels(ids: readonly string[], runtime: { device?: string; dtype?: string } = {}, log?: (line: string) => void) {
  const set = new RunnerModelSet();
  const runtimes: ModelRuntime[] = [];
  const device = (runtime.device === 'auto' || !runtime.device ? 'cpu' : runtime.device) as Device;
  if (device === 'webgpu') throw new Error('The CLI runs models on cpu or wasm; webgpu runs in the page. Pass --device cpu or --device wasm.');
  const dtype = (runtime.dtype ?? 'auto') as Dtype;
  try {
    for (const id of new Set(ids)) {
      const rt = createNodeRuntime();
      runtimes.push(rt);
      const info = await rt.load(id, { device, dtype });
      log?.(`loaded ${id} on ${info.backend}/${info.dtype} (${info.numLayers} layers, hidden ${info.hiddenSize})`);
      set.add(asRunnerModel(id, rt, info));
    }
  } catch (e) {
    await Promise.all(runtimes.map((r) => r.dispose()));
    throw e;
  }
  return { models: set, ...set.describe(), dispose: () => Promise.all(runtimes.map((r) => r.dispose())) };
}
