/**
 * One model per worker: load, generate (with the prefill hidden states), encode, score, via comlink.
 * Unloading a model terminates its worker (after dispose(), WebGPU cannot be created again in the same worker).
 */
import * as Comlink from 'comlink';
import { createBrowserRuntime } from '../src/runtime/browser';
import type { EncodeOptions, GenerateOptions, LoadOptions, LoadProgress, ChatMessage, SampleRequest } from '../src/runtime/types';

const runtime = createBrowserRuntime();

export const modelWorkerApi = {
  ping: async (): Promise<'pong'> => 'pong',
  load: (model: string, options?: LoadOptions, onProgress?: (p: LoadProgress) => void) => runtime.load(model, options, onProgress),
  generate: async (options: GenerateOptions, onToken?: (textSoFar: string) => void) => {
    const r = await runtime.generate(options, onToken);
    return r.prefillStates ? Comlink.transfer(r, [r.prefillStates.buffer]) : r;
  },
  generateSamples: async (requests: readonly SampleRequest[]) => {
    const rs = await runtime.generateSamples(requests);
    return Comlink.transfer(
      rs,
      rs.flat().flatMap((r) => (r.prefillStates ? [r.prefillStates.buffer] : [])),
    );
  },
  chat: (agentId: string, userContent: string, options?: Omit<GenerateOptions, 'messages' | 'prompt'>) => runtime.chat(agentId, userContent, options),
  setConversation: (agentId: string, messages: ChatMessage[]) => runtime.setConversation(agentId, messages),
  getConversation: (agentId: string) => runtime.getConversation(agentId),
  encode: async (prompts: string[], options?: EncodeOptions) => {
    const r = await runtime.encode(prompts, options);
    return Comlink.transfer(r, [r.data.buffer]);
  },
  scoreText: (context: string, text: string) => runtime.scoreText(context, text),
  cancel: () => runtime.cancel(),
  info: () => runtime.info(),
  dispose: () => runtime.dispose(),
};

export type ModelWorkerApi = typeof modelWorkerApi;

Comlink.expose(modelWorkerApi);
