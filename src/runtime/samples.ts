/**
 * K samples of one prompt from one prefill: the Opinions lab asks each agent for K votes on the same prompt, and K
 * separate calls pay for K prefills of a prompt that is mostly persona and inboxes, against replies of a few tokens.
 *
 * The prompt runs once (transformers.js generate for one token, keeping its KV cache); its last-position logits give
 * every sample its first token, drawn with that sample's own seeded Rng exactly as a lone call would draw it; the
 * cache is then copied K times along the batch axis and transformers.js generate decodes all K continuations
 * together, each row sampled with its own Rng. So sample k is the reply that a lone call with seed k gives, up to the
 * float rounding of batched decoding (checked token for token by test/runtime/samples.test.ts).
 *
 * Only for cache tensors that live on the CPU (the wasm and Node backends): on WebGPU the runtime makes K calls.
 */
import { createRng, type Rng } from '../core/rng';
import { sampleToken, type SamplingParams } from './sampling';
import type { GenerateOptions, GenerateResult } from './types';
import { now, PLAIN_STEP, seededSampler, tapPrefill } from './generation';

/* eslint-disable @typescript-eslint/no-explicit-any -- transformers.js models and tensors, as in runtime.ts */
type TF = any;

export interface SampleHost {
  tf: TF;
  model: TF;
  tokenizer: TF;
  eosIds: ReadonlySet<number>;
  /** Read at every token: a cancel stops every row. */
  isCancelled(): boolean;
  numLayers: number;
  hiddenSize: number;
}

/** Whether every tensor of a cache is in host memory, so that it can be copied row by row. */
const onCpu = (cache: Record<string, TF>): boolean => Object.values(cache).every((t) => t?.location === 'cpu' && t.data);

/** The cache of one prompt, repeated `k` times along its batch axis (dims [1, heads, seq, headDim]). */
function tileCache(tf: TF, cache: Record<string, TF>, k: number): TF {
  const tiled: Record<string, TF> = {};
  for (const [name, t] of Object.entries(cache)) {
    const [b, ...rest] = t.dims as number[];
    if (b !== 1) throw new Error(`KV cache ${name} has batch ${b}, expected 1`);
    const src = t.data as Float32Array;
    const out = new (src.constructor as Float32ArrayConstructor)(src.length * k);
    for (let i = 0; i < k; i++) out.set(src, i * src.length);
    tiled[name] = new tf.Tensor(t.type, out, [k, ...rest]);
  }
  return new tf.DynamicCache(tiled);
}

/**
 * The K replies to `ids` (already tokenised, and known to fit the context with `maxNewTokens` left), one per seed,
 * or null when the cache is not on the CPU (the caller then makes K calls).
 */
