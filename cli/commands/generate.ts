import { CliUsageError, type CliCommand } from '../command.ts';
import { createNodeRuntime } from '../../src/runtime/node.ts';
import { modelOptions } from './states.ts';

export const generateCommand: CliCommand = {
  name: 'generate',
  summary: 'Generate text with a model (greedy, or seeded sampling with --temperature).',
  usage:
    'npm run lab -- generate --model <registry id | hub id | folder> --prompt "<text>" [--chat] [--seed N] [--temperature T] [--top-p P] [--min-p P] [--top-k K] [--prompt-boost B] [--repetition-penalty R] [--max-new-tokens N] [--device cpu|wasm] [--dtype fp32|q4] [--json]',
  options: {
    model: { type: 'string' },
    prompt: { type: 'string' },
    chat: { type: 'boolean', default: false },
    seed: { type: 'string' },
    temperature: { type: 'string' },
    'top-p': { type: 'string' },
    'min-p': { type: 'string' },
    'top-k': { type: 'string' },
    'prompt-boost': { type: 'string' },
    'repetition-penalty': { type: 'string' },
    'max-new-tokens': { type: 'string' },
    device: { type: 'string' },
    dtype: { type: 'string' },
  },
  async run({ values, json, out, err }) {
    const { model, device, dtype } = modelOptions(values);
    const prompt = values.prompt;
    if (typeof prompt !== 'string') throw new CliUsageError('--prompt is required');
    const num = (name: string, fallback: number) => {
      const v = values[name];
      if (v === undefined) return fallback;
      const n = Number(v);
      if (!Number.isFinite(n)) throw new CliUsageError(`--${name} must be a number`);
      return n;
    };
    const seedArg = values.seed;
    const seed = seedArg === undefined ? 0 : /^\d+$/.test(String(seedArg)) ? Number(seedArg) : String(seedArg);
    // a seed without a temperature means: sample (at 0.7)
    const temperature = num('temperature', seedArg === undefined ? 0 : 0.7);
    // Without --top-p / --min-p / --top-k / --prompt-boost / --repetition-penalty, the model's own: generation_config.json's
    // top_p (else 1), min_p (else 0), top_k (else 0, no cut), encoder_repetition_penalty and repetition_penalty (else 1).
    const topP = values['top-p'] === undefined ? undefined : num('top-p', 1);
    const minP = values['min-p'] === undefined ? undefined : num('min-p', 0);
    const topK = values['top-k'] === undefined ? undefined : num('top-k', 0);
    if (topK !== undefined && !(Number.isInteger(topK) && topK >= 0)) throw new CliUsageError('--top-k must be a whole number (0: no cut)');
    const promptBoost = values['prompt-boost'] === undefined ? undefined : num('prompt-boost', 1);
    if (promptBoost !== undefined && !(promptBoost > 0)) throw new CliUsageError('--prompt-boost must be above 0 (1: none)');
    const repetitionPenalty = values['repetition-penalty'] === undefined ? undefined : num('repetition-penalty', 1);
    if (repetitionPenalty !== undefined && !(repetitionPenalty > 0)) throw new CliUsageError('--repetition-penalty must be above 0 (1: none)');
    const rt = createNodeRuntime();
    try {
      const info = await rt.load(model, { device, dtype });
      // what the model's files asked for and could not be read (a broken ban list, an unknown layout), before the reply
      for (const w of info.warnings) err(`warning: ${w}`);
      const r = await rt.generate({
        ...(values.chat ? { messages: [{ role: 'user' as const, content: prompt }] } : { prompt }),
        temperature,
        ...(topP === undefined ? {} : { topP }),
        ...(minP === undefined ? {} : { minP }),
        ...(topK === undefined ? {} : { topK }),
        ...(promptBoost === undefined ? {} : { promptBoost }),
        ...(repetitionPenalty === undefined ? {} : { repetitionPenalty }),
        maxNewTokens: num('max-new-tokens', 64),
        seed,
      });
      if (json) {
        out(
          JSON.stringify({
            model: info.id,
            backend: info.backend,
            dtype: info.dtype,
            seed,
            temperature,
            topP: topP ?? info.topP,
            minP: minP ?? info.minP,
            topK: topK ?? info.topK,
            promptBoost: promptBoost ?? info.promptBoost,
            repetitionPenalty: repetitionPenalty ?? info.repetitionPenalty,
            bannedSequences: info.banned.length,
            text: r.text,
            tokens: r.tokens,
            finishReason: r.finishReason,
            timing: r.timing,
          }),
        );
      } else {
        out(r.text);
        err(
          `${info.id} ${info.backend}/${info.dtype}: ${r.tokens.length} tokens, ${r.timing.decodeTokensPerSecond.toFixed(1)} tok/s decode (${r.finishReason})`,
        );
      }
      return 0;
    } finally {
      await rt.dispose();
    }
  },
};
