/**
 * Adapts loaded models (a worker handle in the page, a ModelRuntime in Node) to the RunnerModels a lab runner asks
 * for. One load per distinct model id: two agents on the same model share it, and the runtime serialises calls.
 */
import type { RunnerModel, RunnerModels } from '../core/runs/models';
import type { EncodeOptions, EncodeResult, GenerateOptions, GenerateResult, LoadResult, SampleRequest, ScoreResult } from './types';

export interface LoadedModelLike {
  generate(options: GenerateOptions): Promise<GenerateResult>;
  generateSamples(requests: readonly SampleRequest[]): Promise<GenerateResult[][]>;
  encode(prompts: string[], options?: EncodeOptions): Promise<EncodeResult>;
  scoreText(context: string, text: string): Promise<ScoreResult>;
  cancel(): Promise<void>;
}

export function asRunnerModel(id: string, api: LoadedModelLike, info: LoadResult): RunnerModel {
  return {
    id,
    backend: info.backend,
    dtype: info.dtype,
    numLayers: info.numLayers,
    hiddenSize: info.hiddenSize,
    tokenizer: info.tokenizer,
    sampling: {
      topP: info.topP,
      minP: info.minP,
      topK: info.topK,
      promptBoost: info.promptBoost,
      repetitionPenalty: info.repetitionPenalty,
      // LoadResult.banned is absent from a worker of an older build: read as none
      ...(info.banned?.length ? { banned: info.banned } : {}),
    },
    generate: (o) => api.generate(o),
    generateSamples: (requests) => api.generateSamples(requests),
    encode: (p, o) => api.encode(p, o),
    scoreText: (c, t) => api.scoreText(c, t),
    cancel: () => api.cancel(),
  };
}

export class RunnerModelSet implements RunnerModels {
  private byId = new Map<string, RunnerModel>();
  /** The page's worker handles behind these models (absent in Node), so that another lane loads its own. */
  readonly keys: string[] = [];

  add(model: RunnerModel, key?: string): void {
    this.byId.set(model.id, model);
    if (key) this.keys.push(key);
  }

  get(modelId: string): RunnerModel {
    const m = this.byId.get(modelId);
    if (!m) throw new Error(`The model "${modelId}" is not loaded for this run.`);
    return m;
  }

  list(): RunnerModel[] {
    return [...this.byId.values()];
  }

  /** "tiny-social: wasm/fp32; other: webgpu/q4" for the run's metadata. */
  describe(): { backend: string; dtype: string } {
    const all = this.list();
    const uniq = (xs: string[]) => [...new Set(xs)].join(', ');
    return { backend: uniq(all.map((m) => m.backend)), dtype: uniq(all.map((m) => m.dtype)) };
  }

  async cancelAll(): Promise<void> {
    await Promise.all(this.list().map((m) => m.cancel().catch(() => undefined)));
  }
}
