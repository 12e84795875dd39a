import { CancelledError } from '../../src/core/cancel';
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createRng } from '../../src/core/rng';
import {
  banSequences,
  boostPromptTokens,
  distinctTokens,
  MAX_BANNED,
  needsSampler,
  penaliseSeenTokens,
  readBannedSequences,
  sampleToken,
  type SamplingParams,
} from '../../src/runtime/sampling';
import { shareOneBatch } from '../../src/runtime/samples';
import { chooseBackend, likelyFits, BackendChoiceError } from '../../src/runtime/choose';
import { createTapFetch } from '../../src/runtime/tap-fetch';
import { readOnnxTopology } from '../../src/core/onnx/model';
import { isTapped, TapDetectionError } from '../../src/core/onnx/taps';
import { REGISTRY, findModel, anyHubEntry } from '../../models/registry';
import { ModelClient, LoadedModels, WorkerCrashedError, ModelUnloadedError, bindLoadedModels } from '../../src/runtime/client';

describe('seeded sampling', () => {
  const logits = Float32Array.from([1, 2, 3, 0.5, 2.5, -1]);
  it('is argmax at temperature 0', () => {
    expect(sampleToken(logits, { temperature: 0, topP: 1 }, createRng(1))).toBe(2);
  });
  it('reproduces with the same seed and varies across seeds', () => {
    const draw = (seed: number) =>
      Array.from(
        { length: 20 },
        (
          (rng) => () =>
            sampleToken(logits, { temperature: 1, topP: 1 }, rng)
        )(createRng(seed)),
      );
    expect(draw(5)).toEqual(draw(5));
    expect(draw(5)).not.toEqual(draw(6));
  });
  it('follows the softmax distribution', () => {
    const rng = createRng(42);
    const counts = new Array(logits.length).fill(0);
    const n = 20000;
    for (let i = 0; i < n; i++) counts[sampleToken(logits, { temperature: 1, topP: 1 }, rng)]++;
    const z = Array.from(logits).reduce((a, l) => a + Math.exp(l), 0);
    Array.from(logits).forEach((l, i) => expect(counts[i] / n).toBeCloseTo(Math.exp(l) / z, 1));
  });
  it('top-p keeps only the nucleus', () => {
    const rng = createRng(3);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) seen.add(sampleToken(logits, { temperature: 1, topP: 0.5 }, rng));
    // p(2) ≈ 0.43, p(4) ≈ 0.26: the smallest set with mass ≥ 0.5 is {2, 4}
    expect([...seen].sort()).toEqual([2, 4]);
  });
  it('treats a min-p that is not a number as no cut, and always returns a token', () => {
    const draw = (minP: number, seed: number) => sampleToken(logits, { temperature: 1, topP: 0.9, minP }, createRng(seed));
    for (let seed = 0; seed < 20; seed++) expect(draw(Number.NaN, seed)).toBe(draw(0, seed));
    const hopeless = Float32Array.from([-Infinity, -Infinity, -Infinity]);
    expect(sampleToken(hopeless, { temperature: 0.7, topP: 0.9, minP: 0.2 }, createRng(1))).toBe(0);
  });
  it('a top-k that cuts nothing (0, absent, NaN, negative, at least the vocabulary) draws exactly as none', () => {
    const wide = Float32Array.from({ length: 300 }, (_, i) => Math.sin(i * 1.7) * 3);
    const draws = (topK: number | undefined, topP: number, minP: number) => {
      const rng = createRng(9);
      return Array.from({ length: 400 }, () => sampleToken(wide, { temperature: 0.7, topP, minP, ...(topK === undefined ? {} : { topK }) }, rng));
    };
    for (const [topP, minP] of [
      [1, 0],
      [0.9, 0],
      [0.9, 0.05],
    ]) {
      const none = draws(undefined, topP, minP);
      for (const k of [0, Number.NaN, -3, 300, 1000]) expect(draws(k, topP, minP)).toEqual(none);
      // a real cut changes them (the same seed draws outside the top 5)
      expect(draws(5, topP, minP)).not.toEqual(none);
    }
  });
  it('prompts whose top-k differ are not decoded in one batch', () => {
    expect(
      shareOneBatch([
        { temperature: 0.7, topK: 20 },
        { temperature: 0.7, topK: 20 },
      ]),
    ).toBe(true);
    expect(shareOneBatch([{ temperature: 0.7, topK: 20 }, { temperature: 0.7 }])).toBe(false);
    expect(shareOneBatch([{ temperature: 0.7, promptBoost: 1.2 }, { temperature: 0.7 }])).toBe(false);
    expect(shareOneBatch([{ temperature: 0.7, repetitionPenalty: 1.05 }, { temperature: 0.7 }])).toBe(false);
  });
  it('the prompt boost raises each prompt token once, negative logits too, and steers greedy picks', () => {
    const logits = Float32Array.from([1, 2, -1, 3]);
    boostPromptTokens(logits, distinctTokens([0, 0, 2, 2n, 99]), 2);
    // a token that occurs twice is raised once; an id outside the vocabulary is ignored
    expect(Array.from(logits)).toEqual([2, 2, -0.5, 3]);
    const flat = Float32Array.from([1.5, 2]);
    boostPromptTokens(flat, [0], 1.5);
    expect(sampleToken(flat, { temperature: 0, topP: 1 }, createRng(0))).toBe(0);
    for (const none of [1, 0, -2, Number.NaN]) {
      const same = Float32Array.from([1, -1]);
      boostPromptTokens(same, [0, 1], none);
      expect(Array.from(same)).toEqual([1, -1]);
    }
    // greedy calls need the runtime's processor only when the model boosts its prompt
    expect(needsSampler({ temperature: 0, topP: 1, promptBoost: 1.2 })).toBe(true);
    expect(needsSampler({ temperature: 0, topP: 1, promptBoost: 1 })).toBe(false);
    expect(needsSampler({ temperature: 0.7, topP: 1 })).toBe(true);
    expect(needsSampler({ temperature: 0, topP: 1, repetitionPenalty: 1.05 })).toBe(true);
    // the repetition penalty lowers each seen token once, negative logits too
    const seen = Float32Array.from([3, -1, 2]);
    penaliseSeenTokens(seen, distinctTokens([0, 1, 0]), 2);
    expect(Array.from(seen)).toEqual([1.5, -2, 2]);
  });
  // transformers' own processors (the prompt boost, the repetition penalty, temperature, top-k, top-p, min-p, in
  // generate()'s order): test/fixtures/make_sampling_fixture.py
  const fixture = JSON.parse(readFileSync(resolve(__dirname, '../fixtures/sampling/expected.json'), 'utf8')) as {
    cases: (SamplingParams & { logits: number[]; prompt: number[]; seen: number[]; probs: number[] })[];
    exact: { kind: 'promptBoost' | 'repetitionPenalty'; penalty: number; logits: number[]; out: number[] }[];
    bans: { seen: number[]; banned: number[][]; logits: number[]; out: (number | null)[] }[];
  };
  it.each(fixture.bans.map((b) => [JSON.stringify(b.banned), b] as const))('bans the tokens transformers bans after the reply so far: %s', (_, b) => {
    const logits = Float32Array.from(b.logits);
    banSequences(logits, b.banned, b.seen);
    expect(Array.from(logits, (x) => (x === -Infinity ? null : x))).toEqual(b.out.map((x) => (x === null ? null : Math.fround(x))));
  });
  it('reads a ban list as transformers would, and refuses one that is not a list of token-id lists', () => {
    expect(readBannedSequences(undefined)).toEqual([]);
    expect(readBannedSequences([[3], [4, 5]], 10)).toEqual([[3], [4, 5]]);
    for (const bad of ['3', [3], [[]], [[1.5]], [[-1]], [[10]], [[2, '3']], Array.from({ length: MAX_BANNED.sequences + 1 }, () => [1])]) {
      expect(readBannedSequences(bad, 10)).toBeNull();
    }
    expect(readBannedSequences([Array.from({ length: MAX_BANNED.tokens + 1 }, () => 1)])).toBeNull();
    // a ban makes a greedy call take the runtime's own step, as a penalty does
    expect(needsSampler({ temperature: 0, topP: 1, banned: [[1]] })).toBe(true);
    expect(needsSampler({ temperature: 0, topP: 1, banned: [] })).toBe(false);
  });
  it.each(fixture.exact.map((e) => [`${e.kind} ${e.penalty}`, e] as const))('penalises the logits to the bit as torch does: %s', (_, e) => {
    const logits = Float32Array.from(e.logits);
    const every = distinctTokens(e.logits.map((_, i) => i));
    if (e.kind === 'promptBoost') boostPromptTokens(logits, every, e.penalty);
    else penaliseSeenTokens(logits, every, e.penalty);
    expect(Array.from(logits)).toEqual(e.out);
  });
  it.each(
    fixture.cases.map(
      (c) =>
        [
          `T ${c.temperature}, top-k ${c.topK}, top-p ${c.topP}, min-p ${c.minP}, boost ${c.promptBoost}, penalty ${c.repetitionPenalty}, ${c.logits.length} tokens`,
          c,
        ] as const,
    ),
  )('draws from the distribution transformers samples: %s', (_, c) => {
    const rng = createRng(11);
    const n = 20000;
    const counts = new Array<number>(c.logits.length).fill(0);
    const prompt = distinctTokens(c.prompt);
    const seen = distinctTokens(c.seen);
    for (let i = 0; i < n; i++) {
      const logits = Float32Array.from(c.logits);
      boostPromptTokens(logits, prompt, c.promptBoost);
      penaliseSeenTokens(logits, seen, c.repetitionPenalty);
      counts[sampleToken(logits, c, rng)]++;
    }
    // the same tokens kept (each kept one has p >= 0.0024, so it is drawn about 50 times or more) ...
    expect(counts.map((k) => k > 0)).toEqual(c.probs.map((p) => p > 0));
    // ... at the same rates (SE at most 0.0035)
    counts.forEach((k, i) => expect(Math.abs(k / n - c.probs[i])).toBeLessThan(0.015));
  });
});

