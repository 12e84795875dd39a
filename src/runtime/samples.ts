/**
 * Replies to several prompts, K of each, decoded together. The Opinions lab asks each agent for K votes on the same
 * prompt (K separate calls pay for K prefills of a prompt that is mostly persona and inboxes, against replies of a
 * few tokens), and every agent of a round for a message (one call per agent pays a decoding loop per message, where
 * a tiny model's step costs much the same for one row as for ten).
 *
 * The prompts are left-padded to one width (the attention mask hides the padding, and transformers.js numbers each
 * row's positions from its mask) and run once (transformers.js generate for one token, keeping the KV cache). Each
 * prompt's last-position logits give each of its samples the first token, drawn with that sample's own seeded Rng
 * exactly as a lone call would draw it; each prompt's cache is then copied once per sample along the batch axis, and
 * transformers.js generate decodes every row together, each sampled with its own Rng and stopped by its own stop
 * strings and budget. So the reply to prompt p with seed s is the reply that a lone call with seed s gives, up to the
 * float rounding of a batch (checked token for token by test/runtime/samples.test.ts).
 *
 * Only for cache tensors that live on the CPU (the wasm and Node backends): on WebGPU the runtime makes one call per
 * reply.
 */
import { createRng, type Rng } from '../core/rng';
import { distinctTokens, hasBans, hasPenalties, needsSampler, pickToken, samplingParams, type SamplingParams } from './sampling';
import type { GenerateOptions, GenerateResult } from './types';
import { now, PLAIN_STEP, RowEnds, seededSampler, tapPrefill } from './generation';

/* eslint-disable @typescript-eslint/no-explicit-any -- transformers.js models and tensors, as in runtime.ts */
type TF = any;

export interface SampleHost {
  tf: TF;
  model: TF;
  tokenizer: TF;
  eosIds: ReadonlySet<number>;
  /** The token that fills the padding (hidden by the attention mask, so any id will do). */
  padId: number;
  /** Read at every token: a cancel stops every row. */
  isCancelled(): boolean;
  numLayers: number;
  hiddenSize: number;
}

/** One prompt, already tokenised, with a budget that fits the context, and the seeds of its replies. */
export interface PromptSamples {
  ids: number[];
  options: GenerateOptions;
  seeds: readonly (number | string)[];
}

/**
 * Whether prompts may share one batch: the same sampling rule (seededSampler takes one temperature, top-p, min-p, top-k,
 * prompt boost, repetition penalty and bans) and no grammar (a grammar's matcher follows one row).
 */
export function shareOneBatch(options: readonly GenerateOptions[]): boolean {
  const first = samplingParams(options[0]);
  return options.every((o) => {
    const rule = samplingParams(o);
    return (
      !o.grammar &&
      rule.temperature === first.temperature &&
      rule.topP === first.topP &&
      rule.minP === first.minP &&
      rule.topK === first.topK &&
      rule.promptBoost === first.promptBoost &&
      rule.repetitionPenalty === first.repetitionPenalty &&
      sameBans(rule.banned, first.banned)
    );
  });
}

const sameBans = (a: readonly (readonly number[])[], b: readonly (readonly number[])[]): boolean =>
  a === b || (a.length === b.length && a.every((s, i) => s.length === b[i].length && s.every((t, j) => t === b[i][j])));

/**
 * Each row's first token, from its prompt's prefill logits ([P, V]): the row's own prompt boosted and penalised, the
 * padding not, and the banned tokens removed, so a row samples as a lone call for it would. A prompt's logits are shared
 * by its seeds' rows, so under a penalty or a ban each row changes a copy of them, never the shared ones. `tokensOf`
 * gives a prompt's distinct tokens.
 */
