import { z } from 'zod';

/** Shared field builders, so every lab spells seeds, model ids and probabilities the same way. */
export const seedField = () =>
  z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .default(1)
    .describe('Seed for every random draw of the run');

/** A registry id ("tiny-social") or a hub id ("HuggingFaceTB/SmolLM2-135M-Instruct"); nothing else. */
export const modelIdField = (fallback = 'tiny-social') =>
  z
    .string()
    .max(96)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)?$/, 'must be a model id such as "tiny-social" or "owner/name"')
    .default(fallback);

export const probability = (fallback: number) => z.number().min(0).max(1).default(fallback);

/** A nested group whose own fields carry the defaults; `{}` or a missing key parses to the defaults. */
export const group = <T extends z.ZodRawShape>(shape: T) => {
  const object = z.strictObject(shape);
  // Every field of a group has its default, so {} is a valid input; the generic shape hides that from TypeScript.
  return object.prefault({} as z.input<typeof object>);
};

export const shortText = (fallback: string, max = 200) => z.string().max(max).default(fallback);

/**
 * Where an LLM lab runs its models. 'auto' picks WebGPU or WASM in the page and the CPU in Node; a link that names
 * a backend and dtype reproduces a run bit-for-bit on the same kind of machine.
 */
export const runtimeGroup = () =>
  group({
    device: z.enum(['auto', 'webgpu', 'wasm', 'cpu']).default('auto').describe('Backend (cpu exists only in the CLI)'),
    dtype: z.enum(['auto', 'fp32', 'fp16', 'q4', 'q4f16', 'q8']).default('auto'),
  });

const RUNTIME = runtimeGroup();
export type RuntimeSettings = z.output<typeof RUNTIME>;

/** A config's runtime group (backend and dtype), read through its schema: 'auto' where it has none or it does not fit. */
export function runtimeOf(config: unknown): RuntimeSettings {
  const raw = config && typeof config === 'object' && 'runtime' in config ? config.runtime : undefined;
  const parsed = RUNTIME.safeParse(raw ?? {});
  return parsed.success ? parsed.data : RUNTIME.parse({});
}

/** A config's seed (every lab has one, seedField), read through its schema: 0 where it has none or it does not fit. */
export function seedOf(config: unknown): number {
  const raw = config && typeof config === 'object' && 'seed' in config ? config.seed : undefined;
  const parsed = seedField().safeParse(raw ?? 0);
  return parsed.success ? parsed.data : 0;
}