describe('backend and dtype choice', () => {
  const all = ['fp32', 'fp16', 'q8', 'q4', 'q4f16'] as const;
  const big = { params: 360e6, available: [...all] };
  it('auto: WebGPU with q4f16 when shader-f16 exists, q4 when not; WASM without an adapter', () => {
    const gpu = { shaderF16: true, maxBufferSize: 2 ** 31, maxStorageBufferBindingSize: 2 ** 30 };
    expect(chooseBackend({}, { platform: 'browser', gpu, ...big })).toMatchObject({ backend: 'webgpu', dtype: 'q4f16' });
    expect(chooseBackend({}, { platform: 'browser', gpu: { ...gpu, shaderF16: false }, ...big })).toMatchObject({ backend: 'webgpu', dtype: 'q4' });
    expect(chooseBackend({}, { platform: 'browser', gpu: null, ...big })).toMatchObject({ backend: 'wasm', dtype: 'q4' });
    // a software adapter (SwiftShader) is slower than WASM: auto avoids it, an explicit request still gets it
    expect(chooseBackend({}, { platform: 'browser', gpu: { ...gpu, shaderF16: false, fallback: true }, ...big }).backend).toBe('wasm');
    expect(chooseBackend({ device: 'webgpu' }, { platform: 'browser', gpu: { ...gpu, shaderF16: false, fallback: true }, ...big }).backend).toBe('webgpu');
    expect(chooseBackend({}, { platform: 'node', gpu: null, ...big })).toMatchObject({ backend: 'cpu', dtype: 'q4' });
  });
  it('auto: fp32 for small models and the embedded toy', () => {
    expect(chooseBackend({}, { platform: 'browser', gpu: null, params: 20e6, available: [...all] }).dtype).toBe('fp32');
    expect(chooseBackend({}, { platform: 'browser', gpu: null, params: null, available: ['fp32', 'q4'], small: true }).dtype).toBe('fp32');
  });
  it('refuses what cannot run, with a reason', () => {
    expect(() => chooseBackend({ device: 'webgpu' }, { platform: 'browser', gpu: null, ...big })).toThrow(BackendChoiceError);
    const noF16 = { shaderF16: false, maxBufferSize: 1e9, maxStorageBufferBindingSize: 1e9 };
    expect(() => chooseBackend({ device: 'webgpu', dtype: 'q4f16' }, { platform: 'browser', gpu: noF16, ...big })).toThrow(/shader-f16/);
    expect(() => chooseBackend({ dtype: 'fp16' }, { platform: 'node', gpu: null, params: null, available: ['fp32', 'q4'] })).toThrow(/no fp16/);
  });
  it('likelyFits uses device memory and adapter limits', () => {
    expect(likelyFits(undefined, null).fits).toBeNull();
    expect(likelyFits(3e9, null, 4).fits).toBe(false);
    expect(likelyFits(1e8, { shaderF16: true, maxBufferSize: 2 ** 30, maxStorageBufferBindingSize: 2 ** 27 }, 8).fits).toBe(true);
  });
});

