/**
 * One observed opinion trajectory: a community on a signed graph answering one question for T rounds. It is the
 * unit that the LLM community run produces, that researchers import from elsewhere, and that the Glauber fits take
 * (through toIsingEpisode). Documented in docs/formats.md ("Opinion trajectories").
 */
import { z } from 'zod';
import { fromEdges } from '../../core/graphs/signed';
import { spinsFromVoteMeans, type Episode as IsingEpisode } from '../../core/ising/design';
import { count } from '../../core/runs/results';

export const TRAJECTORY_FORMAT = 'social-minds-lab/opinion-trajectories@1';

const sign = z.union([z.literal(1), z.literal(-1)]);

/**
 * One trajectory's shape, as a run's `trajectories` result stores it (results.ts) and every reader types it; strict, as
 * an imported file is (a field it does not know is refused, not dropped). An imported file is held to more (ids,
 * sizes, the meaning of the numbers): trajectory-io.ts checks those, for a stored result too.
 */
export const opinionTrajectory = z.strictObject({
  /** Unique within a file, e.g. "subj-03/g0/e1". */
  id: z.string(),
  question: z.strictObject({
    id: z.string(),
    kind: z.enum(['subjective', 'objective']),
    text: z.string().optional(),
    /** Objective questions: which spin is correct (+1 = A, −1 = B). */
    correct: sign.optional(),
  }),
  /** Trajectories that share a graph share this id (train/test splits by graph). */
  graphId: z.string(),
  graph: z.strictObject({ n: count, edges: z.array(z.tuple([count, count, sign])) }),
  /** T+1 rows of N vote means ō_i(t) ∈ [−1, 1] (±1 when each agent voted once). */
  voteMeans: z.array(z.array(z.number())),
  /** Optional field features φ_i: N rows of F numbers, with their names. */
  features: z.array(z.array(z.number())).optional(),
  featureNames: z.array(z.string()).optional(),
});

export const trajectoryFile = z.strictObject({
  format: z.literal(TRAJECTORY_FORMAT),
  trajectories: z.array(opinionTrajectory),
});

export type OpinionTrajectory = z.output<typeof opinionTrajectory>;
export type TrajectoryFile = z.output<typeof trajectoryFile>;

/** The Glauber fit's episode: spins s = sign(ō) (a tie keeps the previous spin), features flattened. */
export function toIsingEpisode(t: OpinionTrajectory): IsingEpisode {
  const n = t.graph.n;
  const obar = new Float64Array(t.voteMeans.length * n);
  t.voteMeans.forEach((row, r) => obar.set(row, r * n));
  const ep: IsingEpisode = { graph: fromEdges(n, t.graph.edges), states: spinsFromVoteMeans(obar, n) };
  if (t.features?.length) {
    const F = t.features[0].length;
    ep.features = Float64Array.from(t.features.flat());
    ep.featureCount = F;
  }
  if (t.question.kind === 'objective' && t.question.correct) ep.yTrue = t.question.correct;
  return ep;
}

/**
 * How a stored run hands its trajectories to the Fit panel and `npm run lab -- ising fit`: a derived result named
 * TRAJECTORY_RESULT whose value is a TrajectoryFile (or an OpinionTrajectory[]), validated like an imported file.
 * Without it, a community run's complete trajectories are rebuilt from its round records
 * (community-data.ts, trajectoriesFromRun), and a pure-simulation run is replayed from its config and seed
 * (fit-data.ts) and checked against the stored n(t).
 */
export const TRAJECTORY_RESULT = 'trajectories';
