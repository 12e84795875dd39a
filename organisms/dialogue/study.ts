/**
 * The dialogue organism end to end: the Synchrony lab's own run (prompts, runner, records, analysis) on a model,
 * then the quality targets on its turns and judge records, and the planted contrasts (real against the
 * passive reader and the lags). Used by the bench (bench/suites/organisms.ts) and the runtime test.
 */
import { validateConfig } from '../../src/core/config';
import { runHeadless } from '../../src/core/runs/headless';
import { synchronyLab } from '../../src/labs/synchrony/config';
import { LAB_MODULE_BY_NAME } from '../../src/labs/registry';
import { librarySource } from '../../src/labs/synchrony/scenarios/source';
import type { SynchronyConfig } from '../../src/labs/synchrony/queue';
import type { JudgeRecord, EpisodeMetaRecord, TurnRecord } from '../../src/labs/synchrony/types';
import { syncContrasts, type SyncContrast } from '../../src/labs/synchrony/planted';
import type { LabelDecoding } from '../../src/labs/synchrony/label-decoding';
import type { RunnerModels } from '../../src/core/runs/models';
import { dialogueQuality, type QualityResult, type ScoredEpisode } from './measure';
import { resultOf } from '../../src/core/runs/results';
import { synchronyResults } from '../../src/labs/synchrony/results';

export interface StudySetup {
  model: string;
  /** Run this config as it is (a lab preset's, say) instead of the one the fields below describe; its seed stays. */
  config?: SynchronyConfig;
  seed: number;
  /** Scenario ids of the lab's library (empty: the lab's default three). */
  scenarios: string[];
  pairingsPerScenario: number;
  episodeSeeds: number[];
}

export interface StudyResult {
  setup: StudySetup;
  episodes: number;
  quality: QualityResult;
  real: { syncR2: number; se: number } | null;
  contrasts: SyncContrast[];
  /** The emotion and action probes, when the run asked for the hidden line. */
  decoding: LabelDecoding | null;
  seconds: number;
  /** The scored episodes, for a reader who wants to see the turns behind the rates. */
  scored: ScoredEpisode[];
}

export function studyConfig(s: StudySetup): SynchronyConfig {
  const v = validateConfig(synchronyLab, {
    seed: s.seed,
    pairs: [{ a: s.model, b: s.model }],
    scenarios: s.scenarios,
    pairingsPerScenario: s.pairingsPerScenario,
    episodeSeeds: s.episodeSeeds,
    bothOrders: true,
    controls: { passiveReader: true },
    judge: { enabled: true, model: s.model },
  });
  if (!v.ok) throw new Error(`study config: ${JSON.stringify(v.errors)}`);
  return v.value as SynchronyConfig;
}

const role = (r: 'A' | 'B'): 0 | 1 => (r === 'A' ? 0 : 1);

export async function runStudy(setup: StudySetup, models: RunnerModels): Promise<StudyResult> {
  const t0 = performance.now();
  const config = setup.config ?? studyConfig(setup);
  const bundle = await runHeadless(synchronyLab, LAB_MODULE_BY_NAME.synchrony.runner, config, { models });
  const scored: ScoredEpisode[] = bundle.episodes.map((e) => {
    const recs = e.records as unknown as Array<EpisodeMetaRecord | TurnRecord | JudgeRecord>;
    const meta = recs.find((r): r is EpisodeMetaRecord => r.kind === 'meta');
    if (!meta) throw new Error(`episode ${e.index} has no meta record`);
    const { episode } = librarySource.episode(config, meta.scenarioId, meta.pairing);
    const judges = recs.filter((r): r is JudgeRecord => r.kind === 'judge');
    const overall = (t: 'A' | 'B') => judges.find((j) => j.target === t && j.ok)?.overall ?? null;
    return {
      episode,
      turns: recs
        .filter((r): r is TurnRecord => r.kind === 'turn')
        .map((t) => ({ speaker: role(t.speaker), text: t.text, parsed: t.parsed, leaves: t.leaves })),
      judge: [overall('A'), overall('B')],
    };
  });
  const analysis = resultOf(synchronyResults, bundle.results, 'synchrony');
  const sync = analysis ? syncContrasts(analysis) : { real: null, contrasts: [] };
  return {
    setup,
    episodes: bundle.episodes.length,
    quality: dialogueQuality(scored),
    real: sync.real,
    contrasts: sync.contrasts,
    decoding: analysis?.decoding ?? null,
    seconds: (performance.now() - t0) / 1000,
    scored,
  };
}