describe('tap-patching fetch wrapper', () => {
  const graph = new Uint8Array(readFileSync(resolve(import.meta.dirname, '../fixtures/taps/optimum.onnx')));
  const base = async (input: string | URL | Request, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    if (init?.headers && new Headers(init.headers).has('range'))
      return new Response(graph.slice(0, 1), { status: 206, headers: { 'content-range': `bytes 0-0/${graph.length}` } });
    if (url.endsWith('missing.onnx')) return new Response('nope', { status: 404 });
    if (url.endsWith('.onnx')) return new Response(graph as BodyInit, { headers: { 'content-length': String(graph.length) } });
    return new Response('{"a":1}', { headers: { 'content-length': '7' } });
  };

  it('patches graph files, counts bytes, and leaves Range probes, 404s and JSON alone', async () => {
    const progress: { loaded: number; total: number }[] = [];
    const tap = createTapFetch(base, { modelName: 'x', taps: true, onProgress: (p) => progress.push(p) });
    const probe = await tap.fetch('https://h/x/onnx/model.onnx', { headers: { Range: 'bytes=0-0' } });
    expect(probe.status).toBe(206);
    expect((await tap.fetch('https://h/x/onnx/missing.onnx')).status).toBe(404);
    const json = await tap.fetch('https://h/x/config.json');
    expect(await json.json()).toEqual({ a: 1 });
    const res = await tap.fetch('https://h/x/onnx/model.onnx');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
    expect(bytes.length).toBeGreaterThan(graph.length);
    expect(isTapped(readOnnxTopology(bytes))).toBe(true);
    expect(tap.plans.get('model.onnx')?.numLayers).toBe(3);
    const last = progress.at(-1)!;
    expect(last.loaded).toBe(graph.length + 7);
    expect(last.total).toBe(graph.length + 7);
  });

  it('passes graphs through unpatched with taps off', async () => {
    const tap = createTapFetch(base, { modelName: 'x', taps: false });
    const bytes = new Uint8Array(await (await tap.fetch('https://h/x/onnx/model.onnx')).arrayBuffer());
    expect(bytes).toEqual(graph);
  });

  it('keeps the patch error so the runtime can report it', async () => {
    const hybrid = new Uint8Array(readFileSync(resolve(import.meta.dirname, '../fixtures/taps/hybrid.onnx')));
    const tap = createTapFetch(async () => new Response(hybrid as BodyInit), { modelName: 'org/hybrid', taps: true });
    await expect(tap.fetch('https://h/org/hybrid/onnx/model.onnx')).rejects.toThrow(TapDetectionError);
    expect(tap.error?.message).toMatch(/org\/hybrid/);
  });
});

