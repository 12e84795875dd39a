/**
 * Reading and writing opinion trajectories (docs/formats.md, "Opinion trajectories"): the JSON TrajectoryFile and
 * a CSV form (a long-format votes CSV, an edge-list CSV, optionally a features CSV). Imports are untrusted: the
 * bytes are capped before parsing, JSON goes through the link codec's markup and prototype-key scan, the shape is
 * checked by a strict zod schema, and the meaning (N, rounds, edges, shared graphs, ids) by hand. Every refusal says
 * where and why. Nothing here executes input or produces markup.
 */
import { z } from 'zod';
import { parseJson, scanUntrusted } from '../../core/config/untrusted';
import { readCsvText, toCsv, type CsvCell } from '../../core/csv';
import { TRAJECTORY_FORMAT, type OpinionTrajectory, type TrajectoryFile } from './trajectory';

export const TRAJECTORY_LIMITS = {
  /** Bytes of one file (JSON or CSV), checked before parsing. */
  bytes: 32 * 1024 * 1024,
  trajectories: 5000,
  agents: 5000,
  /** T + 1 (rounds including round 0). */
  rounds: 65,
  edgesPerGraph: 50_000,
  features: 64,
  /** Σ N·(T+1) over all trajectories: what the fits can hold in memory and finish in minutes. */
  values: 500_000,
  textChars: 4000,
} as const;

const ID = /^[A-Za-z0-9_.:/-]{1,64}$/;
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);
const idField = z
  .string()
  .regex(ID, 'must be 1–64 letters, digits, or _ . : / -')
  .refine((s) => !RESERVED.has(s), 'must not be __proto__, constructor or prototype');
const sign = z.union([z.literal(1), z.literal(-1)]);

const trajectorySchema = z.strictObject({
  id: idField,
  question: z.strictObject({
    id: idField,
    kind: z.enum(['subjective', 'objective']),
    text: z.string().max(TRAJECTORY_LIMITS.textChars).optional(),
    correct: sign.optional(),
  }),
  graphId: idField,
  graph: z.strictObject({
    n: z.number().int().min(2).max(TRAJECTORY_LIMITS.agents),
    edges: z.array(z.tuple([z.number().int().min(0), z.number().int().min(0), sign])).max(TRAJECTORY_LIMITS.edgesPerGraph),
  }),
  voteMeans: z
    .array(z.array(z.number().min(-1).max(1)))
    .min(2, 'needs at least two rounds (t = 0 and t = 1)')
    .max(TRAJECTORY_LIMITS.rounds),
  features: z.array(z.array(z.number().min(-1e6).max(1e6))).optional(),
  featureNames: z.array(idField).max(TRAJECTORY_LIMITS.features).optional(),
});

const fileSchema = z.strictObject({
  format: z.literal(TRAJECTORY_FORMAT, { error: `must be "${TRAJECTORY_FORMAT}"` }),
  trajectories: z.array(trajectorySchema).min(1, 'holds no trajectory').max(TRAJECTORY_LIMITS.trajectories),
});

export type TrajectoryParse = { ok: true; file: TrajectoryFile } | { ok: false; message: string };
const fail = (message: string): TrajectoryParse => ({ ok: false, message });

function pathOf(path: PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('') || '(top level)';
}

