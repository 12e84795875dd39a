import { createNodeRuntime } from '../src/runtime/node.ts';
import { asRunnerModel, RunnerModelSet } from '../src/runtime/runner-models.ts';
import type { ModelRuntime } from '../src/runtime/runtime.ts';
import type { Device, Dtype } from '../src/runtime/types.ts';
import { validateConfig } from '../src/core/config/index.ts';
import { runHeadless } from '../src/core/runs/headless.ts';
import { LABS, openLabByName } from '../src/labs/registry.ts';

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

/**
 * A whole study in this one process, the way `npm run lab -- run` runs it, from a config envelope ({lab, config}):
 * the reference that a sweep's collected bundle must equal, and the baseline of the sweep benchmark.
 * `runSeconds` is the episodes' time alone, the models already loaded.
 */
export async function runEnvelopeInProcess(envelope: { lab: string; config: unknown }, runtime: { device?: string; dtype?: string } = { device: 'cpu' }) {
  const def = LABS.find((d) => d.name === envelope.lab);
  if (!def) throw new Error(`no lab "${envelope.lab}"`);
  const checked = validateConfig(def, envelope.config, def.version);
  if (!checked.ok) throw new Error(`${envelope.lab} config: ${JSON.stringify(checked.errors)}`);
  const lab = openLabByName(def.name);
  const plan = lab.plan(checked.value);
  const loaded = plan.models.length ? await loadRunModels(plan.models, runtime) : null;
  try {
    const t0 = performance.now();
    const bundle = await runHeadless(def, lab, checked.value, { models: loaded?.models, backend: loaded?.backend, dtype: loaded?.dtype });
    return { bundle, runSeconds: (performance.now() - t0) / 1000 };
  } finally {
    await loaded?.dispose();
  }
}
