/**
 * A stand-in language model for runner tests: its reply is `reply(prompt, seed)`, the prompt being the chat messages'
 * contents joined by newlines; it has no states and no real tokens. With `onSamples`, it also answers batched
 * samples (each request's seeds reported first), as the runtime's generateSamples does; without it, the runners
 * fall back to one call per seed.
 */
import type { RunnerGenerateOptions, RunnerModel, RunnerSampleRequest } from '../../src/core/runs/models';

export function textModel(id: string, reply: (prompt: string, seed: string) => string, onSamples?: (seeds: readonly (number | string)[]) => void): RunnerModel {
  const model: RunnerModel = {
    id,
    backend: 'fake',
    dtype: 'fp32',
    numLayers: 1,
    hiddenSize: 2,
    async generate(o: RunnerGenerateOptions) {
      const text = reply(o.messages!.map((m) => m.content).join('\n'), String(o.seed));
      return { text, prefillStates: null, shape: [2, 2], timing: { promptTokens: 1, newTokens: 1, totalMs: 0 }, finishReason: 'eos' };
    },
    async encode() {
      throw new Error('not used');
    },
    async cancel() {},
  };
  if (onSamples)
    model.generateSamples = async (requests: readonly RunnerSampleRequest[]) => {
      for (const { seeds } of requests) onSamples(seeds);
      return Promise.all(requests.map(({ options, seeds }) => Promise.all(seeds.map((seed) => model.generate({ ...options, seed })))));
    };
  return model;
}