/** The meaning checks that a schema cannot express; returns the first problem, or null. */
function checkMeaning(file: TrajectoryFile): string | null {
  const ids = new Set<string>();
  const graphs = new Map<string, { n: number; key: string; where: string }>();
  let values = 0;
  for (let k = 0; k < file.trajectories.length; k++) {
    const t = file.trajectories[k];
    const at = `trajectories[${k}] ("${t.id}")`;
    if (ids.has(t.id)) return `${at}: the id appears twice`;
    ids.add(t.id);
    const n = t.graph.n;
    if (t.question.kind === 'objective' && t.question.correct === undefined) return `${at}.question: an objective question needs "correct" (1 = A, −1 = B)`;
    if (t.question.kind === 'subjective' && t.question.correct !== undefined) return `${at}.question: a subjective question has no "correct" answer`;
    for (let r = 0; r < t.voteMeans.length; r++)
      if (t.voteMeans[r].length !== n) return `${at}.voteMeans[${r}]: holds ${t.voteMeans[r].length} values, but graph.n is ${n} (one vote mean per agent)`;
    values += n * t.voteMeans.length;
    if (values > TRAJECTORY_LIMITS.values) return `the file holds more than ${TRAJECTORY_LIMITS.values.toLocaleString('en')} vote means (Σ N·(T+1)); split it`;
    const seen = new Set<number>();
    for (let e = 0; e < t.graph.edges.length; e++) {
      const [i, j] = t.graph.edges[e];
      if (i >= n || j >= n) return `${at}.graph.edges[${e}]: agent ${Math.max(i, j)} does not exist (graph.n is ${n}, agents are 0…${n - 1})`;
      if (i === j) return `${at}.graph.edges[${e}]: a self-loop on agent ${i}; the graph has a zero diagonal`;
      const key = Math.min(i, j) * n + Math.max(i, j);
      if (seen.has(key)) return `${at}.graph.edges[${e}]: the pair ${i}–${j} appears twice`;
      seen.add(key);
    }
    if (t.features) {
      if (t.features.length !== n) return `${at}.features: holds ${t.features.length} rows, but graph.n is ${n} (one row per agent)`;
      const F = t.features[0]?.length ?? 0;
      if (F < 1 || F > TRAJECTORY_LIMITS.features) return `${at}.features: rows must hold 1–${TRAJECTORY_LIMITS.features} numbers`;
      for (let i = 0; i < n; i++) if (t.features[i].length !== F) return `${at}.features[${i}]: holds ${t.features[i].length} numbers, row 0 holds ${F}`;
      if (t.featureNames && t.featureNames.length !== F) return `${at}.featureNames: names ${t.featureNames.length} features, the rows hold ${F}`;
    } else if (t.featureNames) return `${at}.featureNames: given without features`;
    const key = graphKey(t.graph);
    const prev = graphs.get(t.graphId);
    if (!prev) graphs.set(t.graphId, { n, key, where: at });
    else if (prev.n !== n || prev.key !== key)
      return `${at}: graphId "${t.graphId}" names a different graph in ${prev.where}; trajectories that share a graphId must share the graph`;
  }
  return null;
}

function graphKey(g: OpinionTrajectory['graph']): string {
  return g.edges
    .map(([i, j, s]) => (i < j ? `${i}${s > 0 ? '+' : '-'}${j}` : `${j}${s > 0 ? '+' : '-'}${i}`))
    .sort()
    .join(',');
}

/** Validates parsed JSON (from a file, a run result or the CSV reader) as a TrajectoryFile. */
export function validateTrajectoryFile(value: unknown): TrajectoryParse {
  const hostile = scanUntrusted(value);
  if (hostile.length)
    return fail(`${hostile[0].path || '(top level)'}: ${hostile[0].message.replace('a config never needs', 'a trajectory file never needs')}`);
  const parsed = fileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail(`${pathOf(issue.path)}: ${issue.message}`);
  }
  const file = parsed.data as TrajectoryFile;
  const problem = checkMeaning(file);
  return problem ? fail(problem) : { ok: true, file };
}

function sizeProblem(bytes: number, name: string): string | null {
  return bytes > TRAJECTORY_LIMITS.bytes
    ? `${name} is ${(bytes / 1e6).toFixed(1)} MB; trajectory files are capped at ${TRAJECTORY_LIMITS.bytes / 1024 / 1024} MB`
    : null;
}

export function parseTrajectoryJson(text: string): TrajectoryParse {
  const big = sizeProblem(text.length, 'the file');
  if (big) return fail(big);
  const parsed = parseJson(text);
  if (!parsed.ok) return fail(`the file is ${parsed.message}`);
  const v = parsed.value;
  // A bare list of trajectories is accepted too.
  return validateTrajectoryFile(Array.isArray(v) ? { format: TRAJECTORY_FORMAT, trajectories: v } : v);
}

