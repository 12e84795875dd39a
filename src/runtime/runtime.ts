/**
 * The model runtime: one loaded model, its tokenizer and the hidden-state taps. The same class runs in the model
 * worker (browser) and in Node; a Platform adapter (./browser, ./node) supplies what differs: the transformers.js
 * module, env setup (paths, caches, fetch) and the WebGPU probe.
 */
import { createRng } from '../core/rng';
import { ContextOverflowError } from '../core/runs/models';
import { TAP_OUTPUT } from '../core/onnx/taps';
import { findModel, isHubId, type RegistryEntry } from '../../models/registry';
import { chooseBackend, type GpuInfo } from './choose';
import { tokenizerId } from './tokenizer-id';
import { applyBitmask, GrammarSession } from './grammar';
import { now, PLAIN_STEP, readTensor, seededSampler, tapPrefill } from './generation';
import { ConversationCaches } from './kv-reuse';
import { sampleFromPrefills, shareOneBatch, type PromptSamples, type SampleHost } from './samples';
import { distinctTokens, MAX_BANNED, needsSampler, readBannedSequences, samplingParams } from './sampling';
import { createTapFetch, type FetchLike, type TapFetch, type TapFetchOptions } from './tap-fetch';
import { hubEndpoint } from './hub';
import type {
  ChatMessage,
  ConcreteDtype,
  EncodeOptions,
  EncodeResult,
  GenerateOptions,
  GenerateResult,
  LoadOptions,
  LoadProgress,
  LoadResult,
  ModelApi,
  SampleRequest,
  ScoreResult,
} from './types';

/** The transformers.js module, as the platforms import and configure it. */
export type Transformers = typeof import('@huggingface/transformers');
// Loaded models and tokenizers are typed loosely at this boundary on purpose: their generics are heavy and
// version-specific, and the runtime reads them through a few calls checked by the tests on every backend.
/* eslint-disable @typescript-eslint/no-explicit-any */
type TF = any;

export interface ResolvedModel {
  /** The name shown to users and in errors. */
  id: string;
  /** What is passed to from_pretrained: a hub repo or a folder name under `localDir`. */
  repo: string;
  source: 'local' | 'hub';
  /** For local models: the folder that contains `repo` (env.localModelPath). */
  localDir?: string;
  revision: string | null;
  entry?: RegistryEntry;
  warnings: string[];
  /** Where a hub model comes from (its base URL, with a trailing slash); unset: the platform's default. */
  hubUrl?: string;
}

export interface Platform {
  kind: 'node' | 'browser';
  /** The transformers.js module, set up for `backend` (Node picks onnxruntime-node or onnxruntime-web once per process). */
  tf(backend: string): Promise<Transformers>;
  /** Local folders (Node) or the app-served embedded models (browser). */
  resolveLocal(model: string): ResolvedModel | undefined;
  /** Sets env for one load on `backend`: model paths, caches, wasm paths, and env.fetch = wrap(base). */
  configure(tf: Transformers, model: ResolvedModel, wrap: (base: FetchLike) => FetchLike, backend: string): void;
  webgpu(): Promise<GpuInfo | null>;
  /** Executes a backend the platform provides by other means (Node: onnxruntime-web wasm). */
  deviceOption?(backend: string): { device?: unknown; session_options?: Record<string, unknown> };
}

/**
 * How big one batch of generateSamples may be. Prefill logits (every position of every prompt) and the KV cache of
 * every row must fit in PREFILL_BYTES, so that a community of a hundred agents on a hub model does not ask the page for
 * gigabytes at once. And each decoding step copies the whole cache in and out of the session, so a step's cost grows
 * with rows × width: on organism-opinions, one batch of 16 agents × 8 votes over 225-token prompts (89 MB of cache)
 * took 75–130 ms a step, slower than 16 batches of 8; so the cache of a batch is kept under STEP_BYTES (about 2,700
 * row-tokens on the embedded models: a round's 16 messages, or two or three agents' votes). Sizes are upper bounds
 * (fp32, as wide as the hidden size per layer).
 */
const PREFILL_BYTES = 256 * 2 ** 20;
const STEP_BYTES = 16 * 2 ** 20;