describe('model registry', () => {
  it('has the required models, hub ids, and marks what was not checked offline', () => {
    const repos = REGISTRY.map((e) => e.repo);
    for (const r of [
      'HuggingFaceTB/SmolLM2-135M-Instruct',
      'HuggingFaceTB/SmolLM2-360M-Instruct',
      'onnx-community/Qwen2.5-0.5B-Instruct',
      'onnx-community/Qwen3-0.6B-ONNX',
      'onnx-community/Llama-3.2-1B-Instruct',
      'onnx-community/gemma-3-270m-it-ONNX',
    ])
      expect(repos).toContain(r);
    for (const e of REGISTRY.filter((x) => x.source === 'hub')) {
      expect(e.revision).toBeNull();
      expect(e.unverified).toContain('revision');
    }
    expect(REGISTRY.find((e) => e.id === 'tiny-social')).toMatchObject({ source: 'local', teachingToy: true });
  });
  it("ships every embedded model with the files its entry promises: each dtype, a model card, an organism's truth", () => {
    const file = (id: string, f: string) => new URL(`../../models/${id}/${f}`, import.meta.url);
    for (const e of REGISTRY.filter((x) => x.source === 'local')) {
      for (const d of e.dtypes) expect(existsSync(file(e.id, d === 'fp32' ? 'onnx/model.onnx' : `onnx/model_${d}.onnx`)), `${e.id} ${d}`).toBe(true);
      expect(existsSync(file(e.id, 'config.json')), e.id).toBe(true);
      expect(existsSync(file(e.id, e.id === 'tiny-social' ? '../../docs/embedded-model.md' : 'model-card.md')), `${e.id} model card`).toBe(true);
      if (e.organism) expect(existsSync(file(e.id, 'planted.json')), `${e.id} planted.json`).toBe(true);
    }
  });
  it("keeps every embedded model's special tokens in its vocabulary, so that every tokenizer library gives them the same ids", () => {
    // Python's `tokenizers` appends added tokens missing from model.vocab after it (ids 3069-3071, taken by real
    // tokens), while transformers.js uses the declared ids (0-2); with them in the vocabulary both read 0-2.
    for (const e of REGISTRY.filter((x) => x.source === 'local')) {
      const tok = JSON.parse(readFileSync(new URL(`../../models/${e.id}/tokenizer.json`, import.meta.url), 'utf8')) as {
        added_tokens: { id: number; content: string }[];
        model: { vocab: Record<string, number> };
      };
      for (const a of tok.added_tokens) expect(tok.model.vocab[a.content], `${e.id}: ${a.content}`).toBe(a.id);
      const ids = Object.values(tok.model.vocab);
      expect(new Set(ids).size, `${e.id}: every id once`).toBe(ids.length);
    }
  });
  it('resolves ids, repos and any hub id', () => {
    expect(findModel('smollm2-135m')?.repo).toBe('HuggingFaceTB/SmolLM2-135M-Instruct');
    expect(findModel('someone/some-model')).toEqual(anyHubEntry('someone/some-model'));
    expect(findModel('not a model')).toBeUndefined();
  });
});

