import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { CliUsageError, type CliCommand, type CliContext } from '../command.ts';
import { readConfigInput } from '../config-input.ts';
import { numberOption } from './analysis-io.ts';
import { computeApi } from '../../src/core/compute-api.ts';
import { readBundle, MAX_BUNDLE_BYTES } from '../../src/core/runs/bundle.ts';
import { LAB_MODULES } from '../../src/labs/registry.ts';
import type { FieldMode } from '../../src/core/ising/design.ts';
import type { StudyModelKind, StudyOptions } from '../../src/core/ising/study.ts';
import { netOpinion } from '../../src/core/ising/archetypes.ts';
import { parseTrajectoryFiles, trajectoriesToCsv, trajectoriesToJson, TRAJECTORY_LIMITS } from '../../src/labs/opinions/trajectory-io.ts';
import { poolTrajectories, simulationTrajectories, studyItems, summarizeTrajectories, trajectoriesFromBundle } from '../../src/labs/opinions/fit-data.ts';
import { allTables, studyJson, tableText } from '../../src/labs/opinions/fit-tables.ts';
import type { OpinionsConfig } from '../../src/labs/opinions/graph.ts';
import { opinionsLab } from '../../src/labs/opinions/config.ts';
import type { OpinionTrajectory } from '../../src/labs/opinions/trajectory.ts';

const USAGE = [
  'npm run lab -- ising fit <trajectories.json | votes.csv [edges.csv] [features.csv] | run-bundle.zip …> [--seed S] [--test-fraction 0.25]',
  '                         [--field auto|features|bias|none] [--models one,three,five,eps] [--rollouts 10] [--rounds 8] [--out fit.json] [--json]',
  'npm run lab -- ising simulate <config.json | link> [--rounds T] [--replicas R] [--out trajectories.json] [--json]',
  'npm run lab -- ising export <trajectories.json | CSV files | run-bundle.zip …> --out <file.json | prefix for prefix-votes.csv, -edges.csv, -features.csv> [--csv] [--rounds 8]',
].join('\n');

const MODELS: StudyModelKind[] = ['one', 'three', 'five', 'eps'];

function readTrajectories(files: string[], rounds: number): OpinionTrajectory[] {
  if (!files.length) throw new CliUsageError('give a trajectories file (.json), the CSV files, or run bundles (.zip)');
  const sizes = files.map((f) => {
    try {
      return statSync(f).size;
    } catch (e) {
      throw new CliUsageError(`cannot read ${f}: ${(e as Error).message}`);
    }
  });
  const zips = files.filter((f) => /\.zip$/i.test(f));
  if (zips.length) {
    if (zips.length !== files.length) throw new CliUsageError('give run bundles (.zip) or trajectory files (.json / .csv), not both');
    return poolTrajectories(
      zips.map((f, k) => {
        if (sizes[k] > MAX_BUNDLE_BYTES) throw new CliUsageError(`${f} is larger than 1 GB`);
        const r = trajectoriesFromBundle(readBundle(new Uint8Array(readFileSync(f)), LAB_MODULES), { rounds });
        if (!r.ok) throw new CliUsageError(`${f}: ${r.message}`);
        return r.trajectories;
      }),
    );
  }
  files.forEach((f, k) => {
    if (sizes[k] > TRAJECTORY_LIMITS.bytes)
      throw new CliUsageError(`${f} is ${(sizes[k] / 1e6).toFixed(1)} MB; trajectory files are capped at ${TRAJECTORY_LIMITS.bytes / 1024 / 1024} MB`);
  });
  const r = parseTrajectoryFiles(files.map((f) => ({ name: f, text: readFileSync(f, 'utf8') })));
  if (!r.ok) throw new CliUsageError(`refused: ${r.message}`);
  return r.file.trajectories;
}

