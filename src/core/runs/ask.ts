/**
 * Generate → parse → retry: the one loop by which every LLM lab asks a model for a reply in a format. It checks for
 * cancellation before each try and after a generation that was cancelled, keeps every raw reply, and counts calls
 * and failures in the caller's counter, so that no lab writes the loop again.
 */
import type { ParseResult } from '../prompts/shared';
import type { ConstrainedReply } from '../prompts/formats';
import { isContextOverflow, type RunnerChatMessage, type RunnerModel } from './models';
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
  stop?: string[];
  signal?: AbortSignal;
  counter?: AskCounter;
  /**
   * Constrained decoding: the format's grammar (src/core/prompts/grammars.ts), which every try follows, and the tokens
   * its longest reply needs; the budget is raised to that, so that no constrained reply is cut short.
   */
  constrained?: ConstrainedReply;
}

export type AskResult<T> = { ok: true; value: T; raw: string[]; attempts: number } | { ok: false; reason: string; raw: string[]; attempts: number };

export async function askParsed<T>(model: Pick<RunnerModel, 'generate'>, o: AskOptions<T>): Promise<AskResult<T>> {
  const raw: string[] = [];
  let reason = 'no reply';
  for (let attempt = 0; attempt < Math.max(1, o.attempts); attempt++) {
    throwIfAborted(o.signal);
    if (o.counter) o.counter.calls++;
    let r;
    try {
      r = await model.generate({
        messages: o.messages,
        temperature: typeof o.temperature === 'function' ? o.temperature(attempt) : o.temperature,
        maxNewTokens: o.constrained ? Math.max(o.maxNewTokens, o.constrained.minTokens) : o.maxNewTokens,
        seed: o.seed(attempt),
        ...(o.topP !== undefined ? { topP: o.topP } : {}),
        ...(o.stop ? { stop: o.stop } : {}),
        ...(o.constrained ? { grammar: o.constrained.grammar } : {}),
      });
    } catch (e) {
      // A prompt longer than the model's context fails every try alike: a failed reply, not a failed run.
      if (!isContextOverflow(e)) throw e;
      if (o.counter) o.counter.failures++;
      return { ok: false, reason: e.message, raw, attempts: attempt + 1 };
    }
    if (r.finishReason === 'cancelled') throw new CancelledError();
    raw.push(r.text);
    const p = o.parse(r.text);
    if (p.ok) return { ok: true, value: p.value, raw, attempts: attempt + 1 };
    reason = p.reason;
  }
  if (o.counter) o.counter.failures++;
  return { ok: false, reason, raw, attempts: raw.length };
}
