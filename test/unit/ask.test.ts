/** askParsed: the one generate → parse → retry loop of the LLM labs. */
import { describe, expect, it } from 'vitest';
import { askParsed, askParsedEach, type AskCounter } from '../../src/core/runs/ask';
import { CancelledError } from '../../src/core/cancel';
import { fail, ok } from '../../src/core/prompts/shared';
import { ContextOverflowError, type RunnerGenerateOptions, type RunnerGenerateResult, type RunnerSampleRequest } from '../../src/core/runs/models';

/** A scripted model: replies in order, and records what it was asked. */
function scripted(replies: string[], finish: RunnerGenerateResult['finishReason'] = 'eos') {
  const asked: RunnerGenerateOptions[] = [];
  return {
    asked,
    async generate(o: RunnerGenerateOptions): Promise<RunnerGenerateResult> {
      asked.push(o);
      return {
        text: replies[asked.length - 1] ?? '',
        prefillStates: null,
        shape: [0, 0],
        timing: { promptTokens: 1, newTokens: 1, totalMs: 0 },
        finishReason: finish,
      };
    },
  };
}
const number = (t: string) => (/^\d+$/.test(t.trim()) ? ok(Number(t)) : fail(`not a number: "${t}"`));
const base = { messages: [{ role: 'user' as const, content: 'A number?' }], parse: number, maxNewTokens: 8 };

describe('askParsed', () => {
  it("retries until a reply parses, with each try's own seed and temperature, and keeps every raw reply", async () => {
    const m = scripted(['many', 'lots', '42']);
    const counter: AskCounter = { calls: 0, failures: 0 };
    const r = await askParsed(m, { ...base, attempts: 3, temperature: (a) => (a === 0 ? 0 : 0.7), seed: (a) => `s/${a}`, counter });
    expect(r).toEqual({ ok: true, value: 42, raw: ['many', 'lots', '42'], attempts: 3 });
    expect(m.asked.map((o) => [o.seed, o.temperature])).toEqual([
      ['s/0', 0],
      ['s/1', 0.7],
      ['s/2', 0.7],
    ]);
    expect(counter).toEqual({ calls: 3, failures: 0 });
  });

  it('gives up after its tries with the last reason, and counts one failure', async () => {
    const counter: AskCounter = { calls: 0, failures: 0 };
    const r = await askParsed(scripted(['a', 'b']), { ...base, attempts: 2, temperature: 0.7, seed: (a) => a, counter });
    expect(r).toEqual({ ok: false, reason: 'not a number: "b"', raw: ['a', 'b'], attempts: 2 });
    expect(counter).toEqual({ calls: 2, failures: 1 });
  });

  it('a prompt longer than the context is a failed reply (no retry), also when the error crossed a worker; other errors still throw', async () => {
    for (const thrown of [
      new ContextOverflowError('The prompt has 1070 tokens'),
      Object.assign(new Error('The prompt has 1070 tokens'), { name: 'ContextOverflowError' }),
    ]) {
      let calls = 0;
      const model = {
        generate: async () => {
          calls++;
          throw thrown;
        },
      };
      const counter: AskCounter = { calls: 0, failures: 0 };
      const r = await askParsed(model, { ...base, attempts: 3, temperature: 0.7, seed: (a) => a, counter });
      expect(r).toEqual({ ok: false, reason: 'The prompt has 1070 tokens', raw: [], attempts: 1, contextOverflow: true });
      expect([calls, counter.calls, counter.failures]).toEqual([1, 1, 1]);
    }
    const broken = {
      generate: async () => {
        throw new Error('worker crashed');
      },
    };
    await expect(askParsed(broken, { ...base, attempts: 3, temperature: 0, seed: () => 1 })).rejects.toThrow('worker crashed');
  });

  it('stops when cancelled: before a try, and after a generation that was cancelled', async () => {
    await expect(askParsed(scripted(['1']), { ...base, attempts: 2, temperature: 0, seed: () => 1, signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      CancelledError,
    );
    await expect(askParsed(scripted(['1'], 'cancelled'), { ...base, attempts: 2, temperature: 0, seed: () => 1 })).rejects.toBeInstanceOf(CancelledError);
  });
});

describe('askParsedEach', () => {
  /** A model that answers each request by its seed (a table), and records every batch it was given. */
  function byseed(table: Record<string, string>, overflow = new Set<string>()) {
    const batches: string[][] = [];
    const reply = (o: RunnerGenerateOptions): RunnerGenerateResult => {
      if (overflow.has(String(o.seed))) throw new ContextOverflowError(`prompt ${String(o.seed)} is too long`);
      return {
        text: table[String(o.seed)] ?? '',
        prefillStates: null,
        shape: [0, 0],
        timing: { promptTokens: 1, newTokens: 1, totalMs: 0 },
        finishReason: 'eos',
      };
    };
    return {
      batches,
      async generate(o: RunnerGenerateOptions) {
        batches.push([String(o.seed)]);
        return reply(o);
      },
      async generateSamples(rs: readonly RunnerSampleRequest[]) {
        batches.push(rs.map((r) => String(r.seeds[0])));
        return rs.map((r) => r.seeds.map((seed) => reply({ ...r.options, seed })));
      },
    };
  }
  const ask = (who: string, counter: AskCounter, attempts = 3) => ({ ...base, attempts, temperature: 0.7, seed: (a: number) => `${who}/${a}`, counter });

  it('asks every unanswered request in one batch per try, each with its own seeds, and gives what askParsed alone gives', async () => {
    const table = { 'a/0': '1', 'b/0': 'no', 'b/1': '2', 'c/0': 'x', 'c/1': 'y', 'c/2': 'z' };
    const counter: AskCounter = { calls: 0, failures: 0 };
    const m = byseed(table);
    const got = await askParsedEach(m, [ask('a', counter), ask('b', counter), ask('c', counter)]);
    expect(m.batches).toEqual([['a/0', 'b/0', 'c/0'], ['b/1', 'c/1'], ['c/2']]);
    const alone: AskCounter = { calls: 0, failures: 0 };
    const one = byseed(table);
    expect(got).toEqual([await askParsed(one, ask('a', alone)), await askParsed(one, ask('b', alone)), await askParsed(one, ask('c', alone))]);
    expect(got.map((r) => r.ok)).toEqual([true, true, false]);
    expect(counter).toEqual({ calls: 6, failures: 1 });
    expect(alone).toEqual(counter);
  });

  it('a request that overflows the context fails alone; the others are still answered', async () => {
    const counter: AskCounter = { calls: 0, failures: 0 };
    const m = byseed({ 'a/0': '7', 'c/0': '9' }, new Set(['b/0']));
    const got = await askParsedEach(m, [ask('a', counter), ask('b', counter), ask('c', counter)]);
    expect(got).toEqual([
      { ok: true, value: 7, raw: ['7'], attempts: 1 },
      { ok: false, reason: 'prompt b/0 is too long', raw: [], attempts: 1, contextOverflow: true },
      { ok: true, value: 9, raw: ['9'], attempts: 1 },
    ]);
    // The batch failed, so each request was asked alone to find which one does not fit.
    expect(m.batches).toEqual([['a/0', 'b/0', 'c/0'], ['a/0'], ['b/0'], ['c/0']]);
    expect(counter).toEqual({ calls: 3, failures: 1 });
  });
});
