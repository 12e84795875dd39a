/**
 * KV caches kept between generate() calls that name the same conversation (GenerateOptions.cacheKey). A Synchrony
 * agent's prompt at its next turn is its last prompt with two turns added: the chat template re-renders the whole
 * history, so the new prompt shares a long first part with the old one (up to where the old dialogue ended), not all
 * of it. The kept cache is cut back to that shared part, and only the rest is fed (transformers.js continues from a
 * DynamicCache and feeds the tokens past its length; position ids follow from the attention mask). On the Synchrony
 * preset, on WASM in Node, reading the prompts again took 37.6 s of the turns' 67 s, and 13.4 s from kept caches
 * (docs/runtime.md, "Where a Synchrony turn's time goes").
 *
 * A cached prefix sums in another order than a fresh prompt, so states and logits may differ in the last bits: the same
 * calls in the same order give the same numbers, which is what a run's reproducibility rests on.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- transformers.js caches and tensors are typed loosely here */
type TF = any;

/** Shorter shared parts are read again from scratch: cutting the cache would cost about what it saves. */
const MIN_REUSED = 16;

interface Kept {
  /** The tokens whose keys and values the cache holds, in order. */
  tokens: number[];
  cache: TF;
}

/** Length of the longest common first part of two token lists. */
export function sharedPrefixLength(a: readonly number[], b: readonly number[]): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

export class ConversationCaches {
  private readonly kept = new Map<string, Kept>();

  /**
   * @param limit conversations kept at once; the one used longest ago is dropped first. A Synchrony dialogue has two
   *   (its agents; a passive reader's encode() forgets its own when done), and the run engine finishes an episode
   *   before the next on a model copy, so the next episode's agents push out the last one's. Which caches are kept
   *   follows from the order of the calls alone, so a run's numbers do not depend on it.
   */
  constructor(
    private readonly tf: TF,
    private readonly limit = 2,
  ) {}

  /**
   * The cache to continue from for the prompt `ids`, cut to the part it shares with them (always leaving at least
   * one token to feed, whose states the tap reads), or null to start fresh. The kept entry is handed over: the caller
   * keeps it again after generating, or it is gone.
   */
  async take(key: string, ids: readonly number[]): Promise<{ cache: TF; reused: number } | null> {
    const got = this.kept.get(key);
    if (!got) return null;
    this.kept.delete(key);
    const reused = Math.min(sharedPrefixLength(got.tokens, ids), ids.length - 1);
    if (reused < MIN_REUSED) {
      await got.cache.dispose();
      return null;
    }
    if (reused === got.tokens.length) return { cache: got.cache, reused };
    const cache = await this.cropped(got.cache, reused);
    return cache ? { cache, reused } : null;
  }

  /** Keeps `cache` (which holds the first `cache.get_seq_length()` of `tokens`) for the next call under `key`. */
  async keep(key: string, tokens: readonly number[], cache: TF): Promise<void> {
    const length = cache.get_seq_length();
    await this.forget(key);
    this.kept.set(key, { tokens: tokens.slice(0, length), cache });
    while (this.kept.size > this.limit) await this.forget(this.kept.keys().next().value as string);
  }

  async forget(key?: string): Promise<void> {
    const keys = key === undefined ? [...this.kept.keys()] : [key];
    for (const k of keys) {
      const got = this.kept.get(k);
      this.kept.delete(k);
      await got?.cache.dispose();
    }
  }

  /**
   * A new cache with every entry cut to its first `length` positions (axis 2 of [batch, heads, positions, head size]),
   * or null (the cache dropped) when it holds anything else, such as a recurrent model's state, which cannot be cut.
   */
  private async cropped(cache: TF, length: number): Promise<TF | null> {
    const all = Object.entries(cache) as [string, TF][];
    if (!all.every(([name, t]) => name.startsWith('past_key_values.') && t.dims.length === 4)) {
      await cache.dispose();
      return null;
    }
    const entries: Record<string, TF> = {};
    try {
      for (const [name, t] of all) {
        // On WebGPU the cache lives on the GPU: it comes back to the host once (getData(true) frees the GPU copy),
        // and the cut part goes back up as the next call's input.
        const host = t.location === 'gpu-buffer' ? new this.tf.Tensor(t.type, await t.ort_tensor.getData(true), t.dims) : t;
        entries[name] = host.slice(null, null, [0, length], null);
      }
    } catch (e) {
      await cache.dispose(); // what was not yet read back
      throw e;
    }
    return new this.tf.DynamicCache(entries);
  }
}