/** Consecutive runs of prompts whose batch stays within PREFILL_BYTES and STEP_BYTES (a prompt alone always may). */
function batchesWithin(prompts: readonly PromptSamples[], budget: number, info: LoadResult): PromptSamples[][] {
  const vocab = info.vocabSize ?? 65536;
  const perToken = 4 * 2 * info.numLayers * info.hiddenSize;
  const fits = (group: readonly PromptSamples[]) => {
    const width = Math.max(...group.map((p) => p.ids.length));
    const cache = group.reduce((a, p) => a + p.seeds.length, 0) * (width + budget) * perToken;
    return cache <= STEP_BYTES && 4 * group.length * width * vocab + cache <= PREFILL_BYTES;
  };
  const out: PromptSamples[][] = [];
  for (const p of prompts) {
    const last = out[out.length - 1];
    if (last && fits([...last, p])) last.push(p);
    else out.push([p]);
  }
  return out;
}

/** onnxruntime-web settles its thread count when the first wasm session is created: report what it chose. */
function wasmThreadsNote(tf: TF): string {
  const threads = (tf.env?.backends?.onnx?.wasm as { numThreads?: unknown } | undefined)?.numThreads;
  if (typeof threads !== 'number') return 'wasm threads unknown';
  if (threads > 1) return `${threads} wasm threads`;
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
  return isolated === false ? '1 wasm thread (the page is not cross-origin isolated)' : '1 wasm thread';
}

export class ModelLoadError extends Error {
  constructor(
    readonly model: string,
    message: string,
  ) {
    super(message);
    this.name = 'ModelLoadError';
  }
}

function resolveModel(platform: Platform, model: string): ResolvedModel {
  const local = platform.resolveLocal(model);
  if (local) return local;
  const entry = findModel(model);
  if (entry && entry.source === 'hub') {
    const warnings = entry.unverified.includes('everything')
      ? [`${entry.repo} is not in the registry: its hidden-state layout is auto-detected and has not been checked.`]
      : [];
    return { id: entry.repo, repo: entry.repo, source: 'hub', revision: entry.revision, entry, warnings };
  }
  throw new ModelLoadError(
    model,
    `Unknown model "${model}": not a registry id, a hub id ("owner/name") or ${platform.kind === 'node' ? 'a local folder' : 'an embedded model'}.`,
  );
}

function describeLoadError(model: string, e: unknown, tap: TapFetch | null): Error {
  if (tap?.error) return tap.error;
  const msg = (e as Error)?.message ?? String(e);
  if (/404|not found|could not locate|file was not found|Local file missing/i.test(msg)) {
    return new ModelLoadError(model, `Model "${model}": a file is missing (404). ${msg}`);
  }
  if (/fetch failed|Failed to fetch|NetworkError|ENOTFOUND|ECONNREFUSED/i.test(msg)) {
    return new ModelLoadError(model, `Model "${model}": could not download its files (no network, or the hub is unreachable). ${msg}`);
  }
  // The body stopped mid-file (undici says "terminated"; browsers, a network error while reading the body).
  if (/^terminated$|ECONNRESET|socket hang up|premature close|network error|ERR_CONNECTION_RESET|body stream/i.test(msg)) {
    return new ModelLoadError(
      model,
      `Model "${model}": a download stopped before its file was complete (the connection dropped). Nothing partial was kept; load it again to retry. (${msg})`,
    );
  }
  if (/protobuf|parse|Failed to load model|invalid model|INVALID_PROTOBUF|Load model/i.test(msg)) {
    return new ModelLoadError(model, `Model "${model}": a model file is corrupt or not ONNX. ${msg}`);
  }
  return new ModelLoadError(model, `Model "${model}" failed to load: ${msg}`);
}

export class ModelRuntime implements ModelApi {
  private tf: TF = null;
  private model: TF = null;
  private tokenizer: TF = null;
  private loaded: LoadResult | null = null;
  private eosIds = new Set<number>();
  /** XGrammar's view of this model's tokenizer, made on the first constrained reply. */
  private grammars: Promise<GrammarSession> | null = null;
  private conversations = new Map<string, ChatMessage[]>();
  private caches: ConversationCaches | null = null;
  private cancelled = false;
  private busy: Promise<unknown> = Promise.resolve();

  constructor(private readonly platform: Platform) {}

