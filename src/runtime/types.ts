/** The model runtime's public types, shared by the worker, the main-thread client and Node. */

export type Device = 'auto' | 'webgpu' | 'wasm' | 'cpu';
export type Dtype = 'auto' | 'fp32' | 'fp16' | 'q4' | 'q4f16' | 'q8';
export type Backend = Exclude<Device, 'auto'>;
export type ConcreteDtype = Exclude<Dtype, 'auto'>;

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface LoadOptions {
  device?: Device;
  dtype?: Dtype;
  /** Add the hidden-state taps (default true). false loads the stock graph (benchmarks compare the two). */
  taps?: boolean;
  /** A hub model's revision (a commit or a tag); overrides the registry's pin. Default: the pin, or "main". */
  revision?: string;
  /** The hub's base URL (a mirror). Default: $HF_ENDPOINT in Node, else https://huggingface.co/. */
  hubUrl?: string;
}

export interface LoadProgress {
  /** 'download' while bytes arrive, 'patch' while the graph is patched, 'session' while the session is built. */
  phase: 'download' | 'patch' | 'session' | 'ready';
  file?: string;
  /** Bytes received so far, over all files. */
  loaded: number;
  /** Bytes expected over all files seen so far (content-length); 0 when unknown. */
  total: number;
}

export interface LoadResult {
  id: string;
  backend: Backend;
  dtype: ConcreteDtype;
  /** Why this backend/dtype were chosen (shown to the user). */
  reason: string;
  numLayers: number;
  hiddenSize: number;
  /**
   * The nucleus mass the model's makers ask for (generation_config.json `top_p`, as transformers' generate() reads it),
   * used by every call that gives no topP; 1 (no cut) where the file says nothing.
   */
  topP: number;
  /** The min-p cut the model's makers ask for (generation_config.json `min_p`); 0 (no cut) where the file says nothing. */
  minP: number;
  /**
   * The top-k cut the model's makers ask for (generation_config.json `top_k`); 0 (no cut) where the file says nothing.
   * transformers' generate() would cut at 50 there; the lab does not, so models without one sample as they always have.
   */
  topK: number;
  /**
   * How much the model's makers ask to favour the prompt's own tokens (generation_config.json
   * `encoder_repetition_penalty`, transformers' EncoderRepetitionPenaltyLogitsProcessor; sampling.ts
   * boostPromptTokens); 1 (no change) where the file says nothing.
   */
  promptBoost: number;
  /**
   * The repetition penalty the model's makers ask for (generation_config.json `repetition_penalty`, transformers'
   * RepetitionPenaltyLogitsProcessor: every token already in the sequence, prompt included, made less likely; Qwen2.5's
   * instruct models ship 1.05, the 0.5B and 1.5B 1.1); 1 (none) where the file says nothing.
   */
  repetitionPenalty: number;
  /**
   * Token sequences the model's makers ban (generation_config.json `bad_words_ids`, transformers'
   * NoBadWordsLogitsProcessor; sampling.ts banSequences); empty where the file says nothing.
   */
  banned: number[][];
  /** Positions the model was trained on (config.json max_position_embeddings); absent when the config does not say. */
  contextLength?: number;
  /** The tokenizer's identity (src/runtime/tokenizer-id.ts): equal exactly when two models tokenise alike. */
  tokenizer: string;
  /** config.json's vocab_size: the width of the logits (absent when the config does not say). */
  vocabSize?: number;
  /** How the residual stream was located, e.g. ['optimum']; empty when loaded without taps. */
  tapStyles: string[];
  /** Warnings for the user, e.g. an unknown hub model whose layout was auto-detected. */
  warnings: string[];
  loadMs: number;
}

export interface GenerateOptions {
  messages?: ChatMessage[];
  prompt?: string;
  /** 0 (default) = greedy. */
  temperature?: number;
  /** Nucleus sampling mass; default: the model's own (LoadResult.topP). */
  topP?: number;
  /** Min-p cut (see SamplingParams); default: the model's own (LoadResult.minP). */
  minP?: number;
  /** Top-k cut (see SamplingParams); default: the model's own (LoadResult.topK). */
  topK?: number;
  /** Prompt boost (see LoadResult.promptBoost); default: the model's own. 1: none. */
  promptBoost?: number;
  /** Repetition penalty (see LoadResult.repetitionPenalty); default: the model's own. 1: none. */
  repetitionPenalty?: number;
  /** Token sequences never written (see LoadResult.banned); default: the model's own. []: none. */
  banned?: readonly (readonly number[])[];
  maxNewTokens?: number;
  /** Generation stops when the generated text contains one of these; the text is cut before it. */
  stop?: string[];
  /** Seed for sampling; the same seed, backend and dtype give the same text. Default 0. */
  seed?: number | string;
  /**
   * Constrained decoding: an EBNF grammar (XGrammar's dialect, root rule `root`) that the reply must follow; at each
   * step only tokens that keep it inside the grammar may be chosen, and the reply ends where the grammar does.
   */
  grammar?: string;
  /**
   * One side of a conversation (a Synchrony agent in an episode, say): the runtime keeps the KV cache of this key's
   * last call and, when the new prompt begins with the same tokens, reads only the rest (kv-reuse.ts). Calls under one
   * key in the same order give the same numbers; a call without a key reads it all. generateSamples() ignores it.
   */
  cacheKey?: string;
}

