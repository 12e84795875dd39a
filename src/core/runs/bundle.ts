import { samplingRecordsSchema } from './sampling-record';
import { strFromU8, strToU8, unzipSync, zipSync, type Unzipped } from 'fflate';
import { z } from 'zod';
import { readSafetensors, writeSafetensors, type SafeTensor } from '../safetensors';
import { validateConfig } from '../config/validate';
import type { LabDefinition } from '../config/lab-definition';
import { seedOf } from '../config/fields';
import { parseJson, scanUntrusted } from '../config/untrusted';
import { checkRecord, recordMigration, type RecordsDefinition } from './records';
import { checkResult, type ResultsDefinition } from './results';
import type { Episode, RunMeta, RunResult, StoredRecord } from './types';

/**
 * The one export format, shared by the UI and the CLI: a zip holding run.json (metadata), config.json,
 * records.jsonl (one JSON row per line, each with its "episode"), tensors.safetensors (named "ep<k>/<name>")
 * and results.json. Documented in docs/formats.md. run.json carries `recordsVersion`, the version of the lab's record
 * shapes the rows were written with (absent in bundles written before it was kept: read as the current version); each
 * result in results.json its `version`, the version of the lab's result shapes it was computed with.
 */
export const BUNDLE_FORMAT = 'social-minds-lab/run-bundle@1';
export const MAX_BUNDLE_BYTES = 1024 * 1024 * 1024;
/** The files a bundle holds; any other entry of the zip is never inflated. */
const BUNDLE_FILES = new Set(['run.json', 'config.json', 'records.jsonl', 'tensors.safetensors', 'results.json']);
/** What the known entries may inflate to, together (a zip bomb stops here, before it is inflated). */
export const MAX_INFLATED_BYTES = 2 * MAX_BUNDLE_BYTES;

export interface RunBundle<R extends StoredRecord = StoredRecord> {
  meta: RunMeta;
  episodes: Episode<R>[];
  results: RunResult[];
  /**
   * Read from a file: the results of results.json that were left out, each with why (another result version, a name
   * the lab does not declare, a value that does not parse with its schema). They are derived: the lab computes them
   * again from the records, which were all checked.
   */
  resultsLeftOut?: { name: string; problem: string }[];
}

/**
 * What the reader needs to know of a lab: its config definition, its record shapes and its result shapes. A lab
 * module has all three, so the registry's LAB_MODULES is such a list (structurally: core code does not import the labs).
 */
export interface BundleLab {
  definition: LabDefinition;
  records: RecordsDefinition;
  results: ResultsDefinition;
}

export function writeBundle(bundle: RunBundle): Uint8Array {
  const lines: string[] = [];
  const tensors: Record<string, SafeTensor> = {};
  for (const ep of [...bundle.episodes].sort((a, b) => a.index - b.index)) {
    for (const row of ep.records) lines.push(JSON.stringify({ episode: ep.index, ...row }));
    for (const [name, t] of Object.entries(ep.tensors)) tensors[`ep${ep.index}/${name}`] = t;
  }
  const files: Record<string, Uint8Array> = {
    'run.json': strToU8(JSON.stringify({ format: BUNDLE_FORMAT, ...bundle.meta, config: undefined }, null, 2)),
    'config.json': strToU8(JSON.stringify({ lab: bundle.meta.lab, v: bundle.meta.schemaVersion, config: bundle.meta.config }, null, 2)),
    'records.jsonl': strToU8(lines.join('\n') + (lines.length ? '\n' : '')),
    'tensors.safetensors': writeSafetensors(tensors, { format: BUNDLE_FORMAT, run: bundle.meta.id }),
    'results.json': strToU8(JSON.stringify(bundle.results, null, 2)),
  };
  return zipSync(files, { level: 6 });
}

export class BundleError extends Error {}

/** run.json as written: wrong types are refused by field, not coerced (an id of `{}` would become "[object Object]"). */
const RUN_JSON = z.looseObject({
  id: z.string().max(200).optional(),
  backend: z.string().max(200).nullable().optional(),
  dtype: z.string().max(50).nullable().optional(),
  status: z.enum(['running', 'paused', 'done', 'failed', 'cancelled']).optional(),
  episodesTotal: z.number().int().nonnegative().optional(),
  createdAt: z.string().max(100).optional(),
  recordsVersion: z.unknown().optional(),
  sampling: samplingRecordsSchema.optional(),
});
/** results.json: a list of named results. What a result holds is the lab's result schema's to say (readBundle). */
const RESULTS_JSON = z.array(
  z.object({ name: z.string().max(200), value: z.unknown(), updatedAt: z.string().max(100), version: z.number().int().min(1).optional() }),
);