async function fit({ positionals, values, json, out, err }: CliContext): Promise<number> {
  const rounds = numberOption(values.rounds, 'rounds', 8);
  const trajectories = readTrajectories(positionals, rounds);
  const models = typeof values.models === 'string' ? values.models.split(',').map((s) => s.trim()) : undefined;
  if (models?.some((m) => !MODELS.includes(m as StudyModelKind))) throw new CliUsageError(`--models takes a comma-separated subset of ${MODELS.join(',')}`);
  const field = typeof values.field === 'string' && values.field !== 'auto' ? values.field : undefined;
  if (field && !['features', 'bias', 'none'].includes(field)) throw new CliUsageError('--field is auto, features, bias or none');
  const testFraction = numberOption(values['test-fraction'], 'test-fraction', 0.25);
  if (!(testFraction > 0 && testFraction < 1)) throw new CliUsageError('--test-fraction must be between 0 and 1');
  const opts: StudyOptions = {
    seed: typeof values.seed === 'string' ? values.seed : 0,
    testFraction,
    rollouts: Math.max(1, Math.min(1000, Math.round(numberOption(values.rollouts, 'rollouts', 10)))),
    ...(models ? { models: models as StudyModelKind[] } : {}),
    ...(field ? { field: field as FieldMode } : {}),
  };
  let lastNote = '';
  const progress =
    json || !process.stderr.isTTY
      ? undefined
      : (done: number, total: number, note: string) => {
          if (note !== lastNote) err(`  [${done}/${total}] ${(lastNote = note)}`);
        };
  const result = await computeApi.fitStudy(studyItems(trajectories), opts, progress);
  const summary = summarizeTrajectories(trajectories);
  const payload = {
    format: 'social-minds-lab/opinion-fit@1',
    options: { ...opts, trajectories: trajectories.length, sources: positionals },
    result: studyJson(result),
  };
  if (typeof values.out === 'string') writeFileSync(values.out, JSON.stringify(payload, null, 1));
  if (json) {
    out(JSON.stringify(payload));
    return 0;
  }
  const lines = [
    `${summary.trajectories} trajectories, ${summary.questions} questions (${summary.objective} objective), ${summary.graphs} graphs, N = ${summary.agents.join('–')}, T = ${summary.rounds.join('–')}; field: ${result.field}; seed ${result.seed}`,
    '',
    ...allTables(result, trajectories[0]?.featureNames)
      .filter((t) => t.id !== 'regimes')
      .flatMap((t) => [tableText(t), '']),
    `Regimes (final round): ${Object.entries(result.regimes.counts)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  ];
  if (typeof values.out === 'string') lines.push(`wrote ${values.out}`);
  out(lines.join('\n'));
  return 0;
}

async function simulate({ positionals, values, json, out }: CliContext): Promise<number> {
  const { def, config } = readConfigInput(positionals[0]);
  if (def.name !== 'opinions') throw new CliUsageError(`ising simulate needs an opinions config (this one is for ${def.name})`);
  // The config is valid already (readConfigInput); parsing it again types it as the Opinions lab's.
  const c = opinionsLab.schema.parse(config);
  if (c.mode !== 'simulation') throw new CliUsageError('ising simulate needs mode "simulation"');
  const rounds = Math.round(numberOption(values.rounds, 'rounds', Math.min(c.dynamics.steps, TRAJECTORY_LIMITS.rounds - 1)));
  if (rounds < 1 || rounds > TRAJECTORY_LIMITS.rounds - 1) throw new CliUsageError(`--rounds must be 1…${TRAJECTORY_LIMITS.rounds - 1}`);
  const replicas = Math.round(numberOption(values.replicas, 'replicas', c.dynamics.replicas));
  if (replicas < 1 || replicas > 256) throw new CliUsageError('--replicas must be 1…256');
  const sim: OpinionsConfig = { ...c, dynamics: { ...c.dynamics, steps: Math.max(rounds, c.dynamics.steps) } };
  let trajectories: OpinionTrajectory[];
  try {
    trajectories = simulationTrajectories(
      sim,
      `sim-${c.seed}`,
      Array.from({ length: replicas }, (_, k) => k),
      rounds,
    );
  } catch (e) {
    throw new CliUsageError((e as Error).message);
  }
  if (typeof values.out === 'string') writeFileSync(values.out, trajectoriesToJson(trajectories));
  const n = trajectories[0].graph.n;
  const nets = trajectories.map((t) => Array.from(netOpinion(t.voteMeans.flat(), n)));
  const finalAbs = nets.map((x) => Math.abs(x[x.length - 1]));
  const summary = {
    agents: n,
    edges: trajectories[0].graph.edges.length,
    replicas,
    rounds,
    meanAbsFinalN: finalAbs.reduce((a, b) => a + b, 0) / finalAbs.length,
    net: nets,
    ...(typeof values.out === 'string' ? { out: values.out } : {}),
  };
  if (json) {
    out(JSON.stringify(summary));
    return 0;
  }
  out(
    [
      `Glauber simulation: N = ${n}, ${summary.edges} edges, ${replicas} replicas × ${rounds} rounds (the same replicas as \`lab run\`, episode k = replica k)`,
      ...nets.map((x, k) => `replica ${k}: n(0) = ${x[0].toFixed(3)}, n(${rounds}) = ${x[x.length - 1].toFixed(3)}`),
      `mean |n(T)| = ${summary.meanAbsFinalN.toFixed(3)}`,
      typeof values.out === 'string'
        ? `wrote ${values.out} (fit it with: npm run lab -- ising fit ${values.out})`
        : 'add --out trajectories.json to write the trajectories',
    ].join('\n'),
  );
  return 0;
}

