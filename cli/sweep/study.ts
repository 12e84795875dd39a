/**
 * A sweep's study, as submitted (docs/sweeps.md): one lab config split into jobs on a BullMQ queue. The study record
 * lives in Redis beside the finished episodes; every job carries the study id, the config hash and its episode
 * indices, so a worker can check that it runs what was submitted.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { LAB_NAMES } from '../../src/core/config/lab-definition.ts';

export const STUDY_FORMAT = 'social-minds-lab/sweep-study@1';

export const studySchema = z.strictObject({
  format: z.literal(STUDY_FORMAT),
  id: z.string().regex(/^run-[a-z0-9]+-[a-z0-9]+$/),
  name: z.string().max(200),
  lab: z.enum(LAB_NAMES),
  v: z.number().int().positive(),
  config: z.record(z.string(), z.unknown()),
  configHash: z.string().regex(/^[0-9a-f]{64}$/),
  codeVersion: z.string().max(100),
  episodes: z.number().int().nonnegative(),
  jobs: z.number().int().nonnegative(),
  chainLength: z.number().int().positive().optional(),
  /** Episode tensors up to this many bytes go into Redis; larger ones into the store folder. */
  inlineMax: z.number().int().nonnegative(),
  /** The shared folder for larger tensors, as the submitter gave it (a worker may say where it is mounted). */
  store: z.string().max(1000).nullable(),
  runtime: z.strictObject({ device: z.string().max(20).optional(), dtype: z.string().max(20).optional() }),
  createdAt: z.string(),
});
export type Study = z.infer<typeof studySchema>;

/** One job: a few episodes of one study. */
export const jobDataSchema = z.strictObject({
  study: z.string(),
  configHash: z.string(),
  codeVersion: z.string(),
  indices: z.array(z.number().int().nonnegative()).min(1),
});
export type SweepJobData = z.infer<typeof jobDataSchema>;

/** JSON with sorted keys, so that the same config always hashes the same whatever the order it was written in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function configHash(lab: string, v: number, config: unknown): string {
  return createHash('sha256').update(canonicalJson({ lab, v, config })).digest('hex');
}

const ROOT = resolve(import.meta.dirname, '../..');
/** What decides an episode's numbers: the labs, the core, the runtime, the model registry and the inference libraries. */
const VERSIONED = ['src/core', 'src/labs', 'src/runtime', 'workers', 'models/registry.ts'];

function* sourceFiles(path: string): Generator<string> {
  const st = statSync(path);
  if (st.isFile()) {
    if (/\.ts$/.test(path)) yield path;
    return;
  }
  for (const name of readdirSync(path).sort()) yield* sourceFiles(join(path, name));
}

let cachedVersion: string | null = null;

/**
 * The code version a study was submitted with: the package version and a hash of every source file that decides an
 * episode's numbers, plus the versions of the inference libraries. Workers refuse studies of another version,
 * because their episodes would not equal a single-machine run's. SOCIAL_MINDS_CODE_VERSION overrides it (the
 * tests use it to play a worker of another version).
 */
export function codeVersion(): string {
  if (process.env.SOCIAL_MINDS_CODE_VERSION) return process.env.SOCIAL_MINDS_CODE_VERSION;
  if (cachedVersion) return cachedVersion;
  const h = createHash('sha256');
  for (const top of VERSIONED) {
    for (const f of sourceFiles(join(ROOT, top))) h.update(f.slice(ROOT.length)).update('\0').update(readFileSync(f)).update('\0');
  }
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; dependencies: Record<string, string> };
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
  for (const dep of ['@huggingface/transformers', 'onnxruntime-web', 'onnxruntime-node'])
    h.update(`${dep}@${lock.packages[`node_modules/${dep}`]?.version ?? 'none'}`);
  cachedVersion = `${pkg.version}-${h.digest('hex').slice(0, 12)}`;
  return cachedVersion;
}

/** Redis keys of one study (a hash tag keeps them on one Redis Cluster slot). */
export const studyKeys = (id: string) => ({
  study: `sml:sweep:{${id}}:study`,
  records: `sml:sweep:{${id}}:records`,
  tensors: `sml:sweep:{${id}}:tensors`,
  workers: `sml:sweep:{${id}}:workers`,
});
/** The BullMQ job id of a study's k-th job (BullMQ ids may not contain ':'). */
export const jobIdOf = (studyId: string, k: number) => `${studyId}-j${k}`;

/** Every study ever submitted to this Redis (the worker looks here for studies of another version). */
export const STUDIES_KEY = 'sml:sweeps';

/** The BullMQ queue of one code version: a worker only ever takes jobs that its own code can run exactly. */
export const queueName = (version: string) => `sml-sweep-${version.replace(/[^\w.-]/g, '_')}`;
