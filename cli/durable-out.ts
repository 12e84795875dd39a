/**
 * A headless run that survives being killed (docs/reliability.md, "Durable headless runs"). Each finished episode is
 * written under `<out>/.partial/` as it lands (its tensors, then its records; each file written to a temporary
 * name, fsynced and renamed, so a file that exists is whole), beside a manifest with the config and the run's id.
 * Running the same command again on the same `--out` continues after the last finished episode; a different config
 * is refused. At the end the bundle is written the same way and the partial folder goes.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { syncDir, writeErrorCause, writeWhole } from './atomic-file.ts';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { readSafetensors, writeSafetensors } from '../src/core/safetensors.ts';
import { newRunId, type Episode } from '../src/core/runs/types.ts';
import { samplingRecordsSchema, type ModelSamplingRecord } from '../src/core/runs/sampling-record.ts';

export const PARTIAL_FORMAT = 'social-minds-lab/partial-run@1';

/** A manifest's sampling record, checked by the same schema as a bundle's; undefined where absent or refused. */
function keptSampling(stored: unknown): ModelSamplingRecord[] | undefined {
  const checked = samplingRecordsSchema.safeParse(stored);
  return stored !== undefined && checked.success ? checked.data : undefined;
}

interface Manifest {
  format: string;
  lab: string;
  v: number;
  config: unknown;
  id: string;
  createdAt: string;
  episodesTotal: number;
  /** The run's record of its models' own sampling (RunMeta.sampling), kept from the first attempt on. */
  sampling?: ModelSamplingRecord[];
}

/** Raised when --out cannot take the run (another config's partial run, a full disk): one clear line, nothing lost. */
export class DurableOutError extends Error {}

function describeWriteError(e: unknown, what: string, saved: number, dir: string): DurableOutError {
  return new DurableOutError(
    `could not write ${what} under ${dir}: ${writeErrorCause(e)}. The ${saved} episode(s) finished before are kept there; run the same command again to continue.`,
  );
}

const recordsFile = (k: number) => `episode-${k}.json`;
const tensorsFile = (k: number) => `episode-${k}.safetensors`;

export interface DurableOut {
  /** Where the finished episodes are kept until the bundle is written. */
  partialDir: string;
  id: string;
  createdAt: string;
  /** Episodes finished by earlier attempts, 0..k-1 in order. */
  finished: Episode[];
  /** The sampling record an earlier attempt kept (absent on a first attempt, or one that had none). */
  sampling: ModelSamplingRecord[] | undefined;
  /** Keeps the run's sampling record beside the episodes, so that a later attempt adds to it instead of guessing. */
  keepSampling(sampling: ModelSamplingRecord[]): void;
  save(ep: Episode): void;
  /** Writes the bundle to `<out>/<id>.zip` (whole or not at all) and removes the partial folder. */
  finish(bundle: Uint8Array): string;
}

export function openDurableOut(outDir: string, lab: { name: string; version: number }, config: unknown, episodesTotal: number): DurableOut {
  const partialDir = join(outDir, '.partial');
  const manifestPath = join(partialDir, 'manifest.json');
  let manifest: Manifest;
  const finished: Episode[] = [];
  if (existsSync(manifestPath)) {
    const found = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    if (found.format !== PARTIAL_FORMAT)
      throw new DurableOutError(`${manifestPath} is not a partial run of this version (${String(found.format)}); move it away to start over.`);
    // JSON round trip: the config as it was saved, so undefined fields and key order do not count as differences.
    if (found.lab !== lab.name || found.v !== lab.version || !isDeepStrictEqual(found.config, JSON.parse(JSON.stringify(config)))) {
      throw new DurableOutError(
        `${outDir} holds an unfinished run of another config (${found.lab}, ${found.episodesTotal} episodes, run ${found.id}). Continue it with its own config, use another --out, or delete ${partialDir} to start over.`,
      );
    }
    manifest = found;
    for (let k = 0; existsSync(join(partialDir, recordsFile(k))); k++) {
      const records = JSON.parse(readFileSync(join(partialDir, recordsFile(k)), 'utf8')) as Episode['records'];
      const tensors = readSafetensors(new Uint8Array(readFileSync(join(partialDir, tensorsFile(k))))).tensors;
      finished.push({ index: k, records, tensors });
    }
  } else {
    const now = new Date();
    manifest = { format: PARTIAL_FORMAT, lab: lab.name, v: lab.version, config, id: newRunId(now.getTime()), createdAt: now.toISOString(), episodesTotal };
    try {
      mkdirSync(partialDir, { recursive: true });
      writeWhole(manifestPath, new TextEncoder().encode(JSON.stringify(manifest, null, 1)));
      syncDir(partialDir);
    } catch (e) {
      throw describeWriteError(e, 'the run manifest', 0, outDir);
    }
  }
  // Leftovers of a write that was cut off: never whole, never read.
  for (const f of readdirSync(partialDir)) if (f.endsWith('.tmp')) unlinkSync(join(partialDir, f));
  return {
    partialDir,
    id: manifest.id,
    createdAt: manifest.createdAt,
    finished,
    // The manifest is this program's own file; a record that its schema refuses (edited by hand) is read as none.
    sampling: keptSampling(manifest.sampling),
    keepSampling(sampling) {
      if (isDeepStrictEqual(manifest.sampling, sampling)) return;
      manifest = { ...manifest, sampling };
      try {
        writeWhole(manifestPath, new TextEncoder().encode(JSON.stringify(manifest, null, 1)));
        syncDir(partialDir);
      } catch (e) {
        throw describeWriteError(e, 'the run manifest', finished.length, partialDir);
      }
    },
    save(ep) {
      try {
        // The tensors first: an episode counts as finished once its records file exists.
        writeWhole(join(partialDir, tensorsFile(ep.index)), writeSafetensors(ep.tensors));
        writeWhole(join(partialDir, recordsFile(ep.index)), new TextEncoder().encode(JSON.stringify(ep.records)));
        syncDir(partialDir);
      } catch (e) {
        throw describeWriteError(e, `episode ${ep.index + 1}`, ep.index, partialDir);
      }
    },
    finish(bundle) {
      const file = join(outDir, `${manifest.id}.zip`);
      try {
        writeWhole(file, bundle);
        syncDir(outDir);
      } catch (e) {
        throw describeWriteError(e, 'the bundle', episodesTotal, partialDir);
      }
      rmSync(partialDir, { recursive: true, force: true });
      return file;
    },
  };
}