// ---------------------------------------------------------------------------------------------------------------
// CSV

export const VOTES_HEADER = ['trajectory', 'graph', 'question', 'kind', 'correct', 'round', 'agent', 'vote_mean'] as const;
export const EDGES_HEADER = ['graph', 'source', 'target', 'sign'] as const;

export interface CsvTable {
  header: string[];
  rows: string[][];
  /** 1-based line number of each row, for messages. */
  lines: number[];
}

/** RFC 4180 CSV with ',' ';' or tab separators (guessed from the header line) and '#' comment lines. */
export function parseCsvTable(text: string, name: string): CsvTable | string {
  const firstLine = text.slice(0, text.search(/\r?\n|$/));
  const sep = [',', ';', '\t'].reduce((best, s) => (firstLine.split(s).length > firstLine.split(best).length ? s : best), ',');
  const rows: string[][] = [];
  const lines: number[] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let atRowStart = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (atRowStart && ch === '#') {
      while (i < text.length && text[i] !== '\n') i++;
      line++;
      rowLine = line;
      continue;
    }
    atRowStart = false;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else {
        if (ch === '\n') line++;
        field += ch;
      }
    } else if (ch === '"') quoted = true;
    else if (ch === sep) {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (row.length > 1 || row[0].trim() !== '') {
        rows.push(row);
        lines.push(rowLine);
      }
      row = [];
      field = '';
      line++;
      rowLine = line;
      atRowStart = true;
    } else field += ch;
    if (field.length > TRAJECTORY_LIMITS.textChars) return `${name}, line ${line}: a field longer than ${TRAJECTORY_LIMITS.textChars} characters`;
  }
  if (quoted) return `${name}: a quoted field is never closed`;
  row.push(field);
  if (row.length > 1 || row[0].trim() !== '') {
    rows.push(row);
    lines.push(rowLine);
  }
  if (!rows.length) return `${name} is empty`;
  // readCsvText: an id such as "-a" was written as "'-a" (formula neutralisation, src/core/csv.ts); read it back.
  const header = rows[0].map((h) => readCsvText(h.trim()).toLowerCase());
  for (let r = 1; r < rows.length; r++)
    if (rows[r].length !== header.length) return `${name}, line ${lines[r]}: ${rows[r].length} fields, the header has ${header.length}`;
  return { header, rows: rows.slice(1).map((r) => r.map((c) => readCsvText(c.trim()))), lines: lines.slice(1) };
}

export type CsvKind = 'votes' | 'edges' | 'features';

/** Which of the three CSV files a header belongs to, or null. */
export function csvKind(header: readonly string[]): CsvKind | null {
  if (header.includes('vote_mean')) return 'votes';
  if (header.includes('source') && header.includes('target') && header.includes('sign')) return 'edges';
  if (header[0] === 'trajectory' && header[1] === 'agent') return 'features';
  return null;
}

function parseSign(raw: string): 1 | -1 | 0 | null {
  const t = raw.replace('\u2212', '-');
  if (t === '1' || t === '+1' || t === '+') return 1;
  if (t === '-1' || t === '-') return -1;
  if (t === '0') return 0;
  return null;
}

function parseCorrect(raw: string): 1 | -1 | undefined | null {
  const t = raw.replace('\u2212', '-').toUpperCase();
  if (t === '') return undefined;
  if (t === '1' || t === '+1' || t === 'A') return 1;
  if (t === '-1' || t === 'B') return -1;
  return null;
}

function int(raw: string): number | null {
  return /^\d{1,7}$/.test(raw) ? Number(raw) : null;
}

/**
 * Builds a TrajectoryFile from CSV files (any order; recognised by their headers) and validates it like JSON:
 * - votes (required): trajectory, question, kind, round, agent, vote_mean; optional graph, correct (1/−1 or A/B),
 *   question_text;
 * - edges: source, target, sign, and a graph column when the votes name more than one graph;
 * - features (optional): trajectory, agent, then one column per feature.
 * N of a trajectory is 1 + its largest agent index; every agent needs a vote mean in every round 0…T.
 */