export async function sampleFromOnePrefill(
  host: SampleHost,
  ids: number[],
  options: GenerateOptions,
  seeds: readonly (number | string)[],
): Promise<GenerateResult[] | null> {
  const { tf, model: m, tokenizer: tok, eosIds } = host;
  const params: SamplingParams = { temperature: options.temperature ?? 0, topP: options.topP ?? 1 };
  const maxNewTokens = options.maxNewTokens ?? 64;
  const n = ids.length;
  const k = seeds.length;
  const rngs: Rng[] = seeds.map((s) => createRng(s));
  const stops = (options.stop ?? []).filter((s) => s.length > 0);
  const L1 = host.numLayers + 1;
  const H = host.hiddenSize;

  const tap = tapPrefill(m);
  let lastLogits: Float32Array | null = null;
  // The prefill's logits for the last prompt position, before any processor touches them.
  class Capture extends tf.LogitsProcessor {
    _call(_ids: unknown, logits: TF) {
      lastLogits = Float32Array.from(logits.data as Float32Array);
      return logits;
    }
  }
  const ended = new Array<GenerateResult['finishReason'] | null>(k).fill(null);
  // How many tokens each row had when it stopped: a lone call would have generated no more.
  const stoppedAt = new Array<number>(k).fill(Infinity);
  const stop = (b: number, why: GenerateResult['finishReason'], length: number): true => {
    ended[b] = why;
    stoppedAt[b] = length;
    return true;
  };
  const textOf = (gen: number[]): string => {
    const visible = gen.filter((t) => !eosIds.has(t));
    return visible.length ? (tok.decode(visible, { skip_special_tokens: true }) as string) : '';
  };
  // Rows stop on their own (end of sequence, a stop string); generation goes on until every row has stopped.
  class RowStopper extends tf.StoppingCriteria {
    _call(all: bigint[][]) {
      return all.map((row, b) => {
        if (ended[b]) return true;
        const gen = row.slice(n).map(Number);
        if (host.isCancelled()) return stop(b, 'cancelled', gen.length);
        if (eosIds.has(gen[gen.length - 1])) return stop(b, 'eos', gen.length);
        if (stops.length && stops.some((s) => textOf(gen).includes(s))) return stop(b, 'stop', gen.length);
        return false;
      });
    }
  }
  const t0 = now();
  let rows: number[][];
  try {
    const first = await m.generate({
      input_ids: new tf.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, n]),
      attention_mask: new tf.Tensor('int64', new BigInt64Array(n).fill(1n), [1, n]),
      max_new_tokens: 1,
      ...PLAIN_STEP,
      logits_processor: [new Capture()],
      return_dict_in_generate: true,
    });
    const cache = first.past_key_values as Record<string, TF> & { dispose(): Promise<void> };
    first.sequences.dispose?.();
    if (!lastLogits || !onCpu(cache)) {
      await cache.dispose();
      return null;
    }
    const logits: Float32Array = lastLogits;
    const firstTokens = rngs.map((rng) => sampleToken(logits, params, rng));
    rows = firstTokens.map((t) => [t]);
    firstTokens.forEach((t, b) => {
      if (eosIds.has(t)) stop(b, 'eos', 1);
      else if (stops.length && stops.some((s) => textOf([t]).includes(s))) stop(b, 'stop', 1);
    });
    if (maxNewTokens > 1 && ended.some((e) => !e) && !host.isCancelled()) {
      const seq = BigInt64Array.from(firstTokens.flatMap((t) => [...ids, t]).map(BigInt));
      const out = await m.generate({
        input_ids: new tf.Tensor('int64', seq, [k, n + 1]),
        attention_mask: new tf.Tensor('int64', new BigInt64Array(k * (n + 1)).fill(1n), [k, n + 1]),
        past_key_values: tileCache(tf, cache, k),
        max_new_tokens: maxNewTokens - 1,
        ...PLAIN_STEP,
        logits_processor: [seededSampler(tf, params, (row) => rngs[row])],
        stopping_criteria: [new RowStopper()],
      });
      const width = out.dims[1];
      const all = Array.from(out.data as BigInt64Array, Number);
      out.dispose?.();
      rows = firstTokens.map((_, b) => all.slice(b * width + n, (b + 1) * width));
    }
    await cache.dispose();
  } finally {
    tap.restore();
  }
  const prefillMs = tap.ms;
  const totalMs = now() - t0;
  if (host.isCancelled()) ended.fill('cancelled');
  return rows.map((raw, b) => {
    // A row that stopped early went on decoding with the others: keep it up to where it stopped.
    const tokens = raw.slice(0, stoppedAt[b]);
    let text = textOf(tokens);
    const cut = stops.map((s) => text.indexOf(s)).filter((i) => i >= 0);
    if (cut.length) text = text.slice(0, Math.min(...cut));
    const finish: GenerateResult['finishReason'] = ended[b] ?? 'length';
    const states = tap.states;
    return {
      text,
      tokens,
      promptTokens: ids,
      prefillStates: states && states.length === L1 * H ? states.slice() : null,
      shape: [L1, H],
      finishReason: finish,
      // The prefill and the decoding are shared: every sample reports the batch's time.
      timing: {
        promptTokens: n,
        newTokens: tokens.length,
        prefillMs,
        decodeMs: Math.max(0, totalMs - prefillMs),
        totalMs,
        prefillTokensPerSecond: prefillMs > 0 ? n / (prefillMs / 1000) : 0,
        decodeTokensPerSecond: 0,
      },
    };
  });
}