/** A run's (or a file's) trajectories written as the JSON file or the CSV files: what the Fit panel's exports write. */
async function exportTrajectories({ positionals, values, json, out }: CliContext): Promise<number> {
  if (typeof values.out !== 'string') throw new CliUsageError('--out is required (a .json file, or with --csv a prefix)');
  const trajectories = readTrajectories(positionals, numberOption(values.rounds, 'rounds', 8));
  const written: string[] = [];
  if (values.csv) {
    const csv = trajectoriesToCsv(trajectories);
    for (const [kind, text] of Object.entries(csv)) {
      if (!text) continue;
      const file = `${values.out}-${kind}.csv`;
      writeFileSync(file, text);
      written.push(file);
    }
  } else {
    writeFileSync(values.out, trajectoriesToJson(trajectories));
    written.push(values.out);
  }
  const summary = summarizeTrajectories(trajectories);
  if (json) out(JSON.stringify({ ...summary, written }));
  else out(`${summary.trajectories} trajectories (${summary.questions} questions, ${summary.graphs} graphs); wrote ${written.join(', ')}`);
  return 0;
}

export const isingCommand: CliCommand = {
  name: 'ising',
  summary:
    'Opinion dynamics: fit the Glauber laws to trajectories (ising fit), simulate a config into trajectories (ising simulate), convert or extract trajectories (ising export).',
  usage: USAGE,
  options: {
    seed: { type: 'string' },
    'test-fraction': { type: 'string' },
    field: { type: 'string' },
    models: { type: 'string' },
    rollouts: { type: 'string' },
    rounds: { type: 'string' },
    replicas: { type: 'string' },
    out: { type: 'string' },
    csv: { type: 'boolean' },
  },
  async run(ctx) {
    const [sub, ...rest] = ctx.positionals;
    const inner = { ...ctx, positionals: rest };
    if (sub === 'fit') return fit(inner);
    if (sub === 'simulate') return simulate(inner);
    if (sub === 'export') return exportTrajectories(inner);
    throw new CliUsageError(sub ? `unknown subcommand "${sub}" (fit, simulate or export)` : 'give a subcommand: fit, simulate or export');
  },
};