/** No record is this long; a longer line is refused before it is decoded (a JS string tops out near 512 MB). */
export const MAX_RECORD_LINE_BYTES = 64 * 1024 * 1024;

/** The lines of a UTF-8 file, decoded one at a time: a records.jsonl too large for one string is still read. */
function* utf8Lines(bytes: Uint8Array, file: string): Generator<string> {
  for (let start = 0, line = 1; start < bytes.length; line++) {
    const nl = bytes.indexOf(10, start);
    const end = nl < 0 ? bytes.length : nl;
    if (end - start > MAX_RECORD_LINE_BYTES)
      throw new BundleError(`${file} line ${line} is longer than ${MAX_RECORD_LINE_BYTES / 2 ** 20} MB, which no record is`);
    yield strFromU8(bytes.subarray(start, end));
    start = end + 1;
  }
}

function readJson(files: Unzipped, name: string): unknown {
  const bytes = files[name];
  if (!bytes) throw new BundleError(`the bundle has no ${name}`);
  const parsed = parseJson(strFromU8(bytes));
  if (!parsed.ok) throw new BundleError(`${name} is ${parsed.message}`);
  const hostile = scanUntrusted(parsed.value);
  if (hostile.length) throw new BundleError(`${name}: ${hostile[0].path} ${hostile[0].message}`);
  return parsed.value;
}

/**
 * The step that brings one row of a bundle to the lab's current record shape: none when run.json gives no version or
 * the current one, a migration from an older one; a newer version, or an older one without a migration, is refused.
 */
function recordsUpgrade(lab: BundleLab, written: unknown): ((row: StoredRecord) => StoredRecord) | null {
  const { records, definition } = lab;
  if (written === undefined || written === records.version) return null;
  if (typeof written !== 'number' || !Number.isInteger(written) || written < 1)
    throw new BundleError('run.json: recordsVersion is not a whole number of 1 or more');
  const both = `records.jsonl holds ${definition.title} records of version ${written}, and this version of the lab reads version ${records.version}`;
  if (written > records.version) throw new BundleError(`${both}: the bundle was written by a newer version of the lab; update the lab to open it`);
  const upgrade = recordMigration(records, written);
  if (!upgrade.ok)
    throw new BundleError(
      `${both} and cannot convert them (nothing converts version ${upgrade.missing}); open the bundle with the version of the lab that wrote it`,
    );
  return upgrade.migrate;
}

/**
 * Reads an untrusted bundle. Throws BundleError with a message a person can act on. Every row of records.jsonl is
 * checked with its lab's record schema (after its migration, if run.json names an older records version), so a
 * wrong-shaped row is refused here, by line and field, and never reaches a view. Every result of results.json is
 * checked with its lab's result schema: one of another result version, of an unknown name or that does not parse is
 * left out, named with its first bad field in `resultsLeftOut` (results are derived: the lab computes them again).
 */
