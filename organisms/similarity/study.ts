/**
 * The Similarity population end to end: the Similarity lab's own run (CKA on its probe paragraphs, every ordered
 * pair playing word guessing, every pair writing stories together and alone) on the four variants, then the lab's
 * regressions of outcome on CKA against the planted signs. Used by the bench (bench/suites/organisms-similarity.ts),
 * the runtime test, and `npx tsx organisms/similarity/study.ts [--seed S]`.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runHeadless } from '../../src/core/runs/headless';
import { similarityLab, type SimilarityConfig } from '../../src/labs/similarity/config';
import { LAB_MODULE_BY_NAME } from '../../src/labs/registry';
import { comparePlanted, plantedSimilarity, type PlantedComparison } from '../../src/labs/similarity/planted';
import type { RunnerModels } from '../../src/core/runs/models';
import { createNodeRuntime } from '../../src/runtime/node';
import { asRunnerModel, RunnerModelSet } from '../../src/runtime/runner-models';
import { option } from '../args';
import { VARIANTS } from './law';
import { resultOf } from '../../src/core/runs/results';
import { similarityResults } from '../../src/labs/similarity/results';

export interface SimilarityStudy {
  seed: number;
  /** CKA (global, linear) of every pair of different variants. */
  pairs: { a: string; b: string; sameLexicon: boolean; cka: number }[];
  /** The lab's own comparison with the planted truth (src/labs/similarity/planted.ts). */
  comparison: PlantedComparison;
  seconds: number;
}

/** The study's config: the lab's schema defaults, the population, word guessing and stories. */
export function studyConfig(seed: number, overrides: Partial<SimilarityConfig> = {}): SimilarityConfig {
  return similarityLab.schema.parse({
    seed,
    models: VARIANTS.map((v) => v.id),
    probes: { set: 'builtin-paragraphs', count: 64 },
    games: ['wordGuessing'],
    wordRounds: 26,
    novelty: ['story'],
    noveltyRounds: 10,
    ...overrides,
  });
}

export async function runSimilarityStudy(config: SimilarityConfig, models: RunnerModels): Promise<SimilarityStudy> {
  const t0 = performance.now();
  const bundle = await runHeadless(similarityLab, LAB_MODULE_BY_NAME.similarity.runner, config, { models });
  const analysis = resultOf(similarityResults, bundle.results, 'similarity');
  if (!analysis) throw new Error('the run produced no similarity analysis');
  const planted = plantedSimilarity(config.models);
  if (!planted) throw new Error("the run's models are not the Similarity population");
  const lexicon = (id: string) => VARIANTS.find((v) => v.id === id)?.lexicon;
  return {
    seed: config.seed,
    pairs: analysis.pairs.filter((p) => p.a !== p.b).map((p) => ({ a: p.a, b: p.b, sameLexicon: lexicon(p.a) === lexicon(p.b), cka: p.linear.global })),
    comparison: comparePlanted(planted, analysis),
    seconds: (performance.now() - t0) / 1000,
  };
}

/** The four variants loaded on Node CPU fp32, as the runner's model set. */
export async function loadPopulation(): Promise<{ models: RunnerModelSet; dispose: () => Promise<void> }> {
  const models = new RunnerModelSet();
  const runtimes: ReturnType<typeof createNodeRuntime>[] = [];
  for (const v of VARIANTS) {
    const rt = createNodeRuntime();
    models.add(asRunnerModel(v.id, rt, await rt.load(v.id, { device: 'cpu', dtype: 'fp32' })));
    runtimes.push(rt);
  }
  return { models, dispose: async () => void (await Promise.all(runtimes.map((r) => r.dispose()))) };
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  const { models, dispose } = await loadPopulation();
  console.log(JSON.stringify(await runSimilarityStudy(studyConfig(Number(option('--seed', '1'))), models), null, 1));
  await dispose();
}
