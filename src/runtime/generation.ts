/**
 * Pieces shared by the runtime's generate() and its batched sampler (samples.ts): reading tensors, the forward
 * wrapper that takes the prefill's hidden states from the tap output, and the seeded sampler.
 */
import type { Rng } from '../core/rng';
import { TAP_OUTPUT } from '../core/onnx/taps';
import { sampleToken, type SamplingParams } from './sampling';

/* eslint-disable @typescript-eslint/no-explicit-any -- transformers.js models and tensors are typed loosely here */
type TF = any;

export const now = () => performance.now();

/**
 * transformers.js generation settings under which its own step is a plain argmax: the runtime's logits processors do
 * the sampling (seededSampler) and the grammar masking, and the model's generation_config cannot add penalties.
 */
export const PLAIN_STEP = {
  do_sample: false,
  num_beams: 1,
  repetition_penalty: 1,
  no_repeat_ngram_size: 0,
  min_length: 0,
  min_new_tokens: null,
} as const;

/** A tensor's data as fp32, downloading (and releasing) it when it lives on the GPU. */
export async function readTensor(t: TF): Promise<Float32Array> {
  if (t.location === 'gpu-buffer') return new Float32Array((await t.ort_tensor.getData(true)) as Float32Array);
  return new Float32Array(t.data as Float32Array);
}

export interface PrefillTap {
  /** [L+1, 1, H] at the prompt's last token, from the first forward call (null without taps). */
  states: Float32Array | null;
  ms: number;
  calls: number;
  /** Puts the model's own forward back. */
  restore(): void;
}

/**
 * Wraps `model.forward` for one generation: the first call's tap output is kept as the prefill's states (no second
 * pass), later ones are dropped (and released on the GPU), and the tap never reaches transformers.js. `before` runs
 * ahead of each call with the call's number and inputs (constrained decoding feeds its grammar there).
 */
export function tapPrefill(model: TF, before?: (call: number, inputs: unknown) => Promise<void>): PrefillTap {
  const tap: PrefillTap = { states: null, ms: 0, calls: 0, restore: () => delete model.forward };
  const forward = model.forward;
  model.forward = async (inputs: unknown) => {
    const t = now();
    await before?.(tap.calls, inputs);
    const out = await forward.call(model, inputs);
    const hs = out[TAP_OUTPUT];
    if (tap.calls++ === 0) {
      if (hs) tap.states = await readTensor(hs);
      tap.ms = now() - t;
    } else if (hs?.location === 'gpu-buffer') hs.dispose();
    delete out[TAP_OUTPUT];
    return out;
  };
  return tap;
}

/**
 * A logits processor that samples each batch row with its own seeded Rng and masks every other token, after which
 * transformers.js's greedy step picks the sampled one (sampling.ts says why the runtime samples itself).
 */
export function seededSampler(tf: TF, params: SamplingParams, rngOf: (row: number) => Rng): TF {
  class SeededSampler extends tf.LogitsProcessor {
    _call(_ids: unknown, logits: TF) {
      const V = logits.dims.at(-1);
      const data = logits.data as Float32Array;
      for (let b = 0; b * V < data.length; b++) {
        const row = data.subarray(b * V, (b + 1) * V);
        const pick = sampleToken(row, params, rngOf(b));
        const v = row[pick];
        row.fill(-Infinity);
        row[pick] = Number.isFinite(v) ? v : 0;
      }
      return logits;
    }
  }
  return new SeededSampler();
}