export function readBundle(bytes: Uint8Array, labs: readonly BundleLab[]): RunBundle {
  if (bytes.length > MAX_BUNDLE_BYTES) throw new BundleError('the file is larger than 1 GB');
  let files: Unzipped;
  let inflated = 0;
  try {
    // The filter sees each entry's declared size before it is inflated: unknown entries are skipped, and the known
    // ones may not declare more than the limit together (fflate inflates an entry into a buffer of its declared size,
    // so a size that lies cannot make it grow: the entry comes out cut short, and its reader refuses it).
    files = unzipSync(bytes, {
      filter: (f) => {
        if (!BUNDLE_FILES.has(f.name)) return false;
        inflated += f.originalSize;
        if (inflated > MAX_INFLATED_BYTES) throw new BundleError(`${f.name} would inflate the bundle past ${MAX_INFLATED_BYTES / 2 ** 30} GB (a zip bomb?)`);
        return true;
      },
    });
  } catch (e) {
    if (e instanceof BundleError) throw e;
    throw new BundleError(`not a run bundle (the zip does not open: ${(e as Error).message})`);
  }
  const meta = readJson(files, 'run.json') as Partial<RunMeta> & { format?: string };
  if (meta.format !== BUNDLE_FORMAT) {
    const found = typeof meta.format === 'string' ? meta.format.slice(0, 60) : null;
    // A bundle of another version names both, so the user knows which side to update.
    throw new BundleError(
      found && found.startsWith('social-minds-lab/run-bundle@')
        ? `run.json is ${found}, and this version of the lab reads ${BUNDLE_FORMAT}: the bundle was written by another version; open it with that one, or update the lab`
        : `run.json is not a ${BUNDLE_FORMAT} file`,
    );
  }
  const runChecked = checkRecord(RUN_JSON, meta);
  if (!runChecked.ok) throw new BundleError(`run.json: ${runChecked.problem}`);
  const env = readJson(files, 'config.json') as { lab?: string; v?: number; config?: unknown };
  const lab = labs.find((l) => l.definition.name === env.lab);
  if (!lab) throw new BundleError(`config.json names an unknown lab "${String(env.lab).slice(0, 40)}"`);
  const def = lab.definition;
  const checked = validateConfig(def, env.config, typeof env.v === 'number' ? env.v : NaN);
  if (!checked.ok) throw new BundleError(`config.json: ${checked.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`);

  const episodes = new Map<number, Episode>();
  const episode = (index: number) => {
    if (!Number.isInteger(index) || index < 0) throw new BundleError(`an episode index "${index}" is not a whole number`);
    let ep = episodes.get(index);
    if (!ep) episodes.set(index, (ep = { index, records: [], tensors: {} }));
    return ep;
  };
  const upgrade = recordsUpgrade(lab, meta.recordsVersion);
  let i = -1;
  for (const line of utf8Lines(files['records.jsonl'] ?? new Uint8Array(), 'records.jsonl')) {
    i++;
    if (!line.trim()) continue;
    const parsed = parseJson(line);
    if (!parsed.ok || !parsed.value || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) {
      throw new BundleError(`records.jsonl line ${i + 1} is not a JSON object`);
    }
    const hostile = scanUntrusted(parsed.value);
    if (hostile.length) throw new BundleError(`records.jsonl line ${i + 1}: ${hostile[0].path} ${hostile[0].message}`);
    const { episode: index, ...row } = parsed.value as StoredRecord;
    const current = upgrade ? upgrade(row) : row;
    const checked = checkRecord(lab.records.schema, current);
    if (!checked.ok) throw new BundleError(`records.jsonl line ${i + 1}: ${checked.problem}`);
    // Kept as written (the parsed copy would list its fields in the schema's order), so that a bundle written again
    // from an import is the same file; whoever reads the rows typed parses them again (the opened lab does).
    episode(Number(index)).records.push(current);
  }
  if (files['tensors.safetensors']) {
    let tensors;
    try {
      tensors = readSafetensors(files['tensors.safetensors']).tensors;
    } catch (e) {
      throw new BundleError(`tensors.safetensors: ${(e as Error).message}`);
    }
    for (const [name, t] of Object.entries(tensors)) {
      const m = /^ep(\d+)\/(.+)$/.exec(name);
      if (!m) throw new BundleError(`tensors.safetensors holds "${name.slice(0, 60)}", which is not named ep<k>/<name>`);
      episode(Number(m[1])).tensors[m[2]] = t;
    }
  }
  const rawResults = files['results.json'] ? readJson(files, 'results.json') : [];
  if (!Array.isArray(rawResults)) throw new BundleError('results.json is not a list');
  const resultsChecked = checkRecord(RESULTS_JSON, rawResults);
  if (!resultsChecked.ok) throw new BundleError(`results.json: ${resultsChecked.problem}`);
  const results: RunResult[] = [];
  const resultsLeftOut: { name: string; problem: string }[] = [];
  for (const r of resultsChecked.value) {
    const fits = checkResult(lab.results, r);
    // Kept as written, like the records; whoever reads it typed parses it again (readResult).
    if (fits.ok) results.push(r);
    else resultsLeftOut.push({ name: r.name, problem: `results.json: ${fits.problem}` });
  }
  const sorted = [...episodes.values()].sort((a, b) => a.index - b.index);
  sorted.forEach((ep, i) => {
    if (ep.index !== i) throw new BundleError(`episode ${i} is missing (episodes must be numbered 0, 1, 2, … without gaps)`);
  });
  const now = new Date().toISOString();
  return {
    meta: {
      id: String(meta.id ?? ''),
      lab: def.name,
      schemaVersion: def.version,
      config: checked.value,
      seed: seedOf(checked.value),
      backend: typeof meta.backend === 'string' ? meta.backend : null,
      dtype: typeof meta.dtype === 'string' ? meta.dtype : null,
      status: meta.status === 'done' ? 'done' : 'paused',
      episodesDone: sorted.length,
      episodesTotal: Math.max(Number(meta.episodesTotal) || 0, sorted.length),
      createdAt: typeof meta.createdAt === 'string' ? meta.createdAt : now,
      updatedAt: now,
      recordsVersion: lab.records.version,
      ...(runChecked.value.sampling ? { sampling: runChecked.value.sampling } : {}),
    },
    episodes: sorted,
    results,
    ...(resultsLeftOut.length ? { resultsLeftOut } : {}),
  };
}
