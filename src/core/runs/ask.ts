/**
 * Generate → parse → retry: the one loop by which every LLM lab asks a model for a reply in a format. It checks for
 * cancellation before each try and after a generation that was cancelled, keeps every raw reply, and counts calls
 * and failures in the caller's counter, so that no lab writes the loop again.
 */
import type { ParseResult } from '../prompts/shared';
import type { ConstrainedReply } from '../prompts/formats';
import { generateEach, isContextOverflow, type RunnerChatMessage, type RunnerGenerateOptions, type RunnerGenerateResult, type RunnerModel } from './models';
import { CancelledError, throwIfAborted } from '../cancel';

/** Calls made and replies that no try could parse, summed over a run's questions. */
export interface AskCounter {
  calls: number;
  failures: number;
}

export interface AskOptions<T> {
  messages: RunnerChatMessage[];
  parse: (raw: string) => ParseResult<T>;
  /** How many tries in all (at least 1). */
  attempts: number;
  maxNewTokens: number;
  /** The sampling temperature of each try (0-based), or one for all. */
  temperature: number | ((attempt: number) => number);
  /** The sampling seed of each try (0-based): a run repeats exactly when its seeds do. */
  seed: (attempt: number) => number | string;
  topP?: number;
  minP?: number;
  stop?: string[];
  signal?: AbortSignal;
  counter?: AskCounter;
  /**
   * Constrained decoding: the format's grammar (src/core/prompts/grammars.ts), which every try follows, and the tokens
   * its longest reply needs; the budget is raised to that, so that no constrained reply is cut short.
   */
  constrained?: ConstrainedReply;
}

export type AskResult<T> =
  | { ok: true; value: T; raw: string[]; attempts: number }
  /** `contextOverflow`: the prompt did not fit the model's context (no reply was generated). */
  | { ok: false; reason: string; raw: string[]; attempts: number; contextOverflow?: true };

/** Asks for one reply in a format: generate, parse, and try again with the next seed until a reply parses. */
export async function askParsed<T>(model: Pick<RunnerModel, 'generate'>, o: AskOptions<T>): Promise<AskResult<T>> {
  const [result] = await askParsedEach(model, [o]);
  return result;
}

/**
 * askParsed for several requests at once (the Opinions lab's agents each writing a message): each try goes to the
 * model as one batch of the requests still unanswered (`generateEach`), so a host that decodes a batch together pays
 * one decoding loop per try instead of one per request. Each request keeps its own seeds, so its replies are the ones
 * askParsed alone would get.
 */
export async function askParsedEach<T>(model: Pick<RunnerModel, 'generate' | 'generateSamples'>, asks: readonly AskOptions<T>[]): Promise<AskResult<T>[]> {
  const results: (AskResult<T> | null)[] = asks.map(() => null);
  const raws: string[][] = asks.map(() => []);
  const reasons: string[] = asks.map(() => 'no reply');
  const fail = (i: number, reason: string, attempts: number, contextOverflow = false) => {
    const counter = asks[i].counter;
    if (counter) counter.failures++;
    results[i] = { ok: false, reason, raw: raws[i], attempts, ...(contextOverflow ? { contextOverflow: true as const } : {}) };
  };
  for (let attempt = 0; ; attempt++) {
    const pending = asks.flatMap((o, i) => (results[i] === null && attempt < Math.max(1, o.attempts) ? [i] : []));
    if (!pending.length) break;
    for (const i of pending) {
      throwIfAborted(asks[i].signal);
      if (asks[i].counter) asks[i].counter.calls++;
    }
    const replies = await generateOrOverflow(
      model,
      pending.map((i) => request(asks[i], attempt)),
    );
    pending.forEach((i, j) => {
      const r = replies[j];
      // A prompt longer than the model's context fails every try alike: a failed reply, not a failed run.
      if (r instanceof Error) return fail(i, r.message, attempt + 1, true);
      if (r.finishReason === 'cancelled') throw new CancelledError();
      raws[i].push(r.text);
      const p = asks[i].parse(r.text);
      if (p.ok) results[i] = { ok: true, value: p.value, raw: raws[i], attempts: attempt + 1 };
      else reasons[i] = p.reason;
    });
  }
  return asks.map((_, i) => results[i] ?? (fail(i, reasons[i], raws[i].length), results[i]!));
}

function request<T>(o: AskOptions<T>, attempt: number): RunnerGenerateOptions {
  return {
    messages: o.messages,
    temperature: typeof o.temperature === 'function' ? o.temperature(attempt) : o.temperature,
    maxNewTokens: o.constrained ? Math.max(o.maxNewTokens, o.constrained.minTokens) : o.maxNewTokens,
    seed: o.seed(attempt),
    ...(o.topP !== undefined ? { topP: o.topP } : {}),
    ...(o.minP !== undefined ? { minP: o.minP } : {}),
    ...(o.stop ? { stop: o.stop } : {}),
    ...(o.constrained ? { grammar: o.constrained.grammar } : {}),
  };
}

/** Each request's reply, or the context-overflow error of a request that does not fit (asked alone, to find which). */
async function generateOrOverflow(
  model: Pick<RunnerModel, 'generate' | 'generateSamples'>,
  requests: RunnerGenerateOptions[],
): Promise<(RunnerGenerateResult | Error)[]> {
  try {
    return await generateEach(model, requests);
  } catch (e) {
    if (!isContextOverflow(e)) throw e;
    if (requests.length === 1) return [e];
  }
  const out: (RunnerGenerateResult | Error)[] = [];
  for (const r of requests) out.push(await generateOrOverflow(model, [r]).then(([x]) => x));
  return out;
}
