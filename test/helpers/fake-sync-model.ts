/**
 * A stand-in for a language model in Synchrony runner tests: it answers in one line and returns "prefill states"
 * built from a latent random walk over the dialogue so far (z_t = Σ of one random vector per earlier utterance), so
 * that the partner's next state is linearly predictable from this one, and less so at larger lags. Passive encodings
 * are pure noise. Everything is a deterministic function of the prompt and the seed.
 */
import { createRng, hashSeed } from '../../src/core/rng';
import type { RunnerGenerateOptions, RunnerModel } from '../../src/core/runs/models';
import type { Persona } from '../../src/core/prompts/synchrony';

export interface FakeModelOptions {
  id?: string;
  layers?: number;
  hidden?: number;
  /** Replies by call number; a function of the prompt otherwise. */
  script?: (prompt: string, call: number) => string | undefined;
}

/** A plain persona for the stand-in scenarios of Synchrony tests: only the name varies. */
export const testPersona = (name: string): Persona => ({
  name,
  age: 30,
  occupation: 'baker',
  pronouns: 'they/them',
  publicInfo: `${name} runs a bakery.`,
  personality: 'Calm.',
  decisionStyle: 'Careful.',
  secret: `${name} once burnt a wedding cake.`,
});

const LATENT = 4;

function historyOf(prompt: string): string[] {
  return [...prompt.matchAll(/^Turn \d+: .*? said: (.*)$/gm)].map((m) => m[1]);
}

export function fakeSyncModel(opts: FakeModelOptions = {}) {
  const L = opts.layers ?? 2;
  const H = opts.hidden ?? 8;
  const calls: { prompt: string; options: RunnerGenerateOptions }[] = [];
  const encoded: string[] = [];
  const mixing = Array.from({ length: L }, (_, l) => {
    const r = createRng(`mix/${opts.id ?? 'fake'}/${l}`);
    return Float64Array.from({ length: H * LATENT }, () => r.normal());
  });
  const states = (history: string[], noiseSeed: string) => {
    const z = new Float64Array(LATENT);
    for (const u of history) {
      const r = createRng(`utterance/${u}`);
      for (let j = 0; j < LATENT; j++) z[j] += r.normal();
    }
    const noise = createRng(noiseSeed);
    const out = new Float32Array((L + 1) * H);
    for (let h = 0; h < H; h++) out[h] = noise.normal();
    for (let l = 0; l < L; l++)
      for (let h = 0; h < H; h++) {
        let s = 0;
        for (let j = 0; j < LATENT; j++) s += mixing[l][h * LATENT + j] * z[j];
        out[(l + 1) * H + h] = s + 0.3 * noise.normal();
      }
    return out;
  };
  const model: RunnerModel & { calls: typeof calls; encoded: string[] } = {
    id: opts.id ?? 'fake',
    backend: 'fake',
    dtype: 'fp32',
    numLayers: L,
    hiddenSize: H,
    calls,
    encoded,
    async generate(options) {
      const prompt = options.messages?.map((m) => m.content).join('\n') ?? options.prompt ?? '';
      calls.push({ prompt, options });
      const history = historyOf(prompt);
      const scripted = opts.script?.(prompt, calls.length - 1);
      const text = scripted ?? `Point ${hashSeed(`${options.seed}`) % 1000} about turn ${history.length + 1}.`;
      return {
        text,
        prefillStates: states(history, `noise/${options.seed}`),
        shape: [L + 1, H],
        timing: { promptTokens: Math.ceil(prompt.length / 4), newTokens: 8, totalMs: 1 },
        finishReason: 'eos',
      };
    },
    async encode(prompts) {
      encoded.push(...prompts);
      const data = new Float32Array(prompts.length * (L + 1) * H);
      prompts.forEach((p, i) => {
        const r = createRng(`passive/${p}`);
        for (let k = 0; k < (L + 1) * H; k++) data[i * (L + 1) * H + k] = r.normal();
      });
      return { data, shape: [prompts.length, L + 1, H], lengths: prompts.map((p) => p.length) };
    },
    async cancel() {},
  };
  return model;
}