export function parseTrajectoryCsv(files: { name: string; text: string }[]): TrajectoryParse {
  const tables: Partial<Record<CsvKind, { t: CsvTable; name: string }>> = {};
  for (const f of files) {
    const big = sizeProblem(f.text.length, f.name);
    if (big) return fail(big);
    const t = parseCsvTable(f.text, f.name);
    if (typeof t === 'string') return fail(t);
    const kind = csvKind(t.header);
    if (!kind)
      return fail(
        `${f.name}: the header "${t.header.join(',').slice(0, 80)}" is none of votes (…,vote_mean), edges (source,target,sign) or features (trajectory,agent,…)`,
      );
    if (tables[kind]) return fail(`${f.name}: a second ${kind} CSV (the first was ${tables[kind]!.name})`);
    tables[kind] = { t, name: f.name };
  }
  const votes = tables.votes;
  if (!votes) return fail('no votes CSV (header trajectory,graph,question,kind,correct,round,agent,vote_mean)');
  const col = (t: CsvTable, name: string) => t.header.indexOf(name);
  for (const need of ['trajectory', 'question', 'kind', 'round', 'agent', 'vote_mean'])
    if (col(votes.t, need) < 0) return fail(`${votes.name}: the header has no "${need}" column`);
  const V = {
    tr: col(votes.t, 'trajectory'),
    g: col(votes.t, 'graph'),
    q: col(votes.t, 'question'),
    k: col(votes.t, 'kind'),
    c: col(votes.t, 'correct'),
    r: col(votes.t, 'round'),
    a: col(votes.t, 'agent'),
    v: col(votes.t, 'vote_mean'),
    txt: col(votes.t, 'question_text'),
  };

  interface Building {
    id: string;
    graphId: string;
    qid: string;
    kind: string;
    correct: 1 | -1 | undefined;
    text?: string;
    cells: Map<number, number>;
    maxRound: number;
    maxAgent: number;
    line: number;
  }
  const byId = new Map<string, Building>();
  if (votes.t.rows.length > TRAJECTORY_LIMITS.values) return fail(`${votes.name}: more than ${TRAJECTORY_LIMITS.values.toLocaleString('en')} rows`);
  for (let r = 0; r < votes.t.rows.length; r++) {
    const row = votes.t.rows[r];
    const at = `${votes.name}, line ${votes.t.lines[r]}`;
    const id = row[V.tr];
    let b = byId.get(id);
    const graphId = V.g >= 0 ? row[V.g] : 'graph';
    const kind = row[V.k].toLowerCase();
    const correct = V.c >= 0 ? parseCorrect(row[V.c]) : undefined;
    if (correct === null) return fail(`${at}: correct must be 1, −1, A, B or empty (got "${row[V.c].slice(0, 20)}")`);
    if (!b) {
      if (byId.size >= TRAJECTORY_LIMITS.trajectories) return fail(`${at}: more than ${TRAJECTORY_LIMITS.trajectories} trajectories`);
      b = { id, graphId, qid: row[V.q], kind, correct, cells: new Map(), maxRound: -1, maxAgent: -1, line: votes.t.lines[r] };
      if (V.txt >= 0 && row[V.txt]) b.text = row[V.txt];
      byId.set(id, b);
    } else if (b.graphId !== graphId || b.qid !== row[V.q] || b.kind !== kind || b.correct !== correct)
      return fail(`${at}: trajectory "${id.slice(0, 64)}" changes its graph, question, kind or correct answer (first seen on line ${b.line})`);
    const round = int(row[V.r]);
    const agent = int(row[V.a]);
    if (round === null || round >= TRAJECTORY_LIMITS.rounds)
      return fail(`${at}: round must be an integer 0…${TRAJECTORY_LIMITS.rounds - 1} (got "${row[V.r].slice(0, 20)}")`);
    if (agent === null || agent >= TRAJECTORY_LIMITS.agents)
      return fail(`${at}: agent must be an integer 0…${TRAJECTORY_LIMITS.agents - 1} (got "${row[V.a].slice(0, 20)}")`);
    const v = row[V.v] === '' ? NaN : Number(row[V.v].replace('\u2212', '-'));
    if (!Number.isFinite(v) || v < -1 || v > 1) return fail(`${at}: vote_mean must be a number in [−1, 1] (got "${row[V.v].slice(0, 20)}")`);
    const key = round * TRAJECTORY_LIMITS.agents + agent;
    if (b.cells.has(key)) return fail(`${at}: trajectory "${id.slice(0, 64)}" has round ${round}, agent ${agent} twice`);
    b.cells.set(key, v);
    b.maxRound = Math.max(b.maxRound, round);
    b.maxAgent = Math.max(b.maxAgent, agent);
  }

  // Edges, per graph id.
  const graphIds = new Set([...byId.values()].map((b) => b.graphId));
  const edges = new Map<string, [number, number, 1 | -1][]>([...graphIds].map((g) => [g, []]));
  if (tables.edges) {
    const E = tables.edges;
    const eg = col(E.t, 'graph');
    const es = col(E.t, 'source');
    const et = col(E.t, 'target');
    const esign = col(E.t, 'sign');
    if (eg < 0 && graphIds.size > 1) return fail(`${E.name}: the votes name ${graphIds.size} graphs, so the edges CSV needs a "graph" column`);
    for (let r = 0; r < E.t.rows.length; r++) {
      const row = E.t.rows[r];
      const at = `${E.name}, line ${E.t.lines[r]}`;
      const g = eg < 0 ? [...graphIds][0] : row[eg];
      const list = edges.get(g);
      if (!list) return fail(`${at}: graph "${g.slice(0, 64)}" is not used by any trajectory in the votes CSV`);
      const i = int(row[es]);
      const j = int(row[et]);
      const s = parseSign(row[esign]);
      if (i === null || j === null) return fail(`${at}: source and target must be agent indices 0, 1, 2, …`);
      if (s === null) return fail(`${at}: sign must be 1, −1, +, − or 0 (got "${row[esign].slice(0, 20)}")`);
      if (s !== 0) list.push([i, j, s]);
      if (list.length > TRAJECTORY_LIMITS.edgesPerGraph) return fail(`${at}: graph "${g}" has more than ${TRAJECTORY_LIMITS.edgesPerGraph} edges`);
    }
  }

  // Features, per trajectory.
  const features = new Map<string, number[][]>();
  let featureNames: string[] | undefined;
  if (tables.features) {
    const Fz = tables.features;
    featureNames = Fz.t.header.slice(2);
    if (!featureNames.length) return fail(`${Fz.name}: no feature columns after trajectory,agent`);
    for (let r = 0; r < Fz.t.rows.length; r++) {
      const row = Fz.t.rows[r];
      const at = `${Fz.name}, line ${Fz.t.lines[r]}`;
      const b = byId.get(row[0]);
      if (!b) return fail(`${at}: trajectory "${row[0].slice(0, 64)}" is not in the votes CSV`);
      const i = int(row[1]);
      if (i === null || i > b.maxAgent) return fail(`${at}: agent must be 0…${b.maxAgent} for trajectory "${b.id}"`);
      const vals = row.slice(2).map((x) => (x === '' ? NaN : Number(x)));
      if (vals.some((x) => !Number.isFinite(x))) return fail(`${at}: every feature must be a number`);
      let m = features.get(b.id);
      if (!m) features.set(b.id, (m = []));
      if (m[i]) return fail(`${at}: agent ${i} of trajectory "${b.id}" appears twice`);
      m[i] = vals;
    }
  }

  const trajectories: unknown[] = [];
  const nOfGraph = new Map<string, { n: number; id: string }>();
  for (const b of byId.values()) {
    const n = b.maxAgent + 1;
    const T1 = b.maxRound + 1;
    const prev = nOfGraph.get(b.graphId);
    if (prev && prev.n !== n) return fail(`trajectories "${prev.id}" and "${b.id}" share graph "${b.graphId}" but have ${prev.n} and ${n} agents`);
    nOfGraph.set(b.graphId, { n, id: b.id });
    if (b.cells.size !== n * T1) {
      for (let t = 0; t < T1; t++)
        for (let i = 0; i < n; i++)
          if (!b.cells.has(t * TRAJECTORY_LIMITS.agents + i))
            return fail(`${votes.name}: trajectory "${b.id}" has no vote_mean for round ${t}, agent ${i} (every agent needs one in every round 0…${T1 - 1})`);
    }
    const voteMeans = Array.from({ length: T1 }, (_, t) => Array.from({ length: n }, (_, i) => b.cells.get(t * TRAJECTORY_LIMITS.agents + i)!));
    const traj: Record<string, unknown> = {
      id: b.id,
      question: { id: b.qid, kind: b.kind, ...(b.text !== undefined ? { text: b.text } : {}), ...(b.correct !== undefined ? { correct: b.correct } : {}) },
      graphId: b.graphId,
      graph: { n, edges: edges.get(b.graphId) },
      voteMeans,
    };
    const f = features.get(b.id);
    if (tables.features) {
      if (!f || f.length !== n || f.some((row) => !row))
        return fail(`${tables.features.name}: trajectory "${b.id}" needs one features row for each of its ${n} agents`);
      traj.features = f;
      traj.featureNames = featureNames;
    }
    trajectories.push(traj);
  }
  return validateTrajectoryFile({ format: TRAJECTORY_FORMAT, trajectories });
}