  /** Runs model calls one after another (a session must not run twice at once). */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.busy.then(fn, fn);
    this.busy = run.catch(() => undefined);
    return run;
  }

  async info(): Promise<LoadResult | null> {
    return this.loaded;
  }

  async load(model: string, options: LoadOptions = {}, onProgress?: (p: LoadProgress) => void): Promise<LoadResult> {
    if (this.model) throw new ModelLoadError(model, 'This runtime already holds a model: use one runtime (one worker) per model.');
    const t0 = now();
    const resolved = resolveModel(this.platform, model);
    if (options.hubUrl !== undefined) {
      const hub = hubEndpoint(options.hubUrl);
      if (!hub) throw new ModelLoadError(model, `The hub address "${options.hubUrl.slice(0, 100)}" is not an http(s) URL.`);
      resolved.hubUrl = hub;
    }
    const entry = resolved.entry;
    const gpu = this.platform.kind === 'browser' ? await this.platform.webgpu() : null;
    const choice = chooseBackend(options, {
      platform: this.platform.kind,
      gpu,
      params: entry?.params ?? null,
      available: entry?.dtypes ?? ['fp32', 'fp16', 'q8', 'q4', 'q4f16'],
      small: entry?.teachingToy || (resolved.source === 'local' && !entry),
    });
    const tf: TF = (this.tf = await this.platform.tf(choice.backend));
    const taps = options.taps !== false;
    let tap: TapFetch | null = null;
    const progress = (p: LoadProgress) => onProgress?.(p);
    // numLayers is filled in from config.json before the graph is fetched, so that detection checks against it
    const tapOptions: TapFetchOptions = {
      modelName: resolved.id,
      taps,
      onProgress: (p) => progress({ phase: p.phase, file: p.file, loaded: p.loaded, total: p.total }),
    };
    try {
      this.platform.configure(
        tf,
        resolved,
        (base) => {
          tap = createTapFetch(base, tapOptions);
          return tap.fetch;
        },
        choice.backend,
      );
      const pretrained = { revision: options.revision ?? resolved.revision ?? 'main' };
      const config = await tf.AutoConfig.from_pretrained(resolved.repo, pretrained);
      const text = config.text_config ?? config;
      const numLayers: number = text.num_hidden_layers;
      const hiddenSize: number = text.hidden_size;
      const contextLength: unknown = text.max_position_embeddings;
      if (Number.isInteger(numLayers) && numLayers > 0) tapOptions.numLayers = numLayers;
      const tokenizer = await tf.AutoTokenizer.from_pretrained(resolved.repo, pretrained);
      const deviceOpt = this.platform.deviceOption?.(choice.backend) ?? { device: choice.backend };
      const m = await tf.AutoModelForCausalLM.from_pretrained(resolved.repo, {
        ...pretrained,
        config,
        dtype: choice.dtype,
        device: deviceOpt.device,
        session_options: deviceOpt.session_options ?? {},
      });
      const session = Object.values(m.sessions ?? {})[0] as { outputNames?: string[] } | undefined;
      const hasTap = Boolean(session?.outputNames?.includes(TAP_OUTPUT));
      if (taps && !hasTap) {
        await m.dispose?.();
        throw new ModelLoadError(
          resolved.id,
          `Model "${resolved.id}": the hidden-state taps were not applied (the graph file was not fetched through the patching wrapper).`,
        );
      }
      const plans = [...((tap as TapFetch | null)?.plans.values() ?? [])];
      if (taps && plans[0] && plans[0].numLayers !== numLayers) {
        await m.dispose?.();
        throw new ModelLoadError(resolved.id, `Model "${resolved.id}": the graph has ${plans[0].numLayers} layers but config.json says ${numLayers}.`);
      }
      this.model = m;
      this.tokenizer = tokenizer;
      const gen = m.generation_config ?? {};
      const eos = gen.eos_token_id ?? config.eos_token_id;
      for (const id of [eos].flat()) if (typeof id === 'number') this.eosIds.add(id);
      const topP = typeof gen.top_p === 'number' && gen.top_p > 0 && gen.top_p <= 1 ? gen.top_p : 1;
      const minP = typeof gen.min_p === 'number' && gen.min_p > 0 && gen.min_p <= 1 ? gen.min_p : 0;
      const topK = Number.isInteger(gen.top_k) && (gen.top_k as number) > 0 ? (gen.top_k as number) : 0;
      // Penalties past 100 are no setting anyone means (and a run's record refuses them): read as none.
      const penalty = (v: unknown) => (typeof v === 'number' && v > 0 && v <= 100 ? v : 1);
      const promptBoost = penalty(gen.encoder_repetition_penalty);
      const repetitionPenalty = penalty(gen.repetition_penalty);
      const vocabSize = Number.isInteger(text.vocab_size) ? (text.vocab_size as number) : undefined;
      const banned = readBannedSequences(gen.bad_words_ids, vocabSize);
      if (tokenizer.pad_token_id == null && this.eosIds.size) tokenizer.pad_token_id = [...this.eosIds][0];
      const warnings = [...resolved.warnings];
      if (!banned) {
        warnings.push(
          `generation_config.json's bad_words_ids is not a list of token-id lists (at most ${MAX_BANNED.sequences} of ${MAX_BANNED.tokens} ids each, each below the vocabulary size): no token is banned.`,
        );
      }
      if (plans[0] && resolved.entry?.tapStyle && resolved.entry.tapStyle !== 'auto' && !plans[0].styles.includes(resolved.entry.tapStyle)) {
        warnings.push(`Expected a ${resolved.entry.tapStyle} layout but found ${plans[0].styles.join(', ')}.`);
      }
      this.loaded = {
        id: resolved.id,
        backend: choice.backend,
        dtype: choice.dtype as ConcreteDtype,
        reason: choice.backend === 'wasm' ? `${choice.reason}; ${wasmThreadsNote(tf)}` : choice.reason,
        numLayers,
        hiddenSize,
        topP,
        minP,
        topK,
        promptBoost,
        repetitionPenalty,
        banned: banned ?? [],
        tokenizer: tokenizerId(tokenizer.get_vocab()),
        ...(Number.isInteger(text.vocab_size) ? { vocabSize: text.vocab_size as number } : {}),
        ...(Number.isInteger(contextLength) && (contextLength as number) > 0 ? { contextLength: contextLength as number } : {}),
        // a graph served from the browser cache was patched on an earlier visit: no plan this time
        tapStyles: plans[0]?.styles ?? (hasTap ? ['cached'] : []),
        warnings,
        loadMs: now() - t0,
      };
      progress({ phase: 'ready', loaded: 0, total: 0 });
      return this.loaded;
    } catch (e) {
      if (e instanceof ModelLoadError) throw e;
      throw describeLoadError(resolved.id, e, tap);
    }
  }

  /** XGrammar's description of this model's tokenizer: every token by id, the logits width, the stop tokens. */
  private grammarSession(info: LoadResult): Promise<GrammarSession> {
    return (this.grammars ??= (async () => {
      const vocab: Map<string, number> = this.tokenizer.get_vocab();
      let size = info.vocabSize ?? 0; // the logits' width, which may pad past the tokenizer's last id
      for (const id of vocab.values()) size = Math.max(size, id + 1);
      const tokens = new Array<string>(size).fill('');
      for (const [t, id] of vocab) tokens[id] = t;
      return GrammarSession.create(tokens, size, [...this.eosIds]);
    })());
  }

  private need(): { m: TF; tok: TF; info: LoadResult } {
    if (!this.model || !this.loaded) throw new Error('No model is loaded: call load() first.');
    return { m: this.model, tok: this.tokenizer, info: this.loaded };
  }

  /** Token ids for a prompt or a conversation, as the model will see them. */
  tokenize(opts: { messages?: ChatMessage[]; prompt?: string; addGenerationPrompt?: boolean }): number[] {
    const { tok } = this.need();
    if (opts.messages) {
      const text: string = tok.apply_chat_template(opts.messages, { add_generation_prompt: opts.addGenerationPrompt ?? true, tokenize: false });
      return Array.from(tok.encode(text, { add_special_tokens: false }) as number[]);
    }
    if (opts.prompt === undefined) throw new Error('generate() needs `messages` or `prompt`.');
    return Array.from(tok.encode(opts.prompt) as number[]);
  }

  /** Token ids back to text (special tokens kept). */
  decodeTokens(ids: number[]): string {
    const { tok } = this.need();
    return ids.length ? (tok.decode(ids, { skip_special_tokens: false }) as string) : '';
  }

  generate(options: GenerateOptions, onToken?: (textSoFar: string) => void): Promise<GenerateResult> {
    return this.serial(() => this.generateNow(options, onToken));
  }

  /**
   * The replies to each request, one per seed, each as `generate({ ...options, seed })` would give it: decoded
   * together on the CPU backends (samples.ts) when the requests share a sampling rule, have no grammar and fit the
   * context; else request by request (each request's seeds still from one prefill where it can), and one call per
   * seed on WebGPU or under a grammar. Greedy replies are one reply copied. A prompt that fills the context throws,
   * as generate() does.
   */
  generateSamples(requests: readonly SampleRequest[]): Promise<GenerateResult[][]> {
    return this.serial(async () => {
      const { info } = this.need();
      const greedy = (o: GenerateOptions) => !((o.temperature ?? 0) > 0);
      // Every seed of a greedy request gives the same reply: decode it once.
      // No kept caches here: a batch would ignore them, and one call per seed would chain them from seed to seed.
      const asked = requests.map((r) => ({
        ids: this.tokenize(r.options),
        options: { ...r.options, ...samplingParams(r.options, info), cacheKey: undefined },
        seeds: greedy(r.options) ? r.seeds.slice(0, 1) : r.seeds,
      }));
      const room = (ids: number[]) => (info.contextLength === undefined ? Infinity : info.contextLength - ids.length);
      const budget = Math.max(0, ...asked.map((a) => a.options.maxNewTokens ?? 64));
      // The batch copies KV caches row by row, which needs them in host memory: not on WebGPU.
      const hostCache = info.backend !== 'webgpu';
      // Every row decodes until the last has stopped, so each prompt must have room for the longest budget of all.
      const together = hostCache && shareOneBatch(asked.map((a) => a.options)) && asked.every((a) => a.seeds.length && a.ids.length && room(a.ids) >= budget);
      const replies: GenerateResult[][] = [];
      for (const group of together ? batchesWithin(asked, budget, info) : asked.map((a) => [a])) {
        const got = group.length > 1 ? await sampleFromPrefills(this.sampleHost(), group) : null;
        if (got) replies.push(...got);
        else for (const a of group) replies.push(await this.samplesOfOne(a, hostCache));
      }
      return replies.map((rs, i) =>
        rs.length === requests[i].seeds.length ? rs : requests[i].seeds.map(() => ({ ...rs[0], prefillStates: rs[0].prefillStates?.slice() ?? null })),
      );
    });
  }

  /** One prompt's replies: from one prefill where it can (its budget cut to the context left, as generate() does). */
  private async samplesOfOne(a: PromptSamples, hostCache: boolean): Promise<GenerateResult[]> {
    const { info } = this.need();
    const room = info.contextLength === undefined ? Infinity : info.contextLength - a.ids.length;
    if (hostCache && a.seeds.length > 1 && !a.options.grammar && room >= 1) {
      const got = await sampleFromPrefills(this.sampleHost(), [
        { ...a, options: { ...a.options, maxNewTokens: Math.min(a.options.maxNewTokens ?? 64, room) } },
      ]);
      if (got) return got[0];
    }
    const out: GenerateResult[] = [];
    for (const seed of a.seeds) out.push(await this.generateNow({ ...a.options, seed }));
    return out;
  }

  private sampleHost(): SampleHost {
    const { m, tok, info } = this.need();
    this.cancelled = false;
    return {
      tf: this.tf,
      model: m,
      tokenizer: tok,
      eosIds: this.eosIds,
      padId: Number(tok.pad_token_id ?? 0),
      isCancelled: () => this.cancelled,
      numLayers: info.numLayers,
      hiddenSize: info.hiddenSize,
    };
  }

  private async generateNow(options: GenerateOptions, onToken?: (textSoFar: string) => void): Promise<GenerateResult> {
    const { m, tok, info } = this.need();
    const tf = this.tf;
    const ids = this.tokenize(options);
    const promptLen = ids.length;
    if (!promptLen) throw new Error('generate(): the prompt is empty (no tokens).');
    // Past its trained positions a model's output is garbage (or its graph fails), so the reply is cut to the context
    // left; a prompt that fills the context cannot be answered at all.
    const room = info.contextLength === undefined ? Infinity : info.contextLength - promptLen;
    if (room < 1)
      throw new ContextOverflowError(
        `The prompt has ${promptLen} tokens, but model "${info.id}" reads at most ${info.contextLength}: shorten the conversation or choose a model with a longer context.`,
      );
    const maxNewTokens = Math.min(options.maxNewTokens ?? 64, room);
    const input_ids = new tf.Tensor('int64', BigInt64Array.from(ids.map(BigInt)), [1, promptLen]);
    const attention_mask = new tf.Tensor('int64', new BigInt64Array(promptLen).fill(1n), [1, promptLen]);
    const L1 = info.numLayers + 1;
    const H = info.hiddenSize;
    // Constrained decoding: before each forward call, the token chosen last (the call's input) is fed to the grammar
    // matcher and the next step's allowed tokens are fetched (XGrammar answers asynchronously; the logits processor
    // that applies them is synchronous).
    const matcher = options.grammar ? await (await this.grammarSession(info)).matcher(options.grammar) : null;
    let allowed: Int32Array | null = matcher ? await matcher.getNextTokenBitmask() : null;
    // Taken before the forward is wrapped, so that a failure here leaves the model as it was. The full prompt goes in
    // either way: from a kept cache, transformers.js feeds only the tokens past its length.
    const key = options.cacheKey;
    const caches = (this.caches ??= new ConversationCaches(tf));
    const reuse = key === undefined ? null : await caches.take(key, ids);
    const tap = tapPrefill(
      m,
      matcher
        ? async (call, inputs) => {
            if (call === 0) return;
            const ids = (inputs as { input_ids: { data: BigInt64Array } }).input_ids.data;
            const last = Number(ids[ids.length - 1]);
            if (!matcher.acceptToken(last)) throw new Error(`constrained decoding: the grammar refused token ${last}`);
            allowed = matcher.isTerminated() ? null : await matcher.getNextTokenBitmask();
          }
        : undefined,
    );
    const rng = createRng(options.seed ?? 0);
    const params = samplingParams(options, info);
    // The prompt's distinct tokens, built on the first step that a penalty needs them (pickToken).
    let promptTokens: Int32Array | undefined;
    class GrammarMask extends tf.LogitsProcessor {
      _call(_ids: unknown, logits: TF) {
        if (allowed) applyBitmask(logits.data as Float32Array, allowed);
        return logits;
      }
    }
    const stops = (options.stop ?? []).filter((s) => s.length > 0);
    let finish: GenerateResult['finishReason'] = 'length';
    this.cancelled = false;
    // The stopping criterion is its own class, so it reads the runtime's state through these two.
    const isCancelled = () => this.cancelled;
    const eosIds = this.eosIds;
    class Stopper extends tf.StoppingCriteria {
      _call(all: bigint[][]) {
        const row = all[0];
        const gen = row.slice(promptLen).map(Number);
        const last = gen[gen.length - 1];
        if (isCancelled()) {
          finish = 'cancelled';
          return [true];
        }
        if (last !== undefined && eosIds.has(last)) {
          finish = 'eos';
          return [true];
        }
        if (stops.length || onToken) {
          const text: string = tok.decode(gen, { skip_special_tokens: true });
          onToken?.(text);
          if (stops.some((s) => text.includes(s))) {
            finish = 'stop';
            return [true];
          }
        }
        return [false];
      }
    }
    const t0 = now();
    let sequences: TF;
    let kept: TF = null;
    try {
      const out = await m.generate({
        input_ids,
        attention_mask,
        max_new_tokens: maxNewTokens,
        ...PLAIN_STEP,
        // The mask first, so that sampling (or the greedy pick) only sees tokens the grammar allows.
        logits_processor: [
          ...(matcher ? [new GrammarMask()] : []),
          ...(needsSampler(params) ? [seededSampler(tf, params, { rng: () => rng, prompt: () => (promptTokens ??= distinctTokens(ids)) })] : []),
        ],
        stopping_criteria: [new Stopper()],
        // With a key, the cache comes back with the reply, to be kept for this conversation's next call.
        ...(key === undefined ? {} : { return_dict_in_generate: true, ...(reuse ? { past_key_values: reuse.cache } : {}) }),
      });
      sequences = key === undefined ? out : out.sequences;
      kept = key === undefined ? null : out.past_key_values;
    } catch (e) {
      await reuse?.cache.dispose();
      throw e;
    } finally {
      tap.restore();
    }
    const prefillMs = tap.ms;
    const totalMs = now() - t0;
    const all = Array.from(sequences.data as BigInt64Array, Number);
    sequences.dispose?.();
    // Kept even after a cancel: the cache holds exactly the first tokens of `all`, wherever the reply stopped, and
    // reading the next prompt from it gives the same numbers as a run that was never stopped there.
    if (key !== undefined) await caches.keep(key, all, kept);
    const reusedTokens = reuse?.reused ?? 0;
    let tokens = all.slice(promptLen);
    const visible = tokens.filter((t) => !this.eosIds.has(t));
    let text: string = visible.length ? tok.decode(visible, { skip_special_tokens: true }) : '';
    const cut = stops.map((s) => text.indexOf(s)).filter((i) => i >= 0);
    if (cut.length) {
      text = text.slice(0, Math.min(...cut));
      finish = 'stop';
    }
    if (finish === 'length' && tokens.length && this.eosIds.has(tokens[tokens.length - 1])) finish = 'eos';
    const decodeMs = Math.max(0, totalMs - prefillMs);
    const states = tap.states;
    if (states && states.length !== L1 * H) throw new Error(`hidden states have ${states.length} values, expected ${L1}×${H}`);
    tokens = tokens.map(Number);
    return {
      text,
      tokens,
      promptTokens: ids,
      prefillStates: states,
      shape: [L1, H],
      finishReason: finish,
      timing: {
        promptTokens: promptLen,
        newTokens: tokens.length,
        prefillMs,
        decodeMs,
        totalMs,
        ...(reusedTokens ? { reusedTokens } : {}),
        prefillTokensPerSecond: prefillMs > 0 ? (promptLen - reusedTokens) / (prefillMs / 1000) : 0,
        decodeTokensPerSecond: decodeMs > 0 && tokens.length > 1 ? (tokens.length - 1) / (decodeMs / 1000) : 0,
      },
    };
  }

  async chat(agentId: string, userContent: string, options: Omit<GenerateOptions, 'messages' | 'prompt'> = {}): Promise<GenerateResult> {
    const history = this.conversations.get(agentId) ?? [];
    const messages: ChatMessage[] = [...history, { role: 'user', content: userContent }];
    const result = await this.generate({ ...options, messages });
    this.conversations.set(agentId, [...messages, { role: 'assistant', content: result.text }]);
    return result;
  }

  async setConversation(agentId: string, messages: ChatMessage[]): Promise<void> {
    this.conversations.set(
      agentId,
      messages.map((m) => ({ ...m })),
    );
  }

  async getConversation(agentId: string): Promise<ChatMessage[]> {
    return (this.conversations.get(agentId) ?? []).map((m) => ({ ...m }));
  }

  /** Runs one forward pass and returns its outputs; GPU-resident outputs (the KV cache) are disposed. */
  private async forwardOnce(rows: number[][], keepTaps = true): Promise<TF> {
    const { m } = this.need();
    const tf = this.tf;
    const B = rows.length;
    const S = Math.max(...rows.map((r) => r.length));
    const pad = this.tokenizer.pad_token_id ?? 0;
    const ids = new BigInt64Array(B * S);
    const mask = new BigInt64Array(B * S);
    rows.forEach((r, b) => {
      const off = S - r.length; // left padding: the last position is every row's last token
      for (let s = 0; s < S; s++) {
        ids[b * S + s] = BigInt(s < off ? pad : r[s - off]);
        mask[b * S + s] = s < off ? 0n : 1n;
      }
    });
    const out = await m.forward({ input_ids: new tf.Tensor('int64', ids, [B, S]), attention_mask: new tf.Tensor('int64', mask, [B, S]) });
    for (const [name, t] of Object.entries(out as Record<string, TF>)) {
      if (name.startsWith('present') && t?.location === 'gpu-buffer') t.dispose?.();
      if (name === TAP_OUTPUT && !keepTaps) {
        if (t?.location === 'gpu-buffer') t.dispose?.();
        delete out[name];
      }
    }
    return out;
  }

  encode(prompts: string[], options: EncodeOptions = {}): Promise<EncodeResult> {
    return this.serial(async () => {
      const { info } = this.need();
      const L1 = info.numLayers + 1;
      const H = info.hiddenSize;
      const rows = prompts.map((p) =>
        options.chatTemplate
          ? this.tokenize({ messages: [{ role: 'user', content: p }], addGenerationPrompt: options.addGenerationPrompt ?? true })
          : this.tokenize({ prompt: p }),
      );
      const empty = rows.findIndex((r) => r.length === 0);
      if (empty >= 0) throw new Error(`encode(): prompt ${empty} is empty (no tokens).`);
      const data = new Float32Array(prompts.length * L1 * H);
      const room = (r: number[]) => info.contextLength === undefined || r.length < info.contextLength;
      if (options.cacheKey !== undefined && rows.every(room)) {
        // One prefill each (the one token it then picks is thrown away), continuing from the previous prompt's cache.
        for (const [i, p] of prompts.entries()) {
          const r = await this.generateNow({
            ...(options.chatTemplate ? { messages: [{ role: 'user', content: p }], addGenerationPrompt: options.addGenerationPrompt ?? true } : { prompt: p }),
            maxNewTokens: 1,
            cacheKey: options.cacheKey,
          });
          if (!r.prefillStates) throw new Error('encode() needs the hidden-state taps: load the model with taps enabled.');
          data.set(r.prefillStates, i * L1 * H);
        }
        // The reading is done: its cache would only hold memory (on WebGPU, GPU memory) until pushed out.
        await this.caches?.forget(options.cacheKey);
        return { data, shape: [prompts.length, L1, H] as [number, number, number], lengths: rows.map((r) => r.length) };
      }
      const batch = Math.max(1, options.batchSize ?? 8);
      for (let start = 0; start < rows.length; start += batch) {
        const chunk = rows.slice(start, start + batch);
        const out = await this.forwardOnce(chunk);
        const hs = out[TAP_OUTPUT];
        if (!hs) throw new Error('encode() needs the hidden-state taps: load the model with taps enabled.');
        const src = await readTensor(hs); // [L+1, B, H]
        const B = chunk.length;
        for (let b = 0; b < B; b++) {
          for (let l = 0; l < L1; l++) {
            data.set(src.subarray((l * B + b) * H, (l * B + b + 1) * H), ((start + b) * L1 + l) * H);
          }
        }
        out.logits?.dispose?.();
      }
      return { data, shape: [prompts.length, L1, H] as [number, number, number], lengths: rows.map((r) => r.length) };
    });
  }

  scoreText(context: string, text: string): Promise<ScoreResult> {
    return this.serial(async () => {
      const { tok } = this.need();
      const ctx = context ? this.tokenize({ prompt: context }) : [];
      const cont = Array.from(tok.encode(text, { add_special_tokens: false }) as number[]);
      if (!cont.length) return { tokens: [], pieces: [], logProbs: [], total: 0 };
      const rows = [...ctx, ...cont];
      const out = await this.forwardOnce([rows], false);
      const logits = out.logits;
      const V = logits.dims.at(-1) as number;
      const raw = logits.data as Float32Array | Uint16Array;
      const data = raw instanceof Float32Array ? raw : (await logits.to('float32')).data;
      const logProbs: number[] = [];
      const tokens: number[] = [];
      for (let j = 0; j < cont.length; j++) {
        const pos = ctx.length + j - 1; // logits at pos predict token pos+1
        if (pos < 0) continue; // the first token without context has no prediction
        const row = data.subarray(pos * V, (pos + 1) * V);
        let max = -Infinity;
        for (let i = 0; i < V; i++) if (row[i] > max) max = row[i];
        let sum = 0;
        for (let i = 0; i < V; i++) sum += Math.exp(row[i] - max);
        logProbs.push(row[cont[j]] - max - Math.log(sum));
        tokens.push(cont[j]);
      }
      logits.dispose?.();
      const pieces = tokens.map((t) => tok.decode([t], { skip_special_tokens: false }) as string);
      return { tokens, pieces, logProbs, total: logProbs.reduce((a, b) => a + b, 0) };
    });
  }

  async cancel(): Promise<void> {
    this.cancelled = true;
  }

  async dispose(): Promise<void> {
    const m = this.model;
    this.model = null;
    this.loaded = null;
    this.conversations.clear();
    await this.caches?.forget();
    this.caches = null;
    await m?.dispose?.();
  }
}

export { isHubId };
