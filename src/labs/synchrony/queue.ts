/**
 * The Synchrony run's queue: scenarios × persona pairings × model pairs × seeds × speaking orders, in a fixed order,
 * so that episode index i always means the same episode and a resumed run continues where it stopped.
 */
import type { SynchronyEpisode } from '../../core/prompts/synchrony';
import type { ConfigOf } from '../../core/config/lab-definition';
import type { synchronyLab } from './config';
import type { Role } from './types';

export type SynchronyConfig = ConfigOf<typeof synchronyLab>;

/** Where episodes come from: the bundled library merged with the config's own scenarios. */
export interface ScenarioSource {
  /** The scenario ids to run (the config's, or the library's defaults when it names none). */
  ids(config: SynchronyConfig): string[];
  /** How many persona pairings the scenario offers. */
  pairings(config: SynchronyConfig, scenarioId: string): number;
  episode(config: SynchronyConfig, scenarioId: string, pairing: number): { episode: SynchronyEpisode; title: string };
}

export interface QueueItem {
  scenarioId: string;
  pairing: number;
  pairIndex: number;
  modelA: string;
  modelB: string;
  seed: number;
  first: Role;
  /** Episode group: one per scenario × pairing × model pair (every seed and both orders pooled). */
  group: number;
}

export function buildQueue(config: SynchronyConfig, source: ScenarioSource): QueueItem[] {
  const items: QueueItem[] = [];
  let group = 0;
  for (const scenarioId of source.ids(config)) {
    const available = source.pairings(config, scenarioId);
    const pairings = Math.min(config.pairingsPerScenario, available);
    for (let pairing = 0; pairing < pairings; pairing++) {
      config.pairs.forEach((pair, pairIndex) => {
        for (const seed of config.episodeSeeds) {
          for (const first of config.bothOrders ? (['A', 'B'] as const) : (['A'] as const)) {
            items.push({ scenarioId, pairing, pairIndex, modelA: pair.a, modelB: pair.b, seed, first, group });
          }
        }
        group++;
      });
    }
  }
  return items;
}

/** Distinct model ids the queue needs: every pair's models, and the judge's when judging is on. */
export function modelsOf(config: SynchronyConfig): string[] {
  const ids = config.pairs.flatMap((p) => [p.a, p.b]);
  if (config.judge.enabled) ids.push(config.judge.model);
  return [...new Set(ids)];
}