describe('model client crash detection (fake worker)', () => {
  /** A Worker stand-in that never answers; it can raise an error event. */
  class SilentWorker extends EventTarget {
    terminated = false;
    postMessage() {}
    terminate() {
      this.terminated = true;
    }
    start() {}
  }

  it('a worker error rejects the call in flight with WorkerCrashedError and marks the model crashed', async () => {
    const registry = new LoadedModels();
    const workers: SilentWorker[] = [];
    const client = new ModelClient({ spawn: () => (workers.push(new SilentWorker()), workers.at(-1) as unknown as Worker), registry, pingIntervalMs: 1e6 });
    const seen: string[] = [];
    registry.subscribe((l) => seen.push(l.map((e) => e.status).join()));
    const loading = client.load('tiny-social', {});
    setTimeout(() => workers[0].dispatchEvent(Object.assign(new Event('error'), { message: 'boom' })), 10);
    await expect(loading).rejects.toThrow(WorkerCrashedError);
    expect(workers[0].terminated).toBe(true);
    expect(registry.list()[0].status).toBe('failed');
    expect(seen).toContain('loading');
  });

  it('a load under way stops on cancelLoad or its signal: CancelledError, worker terminated, nothing in the registry', async () => {
    const registry = new LoadedModels();
    const workers: SilentWorker[] = [];
    const client = new ModelClient({ spawn: () => (workers.push(new SilentWorker()), workers.at(-1) as unknown as Worker), registry, pingIntervalMs: 1e6 });
    const first = client.load('tiny-social', {}, undefined, 'slow#1');
    expect(registry.list().map((e) => e.status)).toEqual(['loading']);
    expect(client.cancelLoad('slow#1')).toBe(true);
    await expect(first).rejects.toThrow(CancelledError);
    expect(workers[0].terminated).toBe(true);
    expect(registry.list()).toEqual([]);
    expect(client.handles()).toEqual([]);
    expect(client.cancelLoad('slow#1')).toBe(false);

    const stop = new AbortController();
    const second = client.load('tiny-social', {}, undefined, undefined, stop.signal);
    stop.abort();
    await expect(second).rejects.toThrow(CancelledError);
    expect(workers[1].terminated).toBe(true);
    expect(registry.list()).toEqual([]);
  });

  it('an idle worker that stops answering pings is reported as crashed, and restart() loads it again', async () => {
    const Comlink = await import('comlink');
    let hang = false;
    let loads = 0;
    const spawn = () => {
      const { port1, port2 } = new MessageChannel();
      const fakeApi = {
        ping: () => (hang ? new Promise(() => undefined) : Promise.resolve('pong')),
        load: async () => (
          loads++,
          { id: 'tiny-social', backend: 'wasm', dtype: 'fp32', reason: '', numLayers: 6, hiddenSize: 192, tapStyles: ['optimum'], warnings: [], loadMs: 1 }
        ),
        generate: () => new Promise(() => undefined),
      };
      Comlink.expose(fakeApi, port2 as unknown as Parameters<typeof Comlink.expose>[1]);
      return Object.assign(port1, { terminate: () => (port1.close(), port2.close()) }) as unknown as Worker;
    };
    const registry = new LoadedModels();
    const client = new ModelClient({ spawn, registry, pingIntervalMs: 10, pingTimeoutMs: 50 });
    const bar = { list: [] as { id: string; backend: string; dtype: string }[] };
    const unbind = bindLoadedModels(bar, registry);
    const h = await client.load('tiny-social', {});
    expect(registry.list()[0]).toMatchObject({ status: 'ready', backend: 'wasm', dtype: 'fp32' });
    expect(bar.list).toEqual([{ id: 'tiny-social', backend: 'wasm', dtype: 'fp32' }]);
    await new Promise((r) => setTimeout(r, 60));
    expect(registry.list()[0].status).toBe('ready'); // answering pings: alive
    hang = true;
    await expect.poll(() => registry.list()[0].status, { timeout: 2000 }).toBe('crashed');
    expect(bar.list).toEqual([]); // the status bar no longer lists a crashed model
    await expect(h.generate({ prompt: 'x' })).rejects.toThrow(WorkerCrashedError);
    hang = false;
    const h2 = await client.restart(h.key);
    expect(loads).toBe(2);
    expect(registry.list()[0].status).toBe('ready');
    const pending = h2.generate({ prompt: 'x' }); // the fake never answers
    client.unloadAll();
    await expect(pending).rejects.toThrow(ModelUnloadedError);
    await expect(h2.generate({ prompt: 'x' })).rejects.toThrow(/was unloaded/);
    unbind();
    expect(registry.list()).toEqual([]);
  });

  it('a worker that dies silently mid-generate fails the call after busyTimeoutMs; a busy one that answers does not', async () => {
    const Comlink = await import('comlink');
    let dead = false;
    let finish: (v: unknown) => void = () => undefined;
    const spawn = () => {
      const { port1, port2 } = new MessageChannel();
      const fakeApi = {
        // A killed worker answers nothing; a busy one answers its pings between tokens.
        ping: () => (dead ? new Promise(() => undefined) : Promise.resolve('pong')),
        load: async () => ({
          id: 'tiny-social',
          backend: 'wasm',
          dtype: 'fp32',
          reason: '',
          numLayers: 6,
          hiddenSize: 192,
          tapStyles: ['optimum'],
          warnings: [],
          loadMs: 1,
        }),
        generate: () => new Promise((r) => (finish = r)),
      };
      Comlink.expose(fakeApi, port2 as unknown as Parameters<typeof Comlink.expose>[1]);
      return Object.assign(port1, { terminate: () => (port1.close(), port2.close()) }) as unknown as Worker;
    };
    const registry = new LoadedModels();
    const client = new ModelClient({ spawn, registry, pingIntervalMs: 10, pingTimeoutMs: 30, busyTimeoutMs: 150 });
    const h = await client.load('tiny-social', {});
    // Busy for four times the busy timeout, answering pings: alive, and the reply arrives.
    const slow = h.generate({ prompt: 'x' });
    await new Promise((r) => setTimeout(r, 600));
    expect(registry.list()[0].status).toBe('ready');
    finish({ text: 'done' });
    await expect(slow).resolves.toMatchObject({ text: 'done' });
    // Killed mid-generate with no event: the call fails with WorkerCrashedError instead of hanging for ever.
    const t0 = Date.now();
    const stuck = h.generate({ prompt: 'x' });
    dead = true;
    await expect(stuck).rejects.toThrow(/while it was working/);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    expect(registry.list()[0].status).toBe('crashed');
    client.unloadAll();
  });
});