export interface Timing {
  promptTokens: number;
  newTokens: number;
  prefillMs: number;
  decodeMs: number;
  totalMs: number;
  /** Prompt tokens whose keys and values came from the conversation's kept cache (GenerateOptions.cacheKey). */
  reusedTokens?: number;
  /** Prompt tokens per second during the prefill forward (the tokens it read, reused ones not counted). */
  prefillTokensPerSecond: number;
  /** Generated tokens per second after the prefill. */
  decodeTokensPerSecond: number;
}

export interface GenerateResult {
  text: string;
  /** Generated token ids (the prompt excluded). */
  tokens: number[];
  /** Prompt token ids as the model saw them. */
  promptTokens: number[];
  /** Residual stream at the last prompt token, from the same prefill pass: row 0 = embeddings. Null without taps. */
  prefillStates: Float32Array | null;
  /** [L+1, H] */
  shape: [number, number];
  timing: Timing;
  /** 'eos' | 'stop' (a stop string) | 'length' | 'cancelled' */
  finishReason: 'eos' | 'stop' | 'length' | 'cancelled';
}

export interface EncodeOptions {
  /** Wrap each prompt as one user message in the model's chat template (default false). */
  chatTemplate?: boolean;
  /** With chatTemplate, append the assistant prefix (default true). */
  addGenerationPrompt?: boolean;
  batchSize?: number;
  /**
   * The prompts are one conversation growing (a passive reader's view of a dialogue, turn by turn): they are read one
   * after another, each from the KV cache of the one before, under this key (GenerateOptions.cacheKey), instead of
   * in padded batches, and the cache is dropped at the end. The states are the same within float error, and on the
   * Synchrony preset the reading took a third of the time (docs/runtime.md). Where a prompt fills the model's
   * context, the whole call is read in batches instead.
   */
  cacheKey?: string;
}

export interface EncodeResult {
  /** [n, L+1, H], row-major. */
  data: Float32Array;
  shape: [number, number, number];
  /** Prompt lengths in tokens. */
  lengths: number[];
}

export interface ScoreResult {
  /** Token ids of `text` (tokenised on its own, after the context). */
  tokens: number[];
  /** Each token's decoded text. */
  pieces: string[];
  /** log p(token | context, previous tokens), natural log. */
  logProbs: number[];
  total: number;
}

export interface LoadedModelInfo {
  id: string;
  backend: Backend;
  dtype: ConcreteDtype;
}

/** One prompt and the seeds of its replies (generateSamples); the options' own seed is not read. */
export interface SampleRequest {
  options: GenerateOptions;
  seeds: readonly (number | string)[];
}

/** The operations a loaded model exposes (the worker API and the Node runtime are both this). */
export interface ModelApi {
  load(model: string, options?: LoadOptions, onProgress?: (p: LoadProgress) => void): Promise<LoadResult>;
  generate(options: GenerateOptions, onToken?: (textSoFar: string) => void): Promise<GenerateResult>;
  /**
   * The replies to each request, one per seed, each as generate() with that seed gives it: decoded together, each
   * prompt's seeds from one prefill, where the backend can.
   */
  generateSamples(requests: readonly SampleRequest[]): Promise<GenerateResult[][]>;
  /** Appends a user turn to an agent's conversation, generates the reply and records it. */
  chat(agentId: string, userContent: string, options?: Omit<GenerateOptions, 'messages' | 'prompt'>): Promise<GenerateResult>;
  setConversation(agentId: string, messages: ChatMessage[]): Promise<void>;
  getConversation(agentId: string): Promise<ChatMessage[]>;
  encode(prompts: string[], options?: EncodeOptions): Promise<EncodeResult>;
  scoreText(context: string, text: string): Promise<ScoreResult>;
  /** Cancels the running generate() at the next token (its result has finishReason 'cancelled'). */
  cancel(): Promise<void>;
  info(): Promise<LoadResult | null>;
  dispose(): Promise<void>;
}
