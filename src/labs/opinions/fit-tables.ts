/**
 * The Fit panel's tables as plain data (title, columns, rows): the panel renders them, "CSV" exports them, and the
 * CLI prints them. One place decides what each table holds, so the page, the files and the terminal agree.
 */
import { STUDY_MODEL_LABELS, type StudyFit, type StudyModelKind, type StudyResult } from '../../core/ising/study';
import { GROUP_ARCHETYPES, INDIVIDUAL_ARCHETYPES } from '../../core/ising/archetypes';
import type { Accuracy } from '../../core/ising/scores';
import { toCsv } from '../../core/csv';
import { typedArraysAsLists } from '../../core/json';

export type Cell = string | number | null;

export interface Table {
  /** Stable id: file names and test ids. */
  id: string;
  title: string;
  note?: string;
  columns: string[];
  rows: Cell[][];
  /** Decimals shown for non-integers (the CSV keeps full precision). Default 3. */
  digits?: number;
}

const SHORT: Record<StudyModelKind, string> = { one: '1 coupling', three: '3 couplings', five: '5 couplings', eps: 'ε form' };

const COUPLING_COLUMNS = ['beta', 'betaPlus', 'betaMinus', 'beta0', 'betaPlusT', 'betaPlusF', 'betaMinusT', 'betaMinusF'] as const;

function couplingCells(f: StudyFit): Cell[] {
  // Every coupling set has some of the columns: the others are empty cells.
  const c: Partial<Record<(typeof COUPLING_COLUMNS)[number], number>> = f.fit.couplings;
  return COUPLING_COLUMNS.map((k) => c[k] ?? null);
}

/** Coefficients of every fit: all trajectories first, then each split's training fit. */
export function coefficientsTable(r: StudyResult): Table {
  const rows: Cell[][] = [];
  const add = (where: string, f: StudyFit) =>
    rows.push([
      where,
      STUDY_MODEL_LABELS[f.kind],
      f.fit.effective.friendly,
      f.fit.effective.unfriendly,
      f.fit.effective.friendlyWrong ?? null,
      f.fit.effective.unfriendlyWrong ?? null,
      f.fit.eps ?? null,
      ...couplingCells(f),
      f.fit.nll,
      f.fit.converged ? 'yes' : `no (${f.fit.steps} steps)`,
      f.fit.unidentified.join(' ') || null,
    ]);
  for (const f of r.full) add('all trajectories', f);
  for (const s of r.splits) for (const f of s.fits) add(`${s.name} (train)`, f);
  return {
    id: 'coefficients',
    title: 'Coefficients',
    note:
      'friendly = β⁺+β₀ (β for one coupling), unfriendly = β₀−β⁻ (−β); five couplings give them for a neighbour holding the correct answer, and "(wrong)" for one holding the wrong one. ' +
      'The raw three couplings are not identifiable; the effective weights are. The ε form works in tanh units: 2× its weights compare with a Glauber fit. ' +
      'unidentified: couplings whose covariate is zero in the data (reported as 0).',
    columns: [
      'fitted on',
      'model',
      'friendly (β⁺+β₀)',
      'unfriendly (β₀−β⁻)',
      'friendly (wrong)',
      'unfriendly (wrong)',
      'ε',
      ...COUPLING_COLUMNS,
      'NLL',
      'converged',
      'unidentified',
    ],
    rows,
  };
}

/** Field weights of the all-trajectories fits (one row per weight). */
export function fieldWeightsTable(r: StudyResult, names?: readonly string[]): Table {
  const F = Math.max(0, ...r.full.map((f) => f.fit.fieldWeights.length));
  return {
    id: 'field-weights',
    title: 'Field weights g = wᵀφ (all trajectories)',
    note: r.field === 'bias' ? 'one bias weight per model (no features)' : r.field === 'none' ? 'no field' : 'w for each feature column φ',
    columns: ['weight', ...r.full.map((f) => STUDY_MODEL_LABELS[f.kind])],
    rows: Array.from({ length: F }, (_, k) => [
      r.field === 'bias' ? 'bias' : names?.length === F ? `w(${names[k]})` : `w${k}`,
      ...r.full.map((f) => f.fit.fieldWeights[k] ?? null),
    ]),
  };
}

const pct = (a: Accuracy, raw = false): number | null => {
  const v = raw ? a.raw : a.balanced;
  return Number.isFinite(v) ? Math.round(v * 1000) / 10 : null;
};

/** Balanced accuracy (%) of every model on every split's test set, one-step and rollout; Majority Class raw. */
export function accuracyTable(r: StudyResult): Table {
  const rows: Cell[][] = [];
  for (const s of r.splits) {
    if (s.skipped) continue;
    for (const sc of s.scores)
      rows.push([
        s.name,
        s.distribution === 'in' ? 'in' : 'out',
        sc.name,
        sc.rawOnly ? null : pct(sc.oneStep),
        sc.rawOnly ? null : pct(sc.rollout),
        pct(sc.oneStep, true),
        pct(sc.rollout, true),
        sc.oneStep.total,
      ]);
  }
  const skipped = r.splits.filter((s) => s.skipped).map((s) => `${s.name}: ${s.skipped}`);
  return {
    id: 'accuracy',
    title: 'Balanced accuracy (%) on held-out trajectories',
    note:
      'Balanced accuracy = mean over {flip, stay} × {next +1, next −1} of the share predicted right; rollout = deterministic from the observed s(0). ' +
      'Persistence scores 50 one-step by construction. Majority Class: raw accuracy only.' +
      (skipped.length ? ` Not run: ${skipped.join('; ')}.` : ''),
    columns: ['split', 'distribution', 'model', 'one-step', 'rollout', 'raw one-step', 'raw rollout', 'transitions'],
    rows,
    digits: 1,
  };
}

