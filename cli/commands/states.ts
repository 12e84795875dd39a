import { writeFileSync } from 'node:fs';
import { CliUsageError, type CliCommand } from '../command.ts';
import { createNodeRuntime } from '../../src/runtime/node.ts';
import { writeSafetensors } from '../../src/core/safetensors.ts';
import type { Device, Dtype } from '../../src/runtime/types.ts';

export const DEVICES = ['auto', 'cpu', 'wasm', 'webgpu'];
export const DTYPES = ['auto', 'fp32', 'fp16', 'q4', 'q4f16', 'q8'];

export function modelOptions(values: Record<string, unknown>): { model: string; device: Device; dtype: Dtype } {
  const model = values.model;
  if (typeof model !== 'string' || !model) throw new CliUsageError('--model is required (a registry id such as tiny-social, a hub id, or a local folder)');
  const device = (values.device as string | undefined) ?? 'auto';
  const dtype = (values.dtype as string | undefined) ?? 'auto';
  if (!DEVICES.includes(device)) throw new CliUsageError(`--device must be one of ${DEVICES.join(', ')}`);
  if (!DTYPES.includes(dtype)) throw new CliUsageError(`--dtype must be one of ${DTYPES.join(', ')}`);
  return { model, device: device as Device, dtype: dtype as Dtype };
}

export const statesCommand: CliCommand = {
  name: 'states',
  summary: 'Hidden states (every layer, last prompt token) of a model for a prompt, as safetensors or JSON.',
  usage:
    'npm run lab -- states --model <registry id | hub id | folder> --prompt "<text>" [--chat] [--device cpu|wasm] [--dtype fp32|q4] [--out f.safetensors | --json]',
  options: {
    model: { type: 'string' },
    prompt: { type: 'string' },
    chat: { type: 'boolean', default: false },
    device: { type: 'string' },
    dtype: { type: 'string' },
    out: { type: 'string' },
  },
  async run({ values, json, out, err }) {
    const { model, device, dtype } = modelOptions(values);
    const prompt = values.prompt;
    if (typeof prompt !== 'string') throw new CliUsageError('--prompt is required');
    if (!json && typeof values.out !== 'string') throw new CliUsageError('give --out <file.safetensors> or --json');
    const rt = createNodeRuntime();
    try {
      const info = await rt.load(model, { device, dtype });
      const r = await rt.encode([prompt], { chatTemplate: Boolean(values.chat) });
      const [, L1, H] = r.shape;
      const tokens = rt.tokenize(values.chat ? { messages: [{ role: 'user', content: prompt }] } : { prompt });
      const meta = {
        model: info.id,
        backend: info.backend,
        dtype: info.dtype,
        layers: String(info.numLayers),
        hidden_size: String(H),
        chat: String(Boolean(values.chat)),
        prompt,
      };
      if (typeof values.out === 'string') {
        const bytes = writeSafetensors(
          { hidden_states: { shape: [L1, H], data: r.data }, input_ids: { shape: [tokens.length], data: Int32Array.from(tokens) } },
          meta,
        );
        writeFileSync(values.out, bytes);
        err(`wrote ${values.out}: hidden_states [${L1}, ${H}] (row 0 = embeddings), ${info.backend}/${info.dtype}`);
      }
      if (json) {
        const rows = Array.from({ length: L1 }, (_, l) => Array.from(r.data.subarray(l * H, (l + 1) * H)));
        out(JSON.stringify({ ...meta, shape: [L1, H], input_ids: tokens, hidden_states: rows }));
      }
      return 0;
    } finally {
      await rt.dispose();
    }
  },
};
