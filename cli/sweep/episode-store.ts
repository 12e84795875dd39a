/**
 * Where a sweep keeps its finished episodes, so that they outlive the worker that ran them: the records in Redis
 * (one hash field per episode, written last, with HSETNX, so an episode is stored once even when two workers ran
 * it), the tensors in Redis when they are small, else in a shared folder that every worker sees.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { readSafetensors, writeSafetensors } from '../../src/core/safetensors.ts';
import type { Episode } from '../../src/core/runs/types.ts';
import { samplingRecordsSchema, type ModelSamplingRecord } from '../../src/core/runs/sampling-record.ts';
import { syncDir, writeErrorCause, writeWhole } from '../atomic-file.ts';
import { studyKeys, type Study } from './study.ts';

const storedSchema = z.strictObject({
  v: z.literal(1),
  index: z.number().int().nonnegative(),
  records: z.array(z.record(z.string(), z.unknown())),
  tensors: z.strictObject({ bytes: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/), file: z.string().optional() }),
  worker: z.string(),
  backend: z.string().nullable(),
  dtype: z.string().nullable(),
  /** The sampling each model asked for itself (RunMeta.sampling); absent in episodes stored before it was kept. */
  sampling: samplingRecordsSchema.optional(),
  seconds: z.number().nonnegative(),
  at: z.string(),
});
export type StoredEpisode = z.infer<typeof storedSchema>;

export class EpisodeStoreError extends Error {}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
/**
 * Tensors are addressed by episode and content hash: two workers that both ran an episode (a stall handed it on while
 * the first still ran) may write theirs, and whichever records win the HSETNX find their own tensors, never the
 * other writer's.
 */
const tensorsField = (index: number, sha: string) => `${index}:${sha}`;
const tensorsPath = (study: Study, index: number, sha: string) => join(study.id, `episode-${index}-${sha.slice(0, 16)}.safetensors`);

/** The store folder a worker uses: its own `--store` (where the shared folder is mounted here), else the study's. */
export const storeDirFor = (study: Study, override?: string) => override ?? study.store;

/** Which of `indices` are stored already (one round trip, whatever the size of the study). */
export async function storedAmong(redis: Redis, study: Study, indices: readonly number[]): Promise<Set<number>> {
  const key = studyKeys(study.id).records;
  const pipe = redis.pipeline();
  for (const i of indices) pipe.hexists(key, String(i));
  const replies = (await pipe.exec()) ?? [];
  return new Set(indices.filter((_, k) => replies[k]?.[1] === 1));
}

export interface SaveInfo {
  worker: string;
  backend: string | null;
  dtype: string | null;
  sampling?: ModelSamplingRecord[];
  seconds: number;
  storeDir: string | null;
}

