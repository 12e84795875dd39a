/**
 * Where the Fit panel's and the CLI's trajectories come from, and how they become the study's input:
 * - imported files (trajectory-io.ts);
 * - stored runs of the opinions lab: a community run's trajectories (its "trajectories" result, else
 *   community-data.ts's trajectoriesFromRun over its round records), or a
 *   pure-simulation run replayed from its config and seed (the first `rounds` steps of every replica, checked
 *   against the stored n(t)).
 */
import { episodeRng } from '../../core/runs/runner';
import type { RunBundle } from '../../core/runs/bundle';
import { edgeList } from '../../core/graphs/signed';
import { simulateGlauber } from '../../core/ising/simulate';
import type { StudyItem } from '../../core/ising/study';
import { opinionsLab } from './config';
import { simulationProblem, simulationSetup, type OpinionsConfig } from './graph';
import { readResult } from '../../core/runs/results';
import { TRAJECTORY_FORMAT, TRAJECTORY_RESULT, toIsingEpisode, type OpinionTrajectory } from './trajectory';
import { opinionsResults } from './results';
import { TRAJECTORY_LIMITS, validateTrajectoryFile } from './trajectory-io';
import { trajectoriesFromRun } from './community-data';
import { readOpinionsEpisode } from './records';

/** The study's input: spins through toIsingEpisode, vote means kept for conviction and regimes. */
export function studyItems(trajectories: readonly OpinionTrajectory[]): StudyItem[] {
  return trajectories.map((t) => ({
    id: t.id,
    questionId: t.question.id,
    graphId: t.graphId,
    objective: t.question.kind === 'objective',
    episode: toIsingEpisode(t),
    voteMeans: Float64Array.from(t.voteMeans.flat()),
  }));
}

export interface TrajectorySummary {
  trajectories: number;
  questions: number;
  graphs: number;
  objective: number;
  agents: [number, number];
  rounds: [number, number];
  /** Feature count when every trajectory carries the same number, else 0. */
  features: number;
}

export function summarizeTrajectories(ts: readonly OpinionTrajectory[]): TrajectorySummary {
  const ns = ts.map((t) => t.graph.n);
  const rs = ts.map((t) => t.voteMeans.length - 1);
  const F = ts[0]?.features?.[0]?.length ?? 0;
  return {
    trajectories: ts.length,
    questions: new Set(ts.map((t) => t.question.id)).size,
    graphs: new Set(ts.map((t) => t.graphId)).size,
    objective: ts.filter((t) => t.question.kind === 'objective').length,
    agents: ts.length ? [Math.min(...ns), Math.max(...ns)] : [0, 0],
    rounds: ts.length ? [Math.min(...rs), Math.max(...rs)] : [0, 0],
    features: F && ts.every((t) => t.features?.[0]?.length === F) ? F : 0,
  };
}

/** Steps per simulateGlauber call in the simulation runner (src/labs/opinions/runner.ts); the replay must match. */
const RUNNER_CHUNK = 50;

export type RunTrajectories =
  { ok: true; trajectories: OpinionTrajectory[]; source: 'result' | 'records' | 'simulation'; note: string } | { ok: false; message: string };

/**
 * A pure-simulation run's replicas as trajectories: each episode is replayed from its seed exactly as the runner
 * drew it (same RNG streams, same 50-step chunks), keeping s(0)…s(rounds). When the stored episodes carry n(t), the
 * replay is checked against them.
 */
export function simulationTrajectories(
  config: OpinionsConfig,
  runId: string,
  episodeIndices: readonly number[],
  rounds: number,
  stored?: ReadonlyMap<number, ArrayLike<number>>,
): OpinionTrajectory[] {
  const problem = simulationProblem(config);
  if (problem) throw new Error(problem);
  const { graph, params } = simulationSetup(config);
  const d = config.dynamics;
  const T = Math.max(1, Math.min(rounds, d.steps, TRAJECTORY_LIMITS.rounds - 1));
  if (graph.n * (T + 1) * episodeIndices.length > TRAJECTORY_LIMITS.values)
    throw new Error(
      `${episodeIndices.length} replicas of ${graph.n} agents over ${T} rounds exceed ${TRAJECTORY_LIMITS.values.toLocaleString('en')} spins; use fewer rounds or a smaller graph`,
    );
  const edges = edgeList(graph).map(([i, j, s]) => [i, j, s > 0 ? 1 : -1] as [number, number, 1 | -1]);
  const graphId = `${runId}/graph`.slice(0, 64);
  return episodeIndices.map((index) => {
    const rng = episodeRng(config.seed, index);
    let spins: Int8Array = Int8Array.from({ length: graph.n }, () => (rng.next() < d.initialUp ? 1 : -1));
    const rows: number[][] = [Array.from(spins)];
    while (rows.length < T + 1) {
      const chunk = Math.min(RUNNER_CHUNK, d.steps - (rows.length - 1));
      const r = simulateGlauber(graph, params, spins, chunk, rng, { record: true });
      for (let t = 1; t <= chunk && rows.length < T + 1; t++) rows.push(Array.from(r.states!.subarray(t * graph.n, (t + 1) * graph.n)));
      spins = r.final;
    }
    const net = stored?.get(index);
    if (net)
      for (let t = 0; t < Math.min(net.length, rows.length); t++) {
        const m = rows[t].reduce((a, b) => a + b, 0) / graph.n;
        if (Math.abs(m - Number(net[t])) > 1e-9)
          throw new Error(`the replay of episode ${index} differs from the stored n(t) at t = ${t}; the run was made by another version of the simulator`);
      }
    return {
      id: `${runId}/e${index}`.slice(0, 64),
      question: { id: 'simulation', kind: 'subjective' as const },
      graphId,
      graph: { n: graph.n, edges },
      voteMeans: rows,
    };
  });
}