/** Archetype shares (%), observed and in stochastic rollouts of each all-trajectories fit. */
export function archetypeTables(r: StudyResult): { individual: Table; group: Table } {
  const kinds = Object.keys(r.archetypes.rollout) as StudyModelKind[];
  const share = (counts: Record<string, number>, keys: readonly string[], k: string) => {
    const tot = keys.reduce((a, x) => a + counts[x], 0);
    return tot ? Math.round((1000 * counts[k]) / tot) / 10 : null;
  };
  const cols = ['archetype', 'observed', ...kinds.map((k) => `rollout: ${SHORT[k]}`)];
  const note = `Stochastic rollouts of the fits on all trajectories from each observed s(0), ${r.archetypes.rollouts} per trajectory.`;
  return {
    individual: {
      id: 'archetypes-individual',
      title: 'Individual archetypes (% of agents)',
      note: `Frozen: no switch, Switcher: 1, Intermittent: 2, Oscillator: more. ${note}`,
      columns: cols,
      digits: 1,
      rows: INDIVIDUAL_ARCHETYPES.map((a) => [
        a,
        share(r.archetypes.observed.individual, INDIVIDUAL_ARCHETYPES, a),
        ...kinds.map((k) => share(r.archetypes.rollout[k]!.individual, INDIVIDUAL_ARCHETYPES, a)),
      ]),
    },
    group: {
      id: 'archetypes-group',
      title: 'Group archetypes (% of groups)',
      note: `Split band δ = 0.2 on n(0) and n(T). ${note}`,
      columns: cols,
      digits: 1,
      rows: GROUP_ARCHETYPES.map((a) => [
        a,
        share(r.archetypes.observed.group, GROUP_ARCHETYPES, a),
        ...kinds.map((k) => share(r.archetypes.rollout[k]!.group, GROUP_ARCHETYPES, a)),
      ]),
    },
  };
}

export function regimesTable(r: StudyResult): Table {
  return {
    id: 'regimes',
    title: 'Regimes (final round)',
    note: `indifference: conviction c below its pooled 1/3 quantile (${fmt(r.regimes.convictionThreshold)}); among the rest, polarization if |n| ≤ their median (${fmt(r.regimes.medianAbsNet)}), else consensus.`,
    columns: ['trajectory', 'n(T)', 'c(T)', 'regime'],
    rows: r.regimes.rows.map((x) => [x.id, x.n, x.c, x.regime]),
  };
}

export function correctnessTable(r: StudyResult): Table | null {
  const c = r.correctness;
  if (!c) return null;
  const kinds = Object.keys(c.rollout) as StudyModelKind[];
  return {
    id: 'correctness',
    title: 'Objective questions: wrong→right and right→wrong',
    note: `Agent-level transitions between consecutive rounds, pooled over ${c.trajectories} objective trajectories; rollouts: the mean per set of rollouts.`,
    columns: ['source', 'wrong→right', 'right→wrong', 'majority correct at t = 0', 'majority correct at T'],
    rows: [
      ['observed', c.observed.wrongToRight, c.observed.rightToWrong, c.observed.majorityCorrect[0] ?? null, c.observed.majorityCorrect.at(-1) ?? null],
      ...kinds.map((k) => {
        const x = c.rollout[k]!;
        return [`rollout: ${SHORT[k]}`, x.wrongToRight, x.rightToWrong, x.majorityCorrect[0] ?? null, x.majorityCorrect.at(-1) ?? null] as Cell[];
      }),
    ],
  };
}

export function allTables(r: StudyResult, featureNames?: readonly string[]): Table[] {
  const a = archetypeTables(r);
  return [coefficientsTable(r), accuracyTable(r), fieldWeightsTable(r, featureNames), a.individual, a.group, regimesTable(r), correctnessTable(r)].filter(
    (t): t is Table => t !== null,
  );
}

function fmt(x: number, d = 3): string {
  return Number.isFinite(x) ? x.toFixed(d) : String(x);
}

/** A cell as the page and the terminal show it. */
export function showCell(v: Cell, digits = 3): string {
  if (v === null) return '–';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(digits);
  return v;
}

/** RFC 4180 CSV of a table (full precision; numbers are cells of their own type, so they are never neutralised). */
export function tableCsv(t: Table): string {
  return toCsv(t.columns, t.rows);
}

/** Fixed-width text of a table, for the terminal. */
export function tableText(t: Table, digits = t.digits ?? 3): string {
  const cells = [t.columns, ...t.rows.map((r) => r.map((v) => showCell(v, digits)))];
  const keep = t.columns.map((_, j) => t.rows.some((r) => r[j] !== null));
  const w = t.columns.map((_, j) => Math.max(...cells.map((r) => String(r[j]).length)));
  const line = (r: (string | Cell)[]) =>
    r
      .map((v, j) => (keep[j] ? String(v).padEnd(w[j]) : null))
      .filter((x) => x !== null)
      .join('  ')
      .trimEnd();
  return [t.title, line(t.columns), ...t.rows.map((r) => line(r.map((v) => showCell(v, digits))))].join('\n');
}

/** The whole result as JSON-ready data (typed arrays as lists), for "Export fit" and `--json`. */
export function studyJson(r: StudyResult): unknown {
  return JSON.parse(JSON.stringify(r, typedArraysAsLists));
}