/** Reads any supported input: one JSON file, or one to three CSV files. */
export function parseTrajectoryFiles(files: { name: string; text: string }[]): TrajectoryParse {
  if (!files.length) return fail('no file given');
  const json = files.filter((f) => /\.json$/i.test(f.name) || /^\s*[[{]/.test(f.text.slice(0, 64)));
  if (json.length) {
    if (files.length > 1) return fail('give one JSON file, or the CSV files (votes, edges, features), not both');
    return parseTrajectoryJson(json[0].text);
  }
  return parseTrajectoryCsv(files);
}

// ---------------------------------------------------------------------------------------------------------------
// Writers

export function trajectoriesToJson(trajectories: readonly OpinionTrajectory[]): string {
  const file: TrajectoryFile = { format: TRAJECTORY_FORMAT, trajectories: [...trajectories] };
  return JSON.stringify(file);
}

/**
 * The CSV form, written by the one CSV writer (src/core/csv.ts). Cells are ids (a safe alphabet, which allows a
 * leading '-' that the writer neutralises and the reader above restores) and numbers, passed as numbers.
 */
export function trajectoriesToCsv(trajectories: readonly OpinionTrajectory[]): { votes: string; edges: string; features?: string } {
  const votes: CsvCell[][] = [];
  const edges: CsvCell[][] = [];
  const doneGraphs = new Set<string>();
  const withFeatures = trajectories.filter((t) => t.features?.length);
  const F = withFeatures[0]?.features?.[0]?.length ?? 0;
  const sameF = withFeatures.length === trajectories.length && withFeatures.every((t) => t.features![0].length === F);
  const names = sameF ? (withFeatures[0]?.featureNames ?? Array.from({ length: F }, (_, f) => `f${f}`)) : [];
  const feats: CsvCell[][] | null = sameF && F ? [] : null;
  for (const t of trajectories) {
    const q = t.question;
    // `correct` is 1 or -1: a number, so that -1 is written as a number and not neutralised as text.
    t.voteMeans.forEach((row, r) => row.forEach((v, i) => votes.push([t.id, t.graphId, q.id, q.kind, q.correct, r, i, v])));
    if (!doneGraphs.has(t.graphId)) {
      doneGraphs.add(t.graphId);
      for (const [i, j, s] of t.graph.edges) edges.push([t.graphId, i, j, s]);
    }
    if (feats) t.features!.forEach((row, i) => feats.push([t.id, i, ...row]));
  }
  const out: { votes: string; edges: string; features?: string } = { votes: toCsv(VOTES_HEADER, votes), edges: toCsv(EDGES_HEADER, edges) };
  if (feats) out.features = toCsv(['trajectory', 'agent', ...names], feats);
  return out;
}