export function firstPicks(
  logits: Float32Array,
  V: number,
  rows: readonly { prompt: number; rng: Rng }[],
  tokensOf: (prompt: number) => Int32Array,
  params: Required<SamplingParams>,
): number[] {
  const copy = hasPenalties(params) || hasBans(params);
  return rows.map(({ prompt, rng }) => {
    const shared = logits.subarray(prompt * V, (prompt + 1) * V);
    const own = { prompt: () => tokensOf(prompt), seen: () => tokensOf(prompt), reply: () => [] };
    return pickToken(copy ? shared.slice() : shared, params, rng, own);
  });
}

/** Whether every tensor of a cache is in host memory, so that it can be copied row by row. */
const onCpu = (cache: Record<string, TF>): boolean => Object.values(cache).every((t) => t?.location === 'cpu' && t.data);

/** The cache of P prompts (dims [P, heads, seq, headDim]), prompt p's row repeated `copies[p]` times. */
function tileCache(tf: TF, cache: Record<string, TF>, copies: readonly number[]): TF {
  const tiled: Record<string, TF> = {};
  const rows = copies.reduce((a, b) => a + b, 0);
  for (const [name, t] of Object.entries(cache)) {
    const [b, ...rest] = t.dims as number[];
    if (b !== copies.length) throw new Error(`KV cache ${name} has batch ${b}, expected ${copies.length}`);
    const src = t.data as Float32Array;
    const size = src.length / b;
    const out = new (src.constructor as Float32ArrayConstructor)(size * rows);
    let at = 0;
    copies.forEach((k, p) => {
      const row = src.subarray(p * size, (p + 1) * size);
      for (let i = 0; i < k; i++) out.set(row, size * at++);
    });
    tiled[name] = new tf.Tensor(t.type, out, [rows, ...rest]);
  }
  return new tf.DynamicCache(tiled);
}

/**
 * The replies to each prompt, one per seed (the prompts must share one batch: shareOneBatch, and each must have room
 * in the context for the longest budget of all), or null when the cache is not on the CPU (the caller then makes one
 * call per reply).
 */
