/**
 * The planted truth of the Opinions model organism (models/organism-opinions/planted.json, written by its build from
 * organisms/opinions/law.ts), for the fit's "planted beside recovered" line. Null for any other model.
 */
import plantedJson from '../../../models/organism-opinions/planted.json';
import { findModel } from '../../../models/registry';
import { validateConfig } from '../../core/config';
import { opinionsLab } from './config';
import type { OpinionsConfig } from './graph';
import type { AgentRow } from './community-data';
import { sigmoid } from '../../core/ising/simulate';

export interface PlantedOpinions {
  model: string;
  /** The lab's effective weights (fit.effective): β⁺+β₀ on a friendly neighbour, β₀−β⁻ on an unfriendly one. */
  friendly: number;
  unfriendly: number;
  /** The votes per round and the temperature at which the law holds exactly. */
  votesPerRound: number;
  temperature: number;
}

export function plantedOpinions(model: string | undefined): PlantedOpinions | null {
  if (!model || findModel(model)?.organism !== 'opinions' || plantedJson.version !== 1) return null;
  const o = plantedJson.opinions;
  return { model, friendly: o.effective.friendly, unfriendly: o.effective.unfriendly, votesPerRound: o.votesPerRound, temperature: o.temperature };
}

/** The community settings a stored run used, through the lab's own schema (null when the config does not validate). */
export function runCommunitySettings(config: unknown): OpinionsConfig['community'] | null {
  const v = validateConfig(opinionsLab, config);
  return v.ok ? (v.value as OpinionsConfig).community : null;
}

export interface CalibrationBin {
  label: string;
  /** Agent-rounds in the bin. */
  n: number;
  /** Mean planted chance that the agent ends the round at +1 (Agree, or A). */
  planted: number;
  /** Share that did. */
  observed: number;
}

/** The planted h of one agent-round: the weights times the stances (as of the last round) of the messages it read. */
function rowH(p: PlantedOpinions, row: AgentRow, previous: ReadonlyMap<number, 1 | -1>): number {
  const sum = (xs: readonly number[]) => xs.reduce((s, j) => s + (previous.get(j) ?? 0), 0);
  return p.friendly * sum(row.friendlyFrom) + p.unfriendly * sum(row.unfriendlyFrom);
}

const BINS: [number, number, string][] = [
  [-Infinity, -1.75, 'h < −1.75'],
  [-1.75, -0.25, '−1.75 … −0.25'],
  [-0.25, 0.25, '−0.25 … 0.25'],
  [0.25, 1.75, '0.25 … 1.75'],
  [1.75, Infinity, 'h > 1.75'],
];

/**
 * Planted against observed, with no fit: every agent-round at t ≥ 1 of a run, binned by the planted h of the
 * messages it read; in each bin the mean planted chance σ(h) of ending at +1, and the share that did.
 */
export function plantedCalibration(
  p: PlantedOpinions,
  rounds: readonly { round: { question: string; graph: number; trajectory: number; t: number }; agents: readonly AgentRow[] }[],
): CalibrationBin[] {
  const spins = new Map<string, Map<number, 1 | -1>>();
  for (const r of rounds) spins.set(`${r.round.question}/${r.round.graph}/${r.round.trajectory}/${r.round.t}`, new Map(r.agents.map((a) => [a.agent, a.spin])));
  const acc = BINS.map(([, , label]) => ({ label, n: 0, planted: 0, observed: 0 }));
  for (const r of rounds) {
    if (r.round.t < 1) continue;
    const previous = spins.get(`${r.round.question}/${r.round.graph}/${r.round.trajectory}/${r.round.t - 1}`);
    if (!previous) continue;
    for (const a of r.agents) {
      if (!a.updated || a.voteFailures === a.votes.length) continue;
      const h = rowH(p, a, previous);
      const b = BINS.findIndex(([lo, hi]) => h >= lo && h < hi);
      acc[b].n++;
      acc[b].planted += sigmoid(h);
      acc[b].observed += a.spin > 0 ? 1 : 0;
    }
  }
  return acc.map((b) => ({ label: b.label, n: b.n, planted: b.n ? b.planted / b.n : NaN, observed: b.n ? b.observed / b.n : NaN }));
}
