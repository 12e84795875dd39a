/**
 * The Opinions lab's results, declared once. Its summarize returns, by mode: `magnetisation` for a simulation
 * (runner.ts), `community` and `trajectories` for an LLM community (community-runner.ts, summarizeCommunity), and
 * `screening` for a question screening (screening-runner.ts, summarizeScreening). The Fit panel and `npm run lab --
 * ising fit` read `trajectories` (fit-data.ts), through readResult like every reader. Every number here is a mean or a
 * rate of validated records, guarded against empty sets (null or 0 then), so none is NaN. Pure.
 */
import { z } from 'zod';
import { count, type ResultsDefinition, type SummaryOf } from '../../core/runs/results';
import { screenRow } from './records';
import { opinionTrajectory, TRAJECTORY_FORMAT, TRAJECTORY_RESULT, trajectoryFile, type TrajectoryFile } from './trajectory';

/** A simulation: ⟨|n|⟩ and the susceptibility χ over the second half of each replica, averaged over the replicas. */
export const magnetisationResult = z.object({
  meanAbsN: z.number(),
  chi: z.number(),
  episodes: count,
  note: z.string(),
});

/** A community run: parse and delivery rates (null when there was nothing to parse), counts, and n(t), c(t) per trajectory. */
export const communityResult = z.object({
  rounds: count,
  decoding: z.enum(['free', 'constrained']),
  voteParseRate: z.number().nullable(),
  messageParseRate: z.number().nullable(),
  messageDeliveryRate: z.number().nullable(),
  votes: count,
  voteFailures: count,
  messages: count,
  messageAttempts: count,
  messageFailures: count,
  /** Agents whose message could not be delivered (every attempt failed). */
  undelivered: count,
  secondsPerRound: z.number().nullable(),
  /** By "<question>/g<graph>/e<trajectory>": n(t), c(t) and (objective questions) the fraction correct, per round t. */
  trajectories: z.record(
    z.string(),
    z.object({
      question: z.string(),
      graphId: z.string(),
      n: z.array(z.number()),
      c: z.array(z.number()),
      fractionCorrect: z.array(z.number().nullable()),
    }),
  ),
});

/**
 * A community run's complete trajectories, in the shape of a trajectory file (trajectory.ts); a bare list of them is
 * read as such a file too, as an imported file's is. fit-data.ts checks them further, like an imported file.
 */
export const trajectoriesResult = z.union([
  trajectoryFile,
  z.array(opinionTrajectory).transform((trajectories): TrajectoryFile => ({ format: TRAJECTORY_FORMAT, trajectories })),
]);

/** A screening: every screened question ranked by vote entropy (highest first), and the ids of the `keep` kept. */
export const screeningResult = z.object({
  ranked: z.array(
    screenRow.pick({
      question: true,
      questionKind: true,
      questionText: true,
      share: true,
      entropy: true,
      within: true,
      between: true,
      parsed: true,
      failed: true,
    }),
  ),
  keep: count,
  kept: z.array(z.string()),
});

export type MagnetisationResult = z.output<typeof magnetisationResult>;
export type CommunityResult = z.output<typeof communityResult>;
export type ScreeningResult = z.output<typeof screeningResult>;

/** Version 1: the magnetisation, community, trajectories and screening results as the runner's summarize returns them. */
export const opinionsResults = {
  version: 1,
  schemas: {
    magnetisation: magnetisationResult,
    community: communityResult,
    [TRAJECTORY_RESULT]: trajectoriesResult,
    screening: screeningResult,
  },
} satisfies ResultsDefinition;

/** One result as the runner's summarize returns it. */
export type OpinionsSummary = SummaryOf<typeof opinionsResults.schemas>;
