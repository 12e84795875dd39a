/**
 * The mechanism experiments in one run (config `mechanisms`, LLM agents; docs/polarization-lab.md): every trait
 * (confirmation bias, selective exposure) at every share, and every elite stance, each over `seeds` runs. A cell of
 * the sweep is exactly the plain run of its condition's config with seed `seed + s`: the same episodes, numbers and
 * records. P and H are read as each run's mean over the epochs from `readFrom` on, then averaged over the seeds ± SE.
 */
import { episodeRng, type EpisodeContext, type RunPlan } from '../../core/runs/runner';
import type { Episode } from '../../core/runs/types';
import { runLlmEpoch } from './llm-runner';
import type { PolarizationConfig } from './network';
import type { EpochRow, PolarizationRecord } from './records';
import type { MechanismCondition, MechanismSummary, MechanismsResult } from './results';

type Trait = PolarizationConfig['mechanisms']['traits'][number];

/** A condition and a condition's summary: inferred from the result schema (results.ts). */
export type { MechanismCondition, MechanismSummary, MechanismsResult };

const TRAIT_LABEL: Record<Trait, string> = { confirmationBias: 'confirmation bias', selectiveExposure: 'selective exposure' };

export function mechanismConditions(config: PolarizationConfig): MechanismCondition[] {
  const m = config.mechanisms;
  const out: MechanismCondition[] = [];
  for (const trait of m.traits)
    for (const share of m.traitShares)
      out.push({ id: `${trait}@${share}`, label: `${TRAIT_LABEL[trait]} ${Math.round(100 * share)} %`, kind: 'trait', trait, share });
  for (const stance of m.eliteStances) out.push({ id: `elite:${stance}`, label: `${stance} elite`, kind: 'elite', stance });
  return out;
}

/** The plain run that a cell of the sweep is: its condition's settings, seed `seed + s`, no other intervention. */
export function conditionConfig(config: PolarizationConfig, c: MechanismCondition, s: number): PolarizationConfig {
  const llm = { ...config.llm, confirmationBiasShare: 0, selectiveExposureShare: 0 };
  if (c.kind === 'trait') llm[c.trait === 'confirmationBias' ? 'confirmationBiasShare' : 'selectiveExposureShare'] = c.share;
  else llm.eliteStance = c.stance;
  return {
    ...config,
    seed: config.seed + s,
    llm,
    intervention: c.kind === 'elite' ? { kind: 'neutralElite', fromEpoch: 0 } : { ...config.intervention, kind: 'none' },
    mechanisms: { ...config.mechanisms, enabled: false },
  };
}

/** Where episode `index` sits: condition, seed, epoch (each condition × seed is a chain of `epochs` episodes). */
export function mechanismSlot(config: PolarizationConfig, index: number): { condition: MechanismCondition; s: number; epoch: number } {
  const conditions = mechanismConditions(config);
  const chain = Math.floor(index / config.epochs);
  const condition = conditions[Math.floor(chain / config.mechanisms.seeds)];
  if (!condition || index < 0) throw new Error(`Episode ${index} is outside this sweep's ${conditions.length * config.mechanisms.seeds * config.epochs}.`);
  return { condition, s: chain % config.mechanisms.seeds, epoch: index % config.epochs };
}

export function planMechanisms(config: PolarizationConfig, perEpisode: number): RunPlan<PolarizationConfig> {
  const conditions = mechanismConditions(config);
  if (!conditions.length)
    return {
      episodes: 0,
      bytesPerEpisode: 0,
      models: [config.model],
      unavailable: 'The mechanism sweep has no condition: give a trait and a share, or an elite stance.',
    };
  return {
    episodes: conditions.length * config.mechanisms.seeds * config.epochs,
    chainLength: config.epochs,
    bytesPerEpisode: perEpisode,
    models: [config.model],
  };
}

export async function runMechanismEpisode(config: PolarizationConfig, ctx: EpisodeContext<PolarizationRecord>): Promise<Episode<PolarizationRecord>> {
  const { condition, s, epoch } = mechanismSlot(config, ctx.index);
  const cell = conditionConfig(config, condition, s);
  const label = `${condition.label}, seed ${cell.seed}`;
  const ep = await runLlmEpoch(cell, {
    ...ctx,
    index: epoch,
    rng: episodeRng(cell.seed, epoch),
    progress: (f, note) => ctx.progress(f, note ? `${label}: ${note}` : label),
  });
  return { ...ep, index: ctx.index };
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const se = (xs: readonly number[]) => (xs.length > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean(xs)) ** 2, 0) / (xs.length - 1) / xs.length) : NaN);

/** Per condition: each run's mean P and H over the epochs ≥ readFrom (its last epoch when shorter), then mean ± SE. */
export function summarizeMechanisms(config: PolarizationConfig, episodes: readonly Episode<PolarizationRecord>[]): MechanismsResult {
  const runs = new Map<string, EpochRow[]>();
  for (const e of episodes) {
    const { condition, s } = mechanismSlot(config, e.index);
    const key = `${condition.id}|${s}`;
    const rows = runs.get(key) ?? [];
    rows.push(...e.records.filter((r): r is EpochRow => r.kind === undefined));
    runs.set(key, rows);
  }
  const readFrom = Math.min(config.mechanisms.readFrom, config.epochs);
  const conditions = mechanismConditions(config).map((condition) => {
    const Ps: number[] = [];
    const Hs: number[] = [];
    for (let s = 0; s < config.mechanisms.seeds; s++) {
      const rows = (runs.get(`${condition.id}|${s}`) ?? []).filter((r) => r.epoch >= readFrom);
      // Only runs that reached the last epoch count: a partial run would mix earlier epochs into the mean.
      if (!rows.some((r) => r.epoch === config.epochs)) continue;
      Ps.push(mean(rows.map((r) => r.P)));
      Hs.push(mean(rows.map((r) => r.H)));
    }
    return { condition, runs: Ps.length, P: Ps.length ? mean(Ps) : NaN, Pse: se(Ps), H: Hs.length ? mean(Hs) : NaN, Hse: se(Hs) };
  });
  return { readFrom, conditions };
}
