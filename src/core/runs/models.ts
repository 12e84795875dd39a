/**
 * What an LLM lab's runner may ask of a loaded model. The runtime (src/runtime) satisfies it structurally in the
 * model worker client and in Node; the types are restated here so that src/core depends on nothing outside it.
 */

export interface RunnerChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface RunnerGenerateOptions {
  messages?: RunnerChatMessage[];
  prompt?: string;
  temperature?: number;
  topP?: number;
  minP?: number;
  topK?: number;
  /** Favour the prompt's own tokens (transformers' encoder_repetition_penalty; 1: none); default: the model's own. */
  promptBoost?: number;
  /** Make tokens already in the sequence less likely (transformers' repetition_penalty; 1: none); default: the model's own. */
  repetitionPenalty?: number;
  maxNewTokens?: number;
  stop?: string[];
  seed?: number | string;
  /** Constrained decoding: an EBNF grammar the reply must follow (src/core/prompts/grammars.ts); hosts that cannot refuse it. */
  grammar?: string;
  /** One side of a conversation whose KV cache the runtime keeps for its next call (src/runtime/types.ts GenerateOptions). */
  cacheKey?: string;
}

export interface RunnerGenerateResult {
  text: string;
  /** Residual stream at the last prompt token from the generating prefill: [L+1, H], row 0 = embeddings. */
  prefillStates: Float32Array | null;
  shape: [number, number];
  timing: { promptTokens: number; newTokens: number; totalMs: number };
  finishReason: 'eos' | 'stop' | 'length' | 'cancelled';
}

export interface RunnerEncodeResult {
  /** [n, L+1, H], row-major. */
  data: Float32Array;
  shape: [number, number, number];
  lengths: number[];
}

/**
 * The sampling a model's makers ask for (its generation_config.json, as transformers' generate() reads it). Each field
 * is used by every call that sets none of its own: top-p 1, min-p 0 and top-k 0 mean no cut.
 */
export interface ModelSampling {
  topP: number;
  minP: number;
  /** 0: no cut. Absent in records written before the lab read it (read as 0). */
  topK?: number;
  /** generation_config.json's encoder_repetition_penalty: the prompt's tokens favoured by it. Absent: 1, none. */
  promptBoost?: number;
  /** generation_config.json's repetition_penalty. Absent: 1, none. */
  repetitionPenalty?: number;
  /** generation_config.json's bad_words_ids: token sequences the model never writes. Absent: none. */
  banned?: number[][];
}

/**
 * The most sequences, and tokens in one, that a ban list may hold: the runtime reads no longer list from a model's file
 * (a hostile or broken one) and a run's record refuses one, so both checks keep the same bounds.
 */
export const MAX_BANNED = { sequences: 10_000, tokens: 64 } as const;

export interface RunnerModel {
  /** The id the config named (registry or hub id). */
  readonly id: string;
  readonly backend: string;
  readonly dtype: string;
  /** The model's own sampling (ModelSampling), used where a call sets none; absent where the host does not say. */
  readonly sampling?: ModelSampling;
  /** Decoder layers L (the states have L+1 rows). */
  readonly numLayers: number;
  readonly hiddenSize: number;
  /** The tokenizer's identity, where the host knows it (equal exactly when two models tokenise alike). */
  readonly tokenizer?: string;
  generate(options: RunnerGenerateOptions): Promise<RunnerGenerateResult>;
  /**
   * The replies to each request, one per seed, each as generate() with that seed would give it (a host may decode
   * them together, and share one prefill among a prompt's seeds). Hosts without it are asked once per reply
   * (`sampleEach`).
   */
  generateSamples?(requests: readonly RunnerSampleRequest[]): Promise<RunnerGenerateResult[][]>;
  /**
   * Each prompt as one user message in the chat template when `chatTemplate`; states at the last token. With
   * `cacheKey`, the prompts are read one after another, each from the KV cache of the one before where they begin
   * alike (a passive reader's prompts are one conversation growing).
   */
  encode(
    prompts: string[],
    options?: { chatTemplate?: boolean; addGenerationPrompt?: boolean; batchSize?: number; cacheKey?: string },
  ): Promise<RunnerEncodeResult>;
  /** Stops a generate() in flight at its next token. */
  cancel(): Promise<void>;
  /**
   * log p of each token of `text` after `context` (natural log; `text` tokenised on its own; with an empty context
   * the first token has no prediction and is left out). Hosts that cannot score leave it out.
   */
  scoreText?(context: string, text: string): Promise<{ tokens: number[]; logProbs: number[]; total: number }>;
}

/** The models a run needs, loaded by the host before the first episode (RunPlan.models names them). */
export interface RunnerModels {
  get(modelId: string): RunnerModel;
}

/**
 * A prompt that leaves the model no room to reply (longer than its context). Asking again cannot help, so a format
 * that asks through askParsed records the failure instead of failing the run. Matched by class, or by name where it
 * crossed a worker (comlink rebuilds an Error with its name, not its class).
 */
export class ContextOverflowError extends Error {
  override name = 'ContextOverflowError';
}

export const isContextOverflow = (e: unknown): e is Error => e instanceof ContextOverflowError || (e instanceof Error && e.name === 'ContextOverflowError');

export class MissingModelsError extends Error {
  constructor(lab: string) {
    super(`The ${lab} lab needs loaded models, and this host gave none.`);
    this.name = 'MissingModelsError';
  }
}

/** The models of an episode context, or a clear error for a host that passed none. */
export function requireModels(lab: string, models: RunnerModels | undefined): RunnerModels {
  if (!models) throw new MissingModelsError(lab);
  return models;
}

/** One prompt and the seeds of its replies; the options' own seed is not read. */
export interface RunnerSampleRequest {
  options: RunnerGenerateOptions;
  seeds: readonly (number | string)[];
}

/** The replies to each request, one per seed: together where the host can, else one call per reply. */
export async function sampleEach(
  model: Pick<RunnerModel, 'generate' | 'generateSamples'>,
  requests: readonly RunnerSampleRequest[],
): Promise<RunnerGenerateResult[][]> {
  if (model.generateSamples) return model.generateSamples(requests);
  const out: RunnerGenerateResult[][] = [];
  for (const { options, seeds } of requests) {
    const replies: RunnerGenerateResult[] = [];
    for (const seed of seeds) replies.push(await model.generate({ ...options, seed }));
    out.push(replies);
  }
  return out;
}

/** One reply per seed to the same prompt. */
export async function sampleReplies(
  model: Pick<RunnerModel, 'generate' | 'generateSamples'>,
  options: RunnerGenerateOptions,
  seeds: readonly (number | string)[],
): Promise<RunnerGenerateResult[]> {
  const [replies] = await sampleEach(model, [{ options, seeds }]);
  return replies;
}

/** One reply to each request (with its own seed): together where the host can; a lone request is a plain call. */
export async function generateEach(
  model: Pick<RunnerModel, 'generate' | 'generateSamples'>,
  requests: readonly RunnerGenerateOptions[],
): Promise<RunnerGenerateResult[]> {
  if (requests.length === 1) return [await model.generate(requests[0])];
  const replies = await sampleEach(
    model,
    requests.map((options) => ({ options, seeds: [options.seed ?? 0] })),
  );
  return replies.map(([r]) => r);
}