/** Trajectories of a stored or imported run of the opinions lab, whatever kind of run it is. */
export function trajectoriesFromBundle(bundle: RunBundle, opts: { rounds?: number } = {}): RunTrajectories {
  const { meta } = bundle;
  if (meta.lab !== 'opinions') return { ok: false, message: `run ${meta.id} is a ${meta.lab} run, not an opinions run` };
  const result = readResult(opinionsResults, bundle.results, TRAJECTORY_RESULT);
  if (result?.ok) {
    // The result's schema gave its shape; it is checked further like an imported file (ids, sizes, markup, meaning).
    const parsed = validateTrajectoryFile(result.value);
    if (!parsed.ok) return { ok: false, message: `run ${meta.id}, result "${TRAJECTORY_RESULT}": ${parsed.message}` };
    return {
      ok: true,
      trajectories: parsed.file.trajectories,
      source: 'result',
      note: `${parsed.file.trajectories.length} trajectories from the run's results`,
    };
  }
  const cfg = opinionsLab.schema.safeParse(meta.config);
  if (!cfg.success) return { ok: false, message: `run ${meta.id}: its config does not validate` };
  const config = cfg.data as OpinionsConfig;
  // A stored result that is stale or does not fit (or that the bundle reader left out) is not read: the trajectories
  // are rebuilt from the records, as for a run without one, and the note says why.
  const stale = result && !result.ok ? result.problem : bundle.resultsLeftOut?.find((r) => r.name === TRAJECTORY_RESULT)?.problem;
  if (config.mode === 'community') {
    let raw: OpinionTrajectory[];
    try {
      raw = trajectoriesFromRun(config, bundle.episodes);
    } catch (e) {
      return { ok: false, message: `run ${meta.id}: its rounds could not be read (${(e as Error).message})` };
    }
    if (!raw.length)
      return {
        ok: false,
        message: `run ${meta.id} holds no complete trajectory yet (all ${config.community.rounds + 1} rounds of one question, graph and episode)`,
      };
    // Stored rounds may come from an imported bundle: they are checked like a file.
    const parsed = validateTrajectoryFile(JSON.parse(JSON.stringify({ format: TRAJECTORY_FORMAT, trajectories: raw })));
    if (!parsed.ok) return { ok: false, message: `run ${meta.id}: ${parsed.message}` };
    const why = stale ? ` (rebuilt from the records: ${stale})` : '';
    return { ok: true, trajectories: parsed.file.trajectories, source: 'records', note: `${raw.length} complete community trajectories${why}` };
  }
  if (config.mode === 'screening') return { ok: false, message: `run ${meta.id} is a question screening: it has votes on questions, not trajectories to fit` };
  if (!bundle.episodes.length) return { ok: false, message: `run ${meta.id} has no finished episode` };
  const rounds = Math.min(opts.rounds ?? 8, config.dynamics.steps);
  try {
    // n(t) of each replica, from its step rows (parsed: a stored row of another shape is named, not read as NaN).
    const stored = new Map(bundle.episodes.map(readOpinionsEpisode).map((e) => [e.index, e.records.flatMap((r) => (r.kind === undefined ? [r.n] : []))]));
    const trajectories = simulationTrajectories(
      config,
      meta.id,
      bundle.episodes.map((e) => e.index),
      rounds,
      stored,
    );
    return { ok: true, trajectories, source: 'simulation', note: `${trajectories.length} replicas replayed from the seed, s(0)…s(${rounds})` };
  } catch (e) {
    return { ok: false, message: `run ${meta.id}: ${(e as Error).message}` };
  }
}

/**
 * Pools trajectories from several sources. Ids are made unique (a suffix ~2, ~3, …); a graph id that an earlier
 * source used for a different graph is renamed the same way, so the held-out-graph split never mixes two graphs.
 */
export function poolTrajectories(sets: readonly (readonly OpinionTrajectory[])[]): OpinionTrajectory[] {
  const seen = new Set<string>();
  const graphs = new Map<string, string>();
  const out: OpinionTrajectory[] = [];
  const unique = (base: string, taken: (id: string) => boolean) => {
    let id = base;
    for (let k = 2; taken(id); k++) id = `${base.slice(0, 58)}~${k}`;
    return id;
  };
  for (const set of sets) {
    const renamed = new Map<string, string>();
    for (const t of set) {
      const key = `${t.graph.n}:${t.graph.edges.map((e) => e.join(' ')).join(',')}`;
      let graphId = renamed.get(t.graphId);
      if (graphId === undefined) {
        graphId = unique(t.graphId, (g) => graphs.has(g) && graphs.get(g) !== key);
        renamed.set(t.graphId, graphId);
      }
      graphs.set(graphId, key);
      const id = unique(t.id, (x) => seen.has(x));
      seen.add(id);
      out.push(id === t.id && graphId === t.graphId ? t : { ...t, id, graphId });
    }
  }
  return out;
}
