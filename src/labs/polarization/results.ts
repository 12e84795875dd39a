/**
 * The Polarization lab's results, declared once: a run's summarize returns `polarization` (runner.ts: P, H and the
 * series, with the echo-chamber table and the call counts for LLM agents), or `mechanisms` for a mechanism sweep
 * (mechanisms.ts, summarizeMechanisms). tables.ts, mechanisms.ts and the views take their types from these schemas;
 * the echo table that core computes is checked to be the same type. The echo-chamber and backfire means of no
 * interaction, and a condition's mean and SE over fewer than one or two runs, are NaN: they are `real`, any number. Pure.
 */
import { z } from 'zod';
import type { EchoTable } from '../../core/polarization/metrics';
import { count, real, type Assert, type ResultsDefinition, type Same, type SummaryOf } from '../../core/runs/results';
import type { PolarizationConfig } from './network';
import { epochRow } from './records';

/** One cell of the echo table: interactions counted, and the mean of |x_post| − |x_prior| after them. */
const echoCell = z.object({ count, meanChange: z.number() });
const byRadicality = z.object({ moreModerate: echoCell, same: echoCell, moreRadical: echoCell });

/** The echo-chamber / backfire table over 5-epoch windows (core/polarization/metrics.ts), without its per-agent rows. */
const echoTable = z.object({
  windows: count,
  cells: z.object({ same: byRadicality, opposing: byRadicality, neutral: byRadicality }),
  /** Mean change after same-side, more-radical interactions (NaN when there was none). */
  echoChamber: real,
  /** Mean change after opposing interactions, any radicality (NaN when there was none). */
  backfire: real,
});

/** The stored `polarization` result (classic and LLM runs; echo and the counts only for LLM agents). */
export const polarizationResult = z.object({
  P0: z.number(),
  PT: z.number(),
  H0: z.number(),
  HT: z.number(),
  /** Agents per opinion level −2..+2 after the last epoch. */
  finalDistribution: z.array(count),
  epochs: count,
  /** Every epoch's row, as the records hold it. */
  series: z.array(epochRow),
  echo: echoTable.optional(),
  calls: count.optional(),
  failures: count.optional(),
  messages: count.optional(),
  /** LLM agents: whether their stance updates and yes/no answers were free text or constrained by a grammar. */
  decoding: z.enum(['free', 'constrained']).optional(),
});

const trait = z.enum(['confirmationBias', 'selectiveExposure']);
const eliteStance = z.enum(['original', 'neutral', 'moderate', 'radical']);

/** One condition of the mechanism sweep: a trait at a share of the agents, or an elite stance. */
export const mechanismCondition = z.discriminatedUnion('kind', [
  z.object({ id: z.string(), label: z.string(), kind: z.literal('trait'), trait, share: z.number() }),
  z.object({ id: z.string(), label: z.string(), kind: z.literal('elite'), stance: eliteStance }),
]);

export const mechanismSummary = z.object({
  condition: mechanismCondition,
  /** Runs that reached `readFrom` (of `seeds`). */
  runs: count,
  /** Mean P and H over those runs (NaN with none), and their SE (NaN with fewer than two). */
  P: real,
  Pse: real,
  H: real,
  Hse: real,
});

/** The stored `mechanisms` result: where P and H are read from, and every condition. */
export const mechanismsResult = z.object({
  readFrom: count,
  conditions: z.array(mechanismSummary),
});

export type PolarizationResult = z.output<typeof polarizationResult>;
export type MechanismCondition = z.output<typeof mechanismCondition>;
export type MechanismSummary = z.output<typeof mechanismSummary>;
export type MechanismsResult = z.output<typeof mechanismsResult>;

type Mechanisms = PolarizationConfig['mechanisms'];

/** Core's echo table and the config's traits and stances, checked to be what these schemas infer. */
export type OtherShapesAgree = [
  Assert<Same<z.output<typeof echoTable>, Omit<EchoTable, 'records'>>>,
  Assert<Same<z.output<typeof trait>, Mechanisms['traits'][number]>>,
  Assert<Same<z.output<typeof eliteStance>, Mechanisms['eliteStances'][number]>>,
];

/** Version 1: the polarization and mechanisms results as the runner's summarize returns them. */
export const polarizationResults = {
  version: 1,
  schemas: { polarization: polarizationResult, mechanisms: mechanismsResult },
} satisfies ResultsDefinition;

/** One result as the runner's summarize returns it. */
export type PolarizationSummary = SummaryOf<typeof polarizationResults.schemas>;
