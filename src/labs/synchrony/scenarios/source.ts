/**
 * The runner's scenario source (`ScenarioSource` in ../queue.ts) over the bundled library merged with the config's
 * custom scenarios: `createSynchronyRunner(librarySource)`.
 */
import type { ScenarioSource } from '../queue';
import { episodeFor, getScenario, scenarioIdsFor, scenarioSetFor } from './index';

export const librarySource: ScenarioSource = {
  ids: (config) => scenarioIdsFor(config),
  pairings: (config, scenarioId) => getScenario(scenarioSetFor(config), scenarioId)?.pairings.length ?? 0,
  episode: (config, scenarioId, pairing) => {
    const set = scenarioSetFor(config);
    return { episode: episodeFor(set, scenarioId, pairing), title: getScenario(set, scenarioId)?.title ?? scenarioId };
  },
};
