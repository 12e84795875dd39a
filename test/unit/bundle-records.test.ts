import { describe, expect, it } from 'vitest';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { BundleError, MAX_RECORD_LINE_BYTES, readBundle, writeBundle, type BundleLab } from '../../src/core/runs/bundle';
import { checkRecord, episodeReader, RecordError } from '../../src/core/runs/records';
import { LAB_MODULE_BY_NAME, LAB_MODULES, openLabByName } from '../../src/labs/registry';
import { defineLabModule } from '../../src/labs/lab-module';
import { polarizationRecord } from '../../src/labs/polarization/records';
import { fakePolarizationBundle } from '../helpers/fake-polarization-agent';

/** The bundle with records.jsonl's rows passed through `edit` (each row with its 1-based line number). */
function withRows(bytes: Uint8Array, edit: (row: Record<string, unknown>, line: number) => Record<string, unknown>): Uint8Array {
  const files = unzipSync(bytes);
  const lines = strFromU8(files['records.jsonl']).trim().split('\n');
  files['records.jsonl'] = strToU8(lines.map((l, i) => JSON.stringify(edit(JSON.parse(l), i + 1))).join('\n') + '\n');
  return zipSync(files);
}

/** The bundle with run.json's fields replaced. */
function withRun(bytes: Uint8Array, fields: Record<string, unknown>): Uint8Array {
  const files = unzipSync(bytes);
  files['run.json'] = strToU8(JSON.stringify({ ...JSON.parse(strFromU8(files['run.json'])), ...fields }));
  return zipSync(files);
}

/** The 1-based line of the first row that `pick` selects. */
function lineOf(bytes: Uint8Array, pick: (row: Record<string, unknown>) => boolean): number {
  const rows = strFromU8(unzipSync(bytes)['records.jsonl'])
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return rows.findIndex(pick) + 1;
}

describe('bundle records are checked with the lab schema', async () => {
  const bundle = await fakePolarizationBundle();
  const bytes = writeBundle(bundle);
  const state = lineOf(bytes, (r) => r.kind === 'state' && Array.isArray(r.pending) && r.pending.length > 0);
  const epoch = lineOf(bytes, (r) => r.kind === undefined);

  it('an untouched bundle round-trips, with its records version', () => {
    expect(bundle.meta.recordsVersion).toBe(1);
    expect(JSON.parse(strFromU8(unzipSync(bytes)['run.json'])).recordsVersion).toBe(1);
    const back = readBundle(bytes, LAB_MODULES);
    expect(back.meta.recordsVersion).toBe(1);
    expect(back.episodes.map((e) => e.records)).toEqual(bundle.episodes.map((e) => e.records));
    // Written again, records.jsonl is the same file.
    expect(strFromU8(unzipSync(writeBundle(back))['records.jsonl'])).toBe(strFromU8(unzipSync(bytes)['records.jsonl']));
  });

  it('refuses a wrong type in a nested field, naming the file, the line and the field', () => {
    expect(state).toBeGreaterThan(0);
    const bad = withRows(bytes, (row, line) =>
      line === state ? { ...row, pending: (row.pending as object[]).map((m, i) => (i === 0 ? { ...m, text: 42 } : m)) } : row,
    );
    expect(() => readBundle(bad, LAB_MODULES)).toThrow(BundleError);
    expect(() => readBundle(bad, LAB_MODULES)).toThrow(`records.jsonl line ${state}: pending[0].text: expected string, got 42`);
  });

  it('refuses run.json and results.json fields of the wrong type instead of coercing them', () => {
    expect(() => readBundle(withRun(bytes, { episodesTotal: 'many' }), LAB_MODULES)).toThrow('run.json: episodesTotal: expected number, got "many"');
    expect(() => readBundle(withRun(bytes, { id: {} }), LAB_MODULES)).toThrow('run.json: id: expected string, got object');
    expect(() => readBundle(withRun(bytes, { status: 'exploded' }), LAB_MODULES)).toThrow(/run\.json: status: expected one of .*"done".*got "exploded"/);
    const files = unzipSync(bytes);
    files['results.json'] = strToU8(JSON.stringify([{ name: 5, value: {} }]));
    expect(() => readBundle(zipSync(files), LAB_MODULES)).toThrow('results.json: [0].name: expected string, got 5');
    files['results.json'] = strToU8(JSON.stringify({ summary: 1 }));
    expect(() => readBundle(zipSync(files), LAB_MODULES)).toThrow('results.json is not a list');
  });

  it('refuses a records.jsonl line longer than any record before decoding it', () => {
    const files = unzipSync(bytes);
    const lines = strFromU8(files['records.jsonl']).trim().split('\n').length;
    const joined = new Uint8Array(files['records.jsonl'].length + MAX_RECORD_LINE_BYTES + 1).fill(48); // "000…", no newline
    joined.set(files['records.jsonl']);
    files['records.jsonl'] = joined;
    expect(() => readBundle(zipSync(files, { level: 1 }), LAB_MODULES)).toThrow(`records.jsonl line ${lines + 1} is longer than 64 MB, which no record is`);
  });

  it('reads records.jsonl line by line, with or without a final newline and with blank lines', () => {
    const files = unzipSync(bytes);
    const text = strFromU8(files['records.jsonl']);
    for (const variant of [text.trimEnd(), text.replace('\n', '\n\n\n'), `\n${text}`]) {
      files['records.jsonl'] = strToU8(variant);
      expect(readBundle(zipSync(files), LAB_MODULES).episodes.map((e) => e.records)).toEqual(bundle.episodes.map((e) => e.records));
    }
  });

  it('refuses a missing required field, and a kind the lab never writes', () => {
    const missing = withRows(bytes, (row, line) => {
      if (line !== epoch) return row;
      const { P: _dropped, ...rest } = row;
      return rest;
    });
    expect(() => readBundle(missing, LAB_MODULES)).toThrow(`records.jsonl line ${epoch}: P: missing (expected number)`);
    const unknown = withRows(bytes, (row, line) => (line === 1 ? { ...row, kind: 'vote' } : row));
    expect(() => readBundle(unknown, LAB_MODULES)).toThrow(
      /^records\.jsonl line 1: kind: got "vote", not a record kind of this lab \(none, "agent", "interactions", "state"\)$/,
    );
  });

  it('reads a bundle without a records version (written before it was kept) as the current version', () => {
    expect(readBundle(withRun(bytes, { recordsVersion: undefined }), LAB_MODULES).episodes.length).toBe(bundle.episodes.length);
  });

  it('refuses records of a newer version, and of an older one without a migration, naming both versions', () => {
    expect(() => readBundle(withRun(bytes, { recordsVersion: 3 }), LAB_MODULES)).toThrow(
      /Polarization records of version 3, and this version of the lab reads version 1: .*newer version of the lab/,
    );
    const module = LAB_MODULE_BY_NAME.polarization;
    const later: BundleLab[] = [
      { definition: module.definition, records: { ...module.records, version: 3, migrations: { 2: (r) => r } }, results: module.results },
    ];
    expect(() => readBundle(bytes, later)).toThrow(
      /Polarization records of version 1, and this version of the lab reads version 3 and cannot convert them \(nothing converts version 1\)/,
    );
    expect(() => readBundle(withRun(bytes, { recordsVersion: 'one' }), LAB_MODULES)).toThrow(/recordsVersion is not a whole number/);
  });

  it('migrates records of an older version when the lab has the steps, and checks the result', () => {
    const module = LAB_MODULE_BY_NAME.polarization;
    // Version 2 of this pretend lab renamed the state row's `elites` to `leaders`; the migration renames it back.
    const renamed = withRows(bytes, (row) => {
      if (row.kind !== 'state') return row;
      const { elites, ...rest } = row;
      return { ...rest, leaders: elites };
    });
    const fromLeaders = (r: Record<string, unknown>) => {
      if (r.kind !== 'state') return r;
      const { leaders, ...rest } = r;
      return { ...rest, elites: leaders };
    };
    const v2: BundleLab[] = [
      { definition: module.definition, records: { ...module.records, version: 2, migrations: { 1: fromLeaders } }, results: module.results },
    ];
    expect(() => readBundle(renamed, LAB_MODULES)).toThrow(/elites: missing \(expected array\)/);
    const read = readBundle(renamed, v2);
    expect(read.meta.recordsVersion).toBe(2);
    expect(read.episodes.map((e) => e.records)).toEqual(bundle.episodes.map((e) => e.records));
  });
});

