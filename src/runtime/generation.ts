/**
 * Pieces shared by the runtime's generate() and its batched sampler (samples.ts): reading tensors, the forward
 * wrapper that takes the prefill's hidden states from the tap output, and the seeded sampler.
 */
import type { Rng } from '../core/rng';
import { TAP_OUTPUT } from '../core/onnx/taps';
import { hasBans, pickToken, type SamplingParams } from './sampling';

/* eslint-disable @typescript-eslint/no-explicit-any -- transformers.js models and tensors are typed loosely here */
type TF = any;

export const now = () => performance.now();

/**
 * transformers.js generation settings under which its own step is a plain argmax: the runtime's logits processors do
 * the sampling (seededSampler, with the model's prompt boost, repetition penalty and bans) and the grammar masking,
 * and transformers.js adds no penalty or ban of its own (it would read bad_words_ids from the model's file unchecked).
 */
export const PLAIN_STEP = {
  do_sample: false,
  num_beams: 1,
  repetition_penalty: 1,
  no_repeat_ngram_size: 0,
  bad_words_ids: null,
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

/** What the seeded sampler needs of each batch row. */
export interface SamplerRows {
  rng(row: number): Rng;
  /**
   * The row's prompt tokens (distinctTokens): the ones the prompt boost raises, and the repetition penalty's first.
   * Asked for only under a penalty, so a caller may build them on the first call.
   */
  prompt(row: number): Int32Array;
  /** Tokens the row generated before the processor's first call (the batched sampler draws the first itself). */
  before?(row: number): readonly number[];
  /** Whether the row has stopped: its later tokens are thrown away, so it is not sampled (nor its Rng drawn). */
  ended?(row: number): boolean;
}

/**
 * A logits processor that samples each batch row with its own seeded Rng and masks every other token, after which
 * transformers.js's greedy step picks the sampled one (sampling.ts says why the runtime samples itself). Before the
 * draw, the row's prompt tokens are boosted, the tokens of its own sequence so far penalised and the banned sequences
 * removed, as the rule asks:
 * each row counts its own prompt and picks, never the padding or another row's, so a row samples as a lone call would.
 */
export function seededSampler(tf: TF, params: SamplingParams, rows: SamplerRows): TF {
  const penalty = params.repetitionPenalty ?? 1;
  const seen: Set<number>[] = [];
  const seenOf = (b: number) => (seen[b] ??= new Set([...rows.prompt(b), ...(rows.before?.(b) ?? [])]));
  const bans = hasBans(params);
  const replies: number[][] = [];
  const replyOf = (b: number) => (replies[b] ??= [...(rows.before?.(b) ?? [])]);
  class SeededSampler extends tf.LogitsProcessor {
    _call(_ids: unknown, logits: TF) {
      const V = logits.dims.at(-1);
      const data = logits.data as Float32Array;
      for (let b = 0; b * V < data.length; b++) {
        const row = data.subarray(b * V, (b + 1) * V);
        let pick = 0;
        if (!rows.ended?.(b)) {
          pick = pickToken(row, params, rows.rng(b), { prompt: () => rows.prompt(b), seen: () => seenOf(b), reply: () => replyOf(b) });
          if (penalty !== 1) seenOf(b).add(pick);
          if (bans) replyOf(b).push(pick);
        }
        const v = row[pick];
        row.fill(-Infinity);
        row[pick] = Number.isFinite(v) ? v : 0;
      }
      return logits;
    }
  }
  return new SeededSampler();
}

export type FinishReason = 'eos' | 'stop' | 'length' | 'cancelled';

/** What ends one row of a batched generation: its stop strings and its budget of new tokens. */
export interface RowLimits {
  stops: readonly string[];
  maxNewTokens: number;
}

/**
 * Where each row of a batched generation ended, and why. transformers.js decodes every row until all have stopped, so
 * a row that stopped early goes on producing tokens: its reply is cut back to where it stopped, which is where a lone
 * call for that row would have stopped (samples.ts, batch.ts).
 */
export class RowEnds {
  private readonly ended: (FinishReason | null)[];
  private readonly stoppedAt: number[];

  constructor(
    private readonly rows: readonly RowLimits[],
    private readonly host: { tokenizer: TF; eosIds: ReadonlySet<number>; isCancelled(): boolean },
  ) {
    this.ended = rows.map(() => null);
    this.stoppedAt = rows.map(() => Infinity);
  }

  /** The visible text of generated tokens (end-of-sequence tokens dropped). */
  textOf(gen: readonly number[]): string {
    const visible = gen.filter((t) => !this.host.eosIds.has(t));
    return visible.length ? (this.host.tokenizer.decode(visible, { skip_special_tokens: true }) as string) : '';
  }

  /** Whether row `b`, having generated `gen`, has stopped (now or before); records why the first time. */
  check(b: number, gen: readonly number[]): boolean {
    if (this.ended[b]) return true;
    const why = this.reason(b, gen);
    if (!why) return false;
    this.ended[b] = why;
    this.stoppedAt[b] = gen.length;
    return true;
  }

  private reason(b: number, gen: readonly number[]): FinishReason | null {
    const { stops, maxNewTokens } = this.rows[b];
    if (this.host.isCancelled()) return 'cancelled';
    if (gen.length && this.host.eosIds.has(gen[gen.length - 1])) return 'eos';
    if (stops.length && stops.some((s) => this.textOf(gen).includes(s))) return 'stop';
    if (gen.length >= maxNewTokens) return 'length';
    return null;
  }

  /** Whether row `b` has stopped (its later tokens are thrown away). */
  hasEnded(b: number): boolean {
    return this.ended[b] !== null;
  }

  get allEnded(): boolean {
    return this.ended.every((e) => e !== null);
  }

  /** transformers.js's stopping criterion over the batch; each row's generated tokens start at `promptWidth`. */
  criterion(tf: TF, promptWidth: number): TF {
    const check = (b: number, gen: number[]) => this.check(b, gen);
    class RowStopper extends tf.StoppingCriteria {
      _call(all: bigint[][]) {
        return all.map((row, b) => check(b, row.slice(promptWidth).map(Number)));
      }
    }
    return new RowStopper();
  }

  /** Row `b`'s reply from its raw tokens: cut to where it stopped, and its text cut before the first stop string. */
  reply(b: number, raw: readonly number[]): { text: string; tokens: number[]; finishReason: FinishReason } {
    const tokens = raw.slice(0, this.stoppedAt[b]);
    let text = this.textOf(tokens);
    const cut = this.rows[b].stops.map((s) => text.indexOf(s)).filter((i) => i >= 0);
    if (cut.length) text = text.slice(0, Math.min(...cut));
    return { text, tokens, finishReason: this.host.isCancelled() ? 'cancelled' : (this.ended[b] ?? 'length') };
  }
}
