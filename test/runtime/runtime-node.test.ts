/**
 * The model runtime in Node (onnxruntime-node CPU) on the embedded model, against the PyTorch fixture written by the
 * embedded model's build (models/tiny-social/reference.json).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { createNodeRuntime, MODELS_DIR } from '../../src/runtime/node';
import type { ModelRuntime } from '../../src/runtime/runtime';
import { ContextOverflowError } from '../../src/core/runs/models';
import type { HiddenStateCase, HiddenStateFixture } from '../../src/runtime/fixture';

type Case = HiddenStateCase;
const fixture = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../models/tiny-social/reference.json'), 'utf8')) as HiddenStateFixture;
const L1 = fixture.num_layers + 1;
const H = fixture.hidden_size;
const input = (c: Case) => (c.kind === 'chat' ? { messages: c.messages! } : { prompt: c.text });

function maxAbsDiff(a: Float32Array, rows: number[][]): number {
  const flat = rows.flat();
  expect(a.length).toBe(flat.length);
  let m = 0;
  for (let i = 0; i < flat.length; i++) m = Math.max(m, Math.abs(a[i] - flat[i]));
  return m;
}

describe('Node runtime, cpu fp32, embedded model', () => {
  let rt: ModelRuntime;
  let contextLength: number | undefined;
  beforeAll(async () => {
    rt = createNodeRuntime();
    const info = await rt.load('tiny-social', { device: 'cpu', dtype: 'fp32' });
    expect(info).toMatchObject({ id: 'tiny-social', backend: 'cpu', dtype: 'fp32', numLayers: fixture.num_layers, hiddenSize: H, tapStyles: ['optimum'] });
    contextLength = info.contextLength;
  });
  afterAll(() => rt?.dispose());

  it('tokenizes every fixture prompt (chat template included) to the fixture ids', () => {
    for (const c of fixture.cases) expect(rt.tokenize(input(c))).toEqual(c.input_ids);
  });

  it('prefill states from generate() match PyTorch within 1e-5, and greedy tokens match', async () => {
    for (const c of fixture.cases) {
      const r = await rt.generate({ ...input(c), maxNewTokens: c.greedy_continuation.length });
      expect(r.promptTokens).toEqual(c.input_ids);
      expect(r.shape).toEqual([L1, H]);
      expect(maxAbsDiff(r.prefillStates!, c.hidden_last_token)).toBeLessThanOrEqual(fixture.tolerances.fp32.hidden_max_abs);
      expect(r.tokens).toEqual(c.greedy_continuation);
      expect(r.timing.newTokens).toBe(c.greedy_continuation.length);
    }
  });

  it('encode() left-pads a batch of different lengths and matches PyTorch row by row', async () => {
    const prompts = fixture.cases.filter((c) => c.kind === 'plain').map((c) => c.text);
    const chats = fixture.cases.filter((c) => c.kind === 'chat');
    const plain = await rt.encode(prompts, { batchSize: 4 });
    expect(plain.shape).toEqual([prompts.length, L1, H]);
    expect(new Set(plain.lengths).size).toBeGreaterThan(1); // the batch really is padded
    fixture.cases
      .filter((c) => c.kind === 'plain')
      .forEach((c, i) =>
        expect(maxAbsDiff(plain.data.subarray(i * L1 * H, (i + 1) * L1 * H), c.hidden_last_token)).toBeLessThanOrEqual(fixture.tolerances.fp32.hidden_max_abs),
      );
    const chat = await rt.encode(
      chats.map((c) => c.messages![0].content),
      { chatTemplate: true, batchSize: 2 },
    );
    chats.forEach((c, i) =>
      expect(maxAbsDiff(chat.data.subarray(i * L1 * H, (i + 1) * L1 * H), c.hidden_last_token)).toBeLessThanOrEqual(fixture.tolerances.fp32.hidden_max_abs),
    );
  });

  it('seeded sampling reproduces: same seed → same text, different seeds → different texts', async () => {
    const opts = { prompt: fixture.cases[2].text, temperature: 1.0, maxNewTokens: 16 };
    const a = await rt.generate({ ...opts, seed: 7 });
    const b = await rt.generate({ ...opts, seed: 7 });
    expect(b.tokens).toEqual(a.tokens);
    expect(b.text).toBe(a.text);
    const others = await Promise.all([8, 9, 10].map((seed) => rt.generate({ ...opts, seed })));
    expect(others.some((o) => o.tokens.join() !== a.tokens.join())).toBe(true);
  });

  it('stops at a stop string and cuts the text before it', async () => {
    const free = await rt.generate({ prompt: fixture.cases[3].text, temperature: 1, seed: 3, maxNewTokens: 24 });
    const stop = free.text.trim().slice(0, 2) || free.text.slice(0, 1);
    expect(stop.length).toBeGreaterThan(0);
    const r = await rt.generate({ prompt: fixture.cases[3].text, temperature: 1, seed: 3, maxNewTokens: 24, stop: [stop] });
    expect(r.finishReason).toBe('stop');
    expect(r.text.includes(stop)).toBe(false);
    expect(r.tokens.length).toBeLessThanOrEqual(free.tokens.length);
  });

  it('cancel() stops a running generate at the next token', async () => {
    let calls = 0;
    const r = await rt.generate({ prompt: fixture.cases[2].text, temperature: 1, seed: 1, maxNewTokens: 40 }, () => {
      if (++calls === 3) void rt.cancel();
    });
    expect(r.finishReason).toBe('cancelled');
    expect(r.tokens.length).toBeLessThanOrEqual(4);
    // the next call is not affected
    expect((await rt.generate({ prompt: fixture.cases[2].text, maxNewTokens: 5 })).finishReason).not.toBe('cancelled');
  });

  it('scoreText gives per-token log-likelihoods consistent with greedy decoding', async () => {
    const c = fixture.cases[2];
    const greedy = await rt.generate({ prompt: c.text, maxNewTokens: 3 });
    const s = await rt.scoreText(c.text, greedy.text);
    expect(s.tokens.length).toBeGreaterThan(0);
    expect(s.logProbs.length).toBe(s.tokens.length);
    for (const lp of s.logProbs) expect(lp).toBeLessThanOrEqual(0);
    expect(s.total).toBeCloseTo(
      s.logProbs.reduce((a, b) => a + b, 0),
      9,
    );
    // a greedy token is the argmax, so its probability is at least 1/V
    if (s.tokens[0] === greedy.tokens[0]) expect(s.logProbs[0]).toBeGreaterThanOrEqual(-Math.log(3072));
  });

  it('a generation that is only the end token gives empty text and finishReason eos', async () => {
    // the fixture's greedy continuations: find one that is one token then eos, and feed that token back
    const c = fixture.cases.find((x) => x.greedy_continuation.length === 2 && fixture.eos_token_ids.includes(x.greedy_continuation[1]));
    if (!c) return; // the fixture has no such case (depends on the trained model)
    const ids = c.input_ids.concat(c.greedy_continuation[0]);
    const r = await rt.generate({ prompt: c.text + rt.decodeTokens([c.greedy_continuation[0]]), maxNewTokens: 3 });
    expect(r.promptTokens).toEqual(ids);
    expect(r.tokens).toEqual([c.greedy_continuation[1]]);
    expect(r.text).toBe('');
    expect(r.finishReason).toBe('eos');
  });

  it("cuts a reply at the model's context and refuses a prompt that fills it, with a clear message", async () => {
    expect(contextLength).toBe(1024);
    const ctx = 1024;
    // A prompt a few tokens short of the context: the reply may only take what is left, whatever was asked.
    let words = 'the lamp is for sale and the price is fair '.repeat(200).split(' ');
    while (rt.tokenize({ prompt: words.join(' ') }).length > ctx - 5) words = words.slice(0, -1);
    const prompt = words.join(' ');
    const left = ctx - rt.tokenize({ prompt }).length;
    const r = await rt.generate({ prompt, maxNewTokens: 400 });
    expect(r.timing.newTokens).toBeLessThanOrEqual(left);
    await expect(rt.generate({ prompt: `${prompt} ${prompt}`, maxNewTokens: 4 })).rejects.toThrow(ContextOverflowError);
    await expect(rt.generate({ prompt: `${prompt} ${prompt}`, maxNewTokens: 4 })).rejects.toThrow(/reads at most 1024/);
  });

  it('refuses empty prompts with a clear error', async () => {
    await expect(rt.generate({ prompt: '' })).rejects.toThrow(/empty/);
    await expect(rt.encode(['ok', ''])).rejects.toThrow(/prompt 1 is empty/);
  });

  it("a conversation's kept KV cache gives the fresh prefill's states and tokens, reading only the new part", async () => {
    const context = fixture.cases.find((c) => c.kind === 'plain')!.text;
    const turn1 = { messages: [{ role: 'user' as const, content: `${context}\nTurn 1: Ines said: Hello Odo.` }], maxNewTokens: 8 };
    const turn2 = { messages: [{ role: 'user' as const, content: `${turn1.messages[0].content}\nTurn 2: Odo said: Hi Ines, how much?` }], maxNewTokens: 8 };
    const fresh = await rt.generate(turn2);
    const first = await rt.generate({ ...turn1, cacheKey: 'ines' });
    expect(first.timing.reusedTokens).toBeUndefined();
    const again = await rt.generate({ ...turn2, cacheKey: 'ines' });
    // The shared part: the first prompt's tokens up to where the two prompts part (the template's end of turn).
    const ids1 = rt.tokenize(turn1);
    const ids2 = rt.tokenize(turn2);
    let shared = 0;
    while (ids1[shared] === ids2[shared]) shared++;
    expect(shared).toBeGreaterThan(16);
    expect(again.timing.reusedTokens).toBe(shared);
    expect(again.promptTokens).toEqual(fresh.promptTokens);
    expect(maxAbsDiff(again.prefillStates!, [Array.from(fresh.prefillStates!)])).toBeLessThanOrEqual(1e-4);
    expect(again.tokens).toEqual(fresh.tokens);
    // Another key, or none, reads the whole prompt.
    expect((await rt.generate({ ...turn2, cacheKey: 'odo' })).timing.reusedTokens).toBeUndefined();
    expect((await rt.generate(turn2)).timing.reusedTokens).toBeUndefined();
    // A prompt that shares almost nothing with the kept one starts afresh.
    expect((await rt.generate({ prompt: 'Something else entirely.', maxNewTokens: 2, cacheKey: 'ines' })).timing.reusedTokens).toBeUndefined();
    // A cancelled call keeps what it read: the next one continues from it, to the same states.
    await rt.generate({ ...turn1, cacheKey: 'ines' });
    let calls = 0;
    const stopped = await rt.generate({ ...turn1, temperature: 1, seed: 1, maxNewTokens: 40, cacheKey: 'ines' }, () => {
      if (++calls === 2) void rt.cancel();
    });
    expect(stopped.finishReason).toBe('cancelled');
    const after = await rt.generate({ ...turn2, cacheKey: 'ines' });
    expect(after.timing.reusedTokens).toBe(shared);
    expect(maxAbsDiff(after.prefillStates!, [Array.from(fresh.prefillStates!)])).toBeLessThanOrEqual(1e-4);
    expect(after.tokens).toEqual(fresh.tokens);
    // The penalties count the whole prompt, the part read from the kept cache too: the same reply as a fresh call.
    const penalised = { ...turn2, repetitionPenalty: 1.5, promptBoost: 1.3 };
    const freshPenalised = await rt.generate(penalised);
    expect(freshPenalised.tokens).not.toEqual(fresh.tokens);
    await rt.generate({ ...turn1, cacheKey: 'ines' });
    const kept = await rt.generate({ ...penalised, cacheKey: 'ines' });
    expect(kept.timing.reusedTokens).toBe(shared);
    expect(kept.tokens).toEqual(freshPenalised.tokens);
  });

  it('encode() with a cache key reads a growing conversation turn by turn, to the batch states', async () => {
    const context = fixture.cases.find((c) => c.kind === 'plain')!.text;
    const lines = ['Turn 1: Ines said: Hello Odo.', 'Turn 2: Odo said: Hi Ines, how much?', 'Turn 3: Ines said: Forty euros.'];
    const prompts = lines.map((_, i) => [context, ...lines.slice(0, i + 1)].join('\n'));
    const batch = await rt.encode(prompts, { chatTemplate: true });
    const cached = await rt.encode(prompts, { chatTemplate: true, cacheKey: 'reader' });
    // The reading drops its cache when done: a later call under its key reads its prompt whole.
    expect((await rt.generate({ messages: [{ role: 'user', content: prompts[2] }], maxNewTokens: 1, cacheKey: 'reader' })).timing.reusedTokens).toBeUndefined();
    expect(cached.shape).toEqual(batch.shape);
    expect(cached.lengths).toEqual(batch.lengths);
    expect(maxAbsDiff(cached.data, [Array.from(batch.data)])).toBeLessThanOrEqual(1e-4);
  });

  it('keeps a conversation per agent', async () => {
    await rt.chat('alice', 'Hello!', { maxNewTokens: 4 });
    const alice = await rt.getConversation('alice');
    expect(alice.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(await rt.getConversation('bob')).toEqual([]);
  });
});

describe('Node runtime, cpu q4, embedded model', () => {
  it('prefill states are within the fixture q4 tolerance', async () => {
    const rt = createNodeRuntime();
    const info = await rt.load('tiny-social', { device: 'cpu', dtype: 'q4' });
    expect(info.dtype).toBe('q4');
    let worst = 0;
    for (const c of fixture.cases) {
      const r = await rt.generate({ ...input(c), maxNewTokens: 1 });
      worst = Math.max(worst, maxAbsDiff(r.prefillStates!, c.hidden_last_token));
    }
    expect(worst).toBeLessThanOrEqual(fixture.tolerances.q4.hidden_max_abs);
    expect(worst).toBeGreaterThan(0); // it really is the quantised graph
    await rt.dispose();
  });
});

describe('Node runtime errors', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sml-runtime-'));
  const src = join(MODELS_DIR, 'tiny-social');
  const folder = (name: string, onnx?: Uint8Array) => {
    const d = join(dir, name);
    mkdirSync(join(d, 'onnx'), { recursive: true });
    for (const f of ['config.json', 'generation_config.json', 'tokenizer.json', 'tokenizer_config.json']) copyFileSync(join(src, f), join(d, f));
    if (onnx) writeFileSync(join(d, 'onnx/model.onnx'), onnx);
    return d;
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a missing graph file (404) names the model and says it is missing', async () => {
    const d = folder('missing');
    await expect(createNodeRuntime().load(d, { dtype: 'fp32' })).rejects.toThrow(/missing.*\(404\)|404/);
  });

  it('a corrupt graph file names the model and the file', async () => {
    const d = folder('corrupt', new TextEncoder().encode('<!DOCTYPE html><p>Not the model you are looking for</p>'));
    await expect(createNodeRuntime().load(d, { dtype: 'fp32' })).rejects.toThrow(/corrupt.*model\.onnx|model\.onnx.*not a valid ONNX/);
  });

  it('an unsupported (hybrid) architecture gives a clear error naming the model', async () => {
    const hybrid = new Uint8Array(readFileSync(resolve(import.meta.dirname, '../fixtures/taps/hybrid.onnx')));
    const d = folder('hybrid-model', hybrid);
    const cfg = JSON.parse(readFileSync(join(d, 'config.json'), 'utf8'));
    writeFileSync(join(d, 'config.json'), JSON.stringify({ ...cfg, num_hidden_layers: 3 }));
    await expect(createNodeRuntime().load(d, { dtype: 'fp32' })).rejects.toThrow(/Cannot find the residual stream of ".*hybrid-model".*not supported/s);
  });

  it('an unknown model id is refused before anything is fetched', async () => {
    await expect(createNodeRuntime().load('no such model', {})).rejects.toThrow(/Unknown model/);
  });
});
