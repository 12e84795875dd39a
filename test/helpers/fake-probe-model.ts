/**
 * A stand-in for a language model in Similarity runner tests: encode() maps each prompt to a latent vector drawn
 * from a hash of the prompt and the model's `world` (models of one world share latents, so their layers are alike),
 * mixed per layer by a fixed random matrix plus noise. Everything is a deterministic function of the prompt.
 */
import { createRng } from '../../src/core/rng';
import type { RunnerModel } from '../../src/core/runs/models';

export interface FakeProbeModelOptions {
  id: string;
  world: string;
  layers?: number;
  hidden?: number;
  latent?: number;
  noise?: number;
}

export function fakeProbeModel(o: FakeProbeModelOptions) {
  const L = o.layers ?? 3;
  const H = o.hidden ?? 6;
  const K = o.latent ?? 3;
  const mixing = Array.from({ length: L + 1 }, (_, l) => {
    const r = createRng(`fake-probe/${o.id}/${l}`);
    return Float64Array.from({ length: H * K }, () => r.normal());
  });
  const calls: Array<{ prompts: string[]; options: unknown }> = [];
  const model: RunnerModel & { calls: typeof calls } = {
    id: o.id,
    backend: 'fake',
    dtype: 'fp32',
    numLayers: L,
    hiddenSize: H,
    calls,
    async generate() {
      throw new Error('the probe fake only encodes');
    },
    async encode(prompts, options) {
      calls.push({ prompts, options });
      const data = new Float32Array(prompts.length * (L + 1) * H);
      prompts.forEach((p, i) => {
        const zr = createRng(`latent/${o.world}/${p}`);
        const z = Float64Array.from({ length: K }, () => zr.normal());
        const nr = createRng(`noise/${o.id}/${p}`);
        for (let l = 0; l <= L; l++)
          for (let h = 0; h < H; h++) {
            let s = 0;
            for (let k = 0; k < K; k++) s += mixing[l][h * K + k] * z[k];
            data[(i * (L + 1) + l) * H + h] = s + (o.noise ?? 0.2) * nr.normal();
          }
      });
      return { data, shape: [prompts.length, L + 1, H], lengths: prompts.map(() => 1) };
    },
    async cancel() {},
  };
  return model;
}