export async function sampleFromPrefills(host: SampleHost, prompts: readonly PromptSamples[]): Promise<GenerateResult[][] | null> {
  const { tf, model: m, tokenizer: tok, eosIds } = host;
  const first = prompts[0].options;
  const params = samplingParams(first);
  const P = prompts.length;
  const width = Math.max(...prompts.map((p) => p.ids.length));
  // The rows of the decoding: every prompt's samples, prompt by prompt.
  const rows = prompts.flatMap((p, prompt) => p.seeds.map((seed) => ({ prompt, rng: createRng(seed) as Rng })));
  const limits = rows.map(({ prompt }) => {
    const o = prompts[prompt].options;
    return { stops: (o.stop ?? []).filter((s) => s.length > 0), maxNewTokens: o.maxNewTokens ?? 64 };
  });
  const budget = Math.max(...limits.map((l) => l.maxNewTokens));
  const ends = new RowEnds(limits, { tokenizer: tok, eosIds, isCancelled: () => host.isCancelled() });
  const ids = new BigInt64Array(P * width).fill(BigInt(host.padId));
  const mask = new BigInt64Array(P * width);
  prompts.forEach((p, b) => {
    const pad = width - p.ids.length;
    p.ids.forEach((id, j) => {
      ids[b * width + pad + j] = BigInt(id);
      mask[b * width + pad + j] = 1n;
    });
  });
  const L1 = host.numLayers + 1;
  const H = host.hiddenSize;

  const tap = tapPrefill(m);
  let lastLogits: Float32Array | null = null;
  // The prefill's logits for each prompt's last position (left padding puts it last), before any processor.
  class Capture extends tf.LogitsProcessor {
    _call(_ids: unknown, logits: TF) {
      lastLogits = Float32Array.from(logits.data as Float32Array);
      return logits;
    }
  }
  const t0 = now();
  let generated: number[][];
  try {
    const prefill = await m.generate({
      input_ids: new tf.Tensor('int64', ids, [P, width]),
      attention_mask: new tf.Tensor('int64', mask, [P, width]),
      max_new_tokens: 1,
      ...PLAIN_STEP,
      logits_processor: [new Capture()],
      return_dict_in_generate: true,
    });
    const cache = prefill.past_key_values as Record<string, TF> & { dispose(): Promise<void> };
    prefill.sequences.dispose?.();
    if (!lastLogits || !onCpu(cache)) {
      await cache.dispose();
      return null;
    }
    const logits: Float32Array = lastLogits;
    const V = logits.length / P;
    // Built only where a penalty asks for them (pickToken).
    const promptTokens: Int32Array[] = [];
    const tokensOf = (p: number) => (promptTokens[p] ??= distinctTokens(prompts[p].ids));
    const firstTokens = firstPicks(logits, V, rows, tokensOf, params);
    generated = firstTokens.map((t) => [t]);
    firstTokens.forEach((t, r) => ends.check(r, [t]));
    if (!ends.allEnded) {
      const R = rows.length;
      const seq = new BigInt64Array(R * (width + 1));
      const rowMask = new BigInt64Array(R * (width + 1));
      rows.forEach(({ prompt }, r) => {
        seq.set(ids.subarray(prompt * width, (prompt + 1) * width), r * (width + 1));
        seq[r * (width + 1) + width] = BigInt(firstTokens[r]);
        rowMask.set(mask.subarray(prompt * width, (prompt + 1) * width), r * (width + 1));
        rowMask[r * (width + 1) + width] = 1n;
      });
      const out = await m.generate({
        input_ids: new tf.Tensor('int64', seq, [R, width + 1]),
        attention_mask: new tf.Tensor('int64', rowMask, [R, width + 1]),
        past_key_values: tileCache(
          tf,
          cache,
          prompts.map((p) => p.seeds.length),
        ),
        max_new_tokens: budget - 1,
        ...PLAIN_STEP,
        logits_processor: needsSampler(params)
          ? [
              seededSampler(tf, params, {
                rng: (r) => rows[r].rng,
                prompt: (r) => tokensOf(rows[r].prompt),
                before: (r) => [firstTokens[r]],
                ended: (r) => ends.hasEnded(r),
              }),
            ]
          : [],
        stopping_criteria: [ends.criterion(tf, width)],
      });
      const outWidth = out.dims[1];
      const all = Array.from(out.data as BigInt64Array, Number);
      out.dispose?.();
      generated = rows.map((_, r) => all.slice(r * outWidth + width, (r + 1) * outWidth));
    }
    await cache.dispose();
  } finally {
    tap.restore();
  }
  const prefillMs = tap.ms;
  const totalMs = now() - t0;
  // The tap holds [L+1, P, H] at the last position, which left padding makes every prompt's own last token.
  const states = tap.states && tap.states.length === L1 * P * H ? tap.states : null;
  const statesOf = (p: number): Float32Array | null => {
    if (!states) return null;
    const out = new Float32Array(L1 * H);
    for (let l = 0; l < L1; l++) out.set(states.subarray((l * P + p) * H, (l * P + p + 1) * H), l * H);
    return out;
  };
  const replies: GenerateResult[][] = prompts.map(() => []);
  rows.forEach(({ prompt }, r) => {
    const { text, tokens, finishReason } = ends.reply(r, generated[r]);
    const n = prompts[prompt].ids.length;
    replies[prompt].push({
      text,
      tokens,
      promptTokens: prompts[prompt].ids,
      prefillStates: statesOf(prompt),
      shape: [L1, H],
      finishReason,
      // The prefill and the decoding are shared: every reply reports the batch's time.
      timing: {
        promptTokens: n,
        newTokens: tokens.length,
        prefillMs,
        decodeMs: Math.max(0, totalMs - prefillMs),
        totalMs,
        prefillTokensPerSecond: prefillMs > 0 ? n / (prefillMs / 1000) : 0,
        decodeTokensPerSecond: 0,
      },
    });
  });
  return replies;
}