describe('stored episodes are read through the lab schema', () => {
  it('a lab module must declare its record shapes: without them it does not compile (nor load)', () => {
    const { records: _records, ...withoutRecords } = LAB_MODULE_BY_NAME.synchrony;
    // @ts-expect-error -- `records` is a required part of a lab module
    expect(() => defineLabModule(withoutRecords)).toThrow();
  });

  it('names the episode, the record and the field of a stored row that does not fit', () => {
    const reader = episodeReader(polarizationRecord);
    const episode = {
      index: 3,
      records: [{ kind: 'state', reasons: ['a'], pending: [{ from: 0, to: 1, text: 'hi', leader: 'no' }], elites: [] }],
      tensors: {},
    };
    expect(() => reader.read(episode)).toThrow(RecordError);
    expect(() => reader.read(episode)).toThrow('episode 3, record 1: pending[0].leader: expected boolean, got "no"');
    expect(reader.fitting(episode)).toEqual([]);
    // A view says how many rows it left out, and names the first.
    const good = { kind: 'interactions', epoch: 1, pairs: [[0, 1]], before: [] };
    expect(reader.unfit([{ index: 2, records: [good], tensors: {} }, episode, { ...episode, index: 4 }])).toEqual({
      rows: 2,
      first: 'episode 3, record 1: pending[0].leader: expected boolean, got "no"',
    });
    expect(reader.unfit([{ index: 0, records: [good], tensors: {} }])).toEqual({ rows: 0, first: null });
    expect(checkRecord(polarizationRecord, { kind: 'interactions', epoch: 1, pairs: [[0, 1.5]], before: [] })).toEqual({
      ok: false,
      problem: 'pairs[0][1]: expected int, got 1.5',
    });
  });

  it('refuses to summarize stored episodes whose rows do not fit, rather than misreading them', async () => {
    const lab = openLabByName('polarization');
    const config = { agents: 8, epochs: 1 };
    await expect(lab.summarize(config, [{ index: 0, records: [{ epoch: 0, P: 'high' }], tensors: {} }])).rejects.toThrow(
      'episode 0, record 1: P: expected number, got "high"',
    );
  });
});