/** Stores one finished episode; false when another worker stored it first (then nothing changes). */
export async function saveEpisode(redis: Redis, study: Study, ep: Episode, info: SaveInfo): Promise<boolean> {
  const keys = studyKeys(study.id);
  if (await redis.hexists(keys.records, String(ep.index))) return false;
  const bytes = writeSafetensors(ep.tensors);
  const tensors: StoredEpisode['tensors'] = { bytes: bytes.length, sha256: sha256(bytes) };
  if (bytes.length <= study.inlineMax) {
    await redis.hset(keys.tensors, tensorsField(ep.index, tensors.sha256), Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  } else {
    if (!info.storeDir) {
      throw new EpisodeStoreError(
        `episode ${ep.index + 1}'s tensors are ${bytes.length} bytes, over the study's limit of ${study.inlineMax} bytes in Redis, and no store folder was given: start the worker with --store <a folder every worker sees> (docs/sweeps.md)`,
      );
    }
    const rel = tensorsPath(study, ep.index, tensors.sha256);
    try {
      mkdirSync(join(info.storeDir, study.id), { recursive: true });
      writeWhole(join(info.storeDir, rel), bytes);
      syncDir(join(info.storeDir, study.id));
    } catch (e) {
      throw new EpisodeStoreError(`could not write episode ${ep.index + 1}'s tensors under ${info.storeDir}: ${writeErrorCause(e)}`);
    }
    tensors.file = rel;
  }
  const stored: StoredEpisode = {
    v: 1,
    index: ep.index,
    records: ep.records,
    tensors,
    worker: info.worker,
    backend: info.backend,
    dtype: info.dtype,
    ...(info.sampling ? { sampling: info.sampling } : {}),
    seconds: info.seconds,
    at: new Date().toISOString(),
  };
  // The records last: an episode counts as stored once its records field exists, and only the first writer's counts.
  const field = String(ep.index);
  const ours = JSON.stringify(stored);
  if ((await redis.hsetnx(keys.records, field, ours)) === 1) return true;
  // A 0 can also be our own write: when Redis restarts after taking HSETNX but before replying, ioredis sends it
  // again. The record names this worker and the moment, so an equal string is ours.
  const winner = await redis.hget(keys.records, field);
  if (winner === ours) return true;
  await dropLoserTensors(redis, study, ep.index, tensors, winner, info.storeDir);
  return false;
}

/** Tensors are addressed by content: a loser's differ from the winner's only when the episode came out different
 * (another backend), and then nothing will ever read them. */
async function dropLoserTensors(redis: Redis, study: Study, index: number, ours: StoredEpisode['tensors'], winnerRaw: string | null, storeDir: string | null) {
  let winnerSha: string | null = null;
  try {
    winnerSha = winnerRaw === null ? null : storedSchema.parse(JSON.parse(winnerRaw)).tensors.sha256;
  } catch {
    return; // unreadable winner: keep ours, loadEpisode will say what is wrong
  }
  if (winnerSha === ours.sha256) return;
  if (ours.file) {
    if (storeDir) rmSync(join(storeDir, ours.file), { force: true });
  } else {
    await redis.hdel(studyKeys(study.id).tensors, tensorsField(index, ours.sha256));
  }
}

/** Reads one stored episode back, its tensors checked against the hash taken when it was stored. */
export async function loadEpisode(redis: Redis, study: Study, index: number, storeDir: string | null): Promise<{ episode: Episode; stored: StoredEpisode }> {
  const keys = studyKeys(study.id);
  const raw = await redis.hget(keys.records, String(index));
  if (raw === null) throw new EpisodeStoreError(`episode ${index + 1} of study ${study.id} is not stored yet`);
  let stored: StoredEpisode;
  try {
    stored = storedSchema.parse(JSON.parse(raw));
  } catch (e) {
    throw new EpisodeStoreError(
      `episode ${index + 1} of study ${study.id} is stored in a form this version cannot read (${(e as Error).message.slice(0, 200)})`,
    );
  }
  let bytes: Uint8Array;
  if (stored.tensors.file) {
    const path = storeDir ? join(storeDir, stored.tensors.file) : null;
    if (!path || !existsSync(path))
      throw new EpisodeStoreError(
        `episode ${index + 1}'s tensors are in the store folder (${stored.tensors.file}), which is not ${storeDir ? `under ${storeDir}` : 'given'}: pass --store <the shared folder>`,
      );
    bytes = new Uint8Array(readFileSync(path));
  } else {
    const buf = await redis.hgetBuffer(keys.tensors, tensorsField(index, stored.tensors.sha256));
    if (!buf) throw new EpisodeStoreError(`episode ${index + 1}'s tensors are missing from Redis`);
    bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  }
  if (bytes.length !== stored.tensors.bytes || sha256(bytes) !== stored.tensors.sha256)
    throw new EpisodeStoreError(`episode ${index + 1}'s tensors do not match the hash taken when they were stored: the store was changed or damaged`);
  return { episode: { index, records: stored.records, tensors: readSafetensors(bytes).tensors }, stored };
}
