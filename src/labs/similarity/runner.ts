import { requireModels } from '../../core/runs/models';
import { throwIfAborted } from '../../core/cancel';
import type { LabRunner } from '../../core/runs/runner';
import type { Episode } from '../../core/runs/types';
import { analyzeSimilarity, PROBE_STATES } from './analysis';
import { createInProcessExecutor } from '../../core/grid-tasks';
import type { ProbeRecord, SimilarityRecord } from './records';
import type { SimilaritySummary } from './results';
import type { SimilarityConfig } from './config';
import { selectProbes } from './probes';
import { playGame, type GameName } from './games';
import { playNovelty } from './novelty';
import type { NoveltyTask } from '../../core/prompts/similarity';

/** Each model once, in the order the config names them. */
export const similarityModels = (config: SimilarityConfig): string[] => [...new Set(config.models)];

/** The models to load: the compared ones, and the judge when games may need it. */
const modelsToLoad = (config: SimilarityConfig): string[] => [
  ...new Set([...similarityModels(config), ...(config.judge.enabled && config.games.length ? [config.judge.model] : [])]),
];

export interface GameItem {
  game: GameName;
  a: string;
  b: string;
  repeat: number;
}

export interface NoveltyItem {
  task: NoveltyTask;
  a: string;
  b: string;
  repeat: number;
}

/** After the games: every novelty task × unordered pair of models (a model with itself too) × repeat. */
export function noveltyQueue(config: SimilarityConfig): NoveltyItem[] {
  const models = similarityModels(config);
  const out: NoveltyItem[] = [];
  for (const task of config.novelty)
    for (let i = 0; i < models.length; i++)
      for (let j = i; j < models.length; j++) for (let repeat = 0; repeat < config.repeats; repeat++) out.push({ task, a: models[i], b: models[j], repeat });
  return out;
}

/** After one probe episode per model: every game × ordered pair of models (a model with itself too) × repeat. */
export function gameQueue(config: SimilarityConfig): GameItem[] {
  const models = similarityModels(config);
  const out: GameItem[] = [];
  for (const game of config.games)
    for (const a of models) for (const b of models) for (let repeat = 0; repeat < config.repeats; repeat++) out.push({ game, a, b, repeat });
  return out;
}

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/**
 * The Similarity lab: CKA between the layers of the run's models, and cooperation games between them. The first
 * episodes encode the probe set, one model each (each probe as one user message in its chat template, no generation
 * prompt; the last token's residual stream at every layer); then one episode per game, ordered pair and repeat.
 * Then the novelty tasks, one episode per task, unordered pair and repeat. The summary compares every pair of models
 * and joins each game score and novelty measure with the pair's similarity.
 */
export const similarityRunner: LabRunner<SimilarityConfig, SimilarityRecord, SimilaritySummary> = {
  lab: 'similarity',
  plan(config) {
    const models = modelsToLoad(config);
    const { error } = selectProbes(config.probes.set, config.probes.count, config.seed, config.probes.custom);
    if (error) return { episodes: 0, bytesPerEpisode: 0, models, unavailable: error };
    // [m, L+1, H] float32 per model, sized for a 1B model (17 × 2048)
    return {
      episodes: similarityModels(config).length + gameQueue(config).length + noveltyQueue(config).length,
      bytesPerEpisode: config.probes.count * 17 * 2048 * 4 + 2_000,
      models,
    };
  },
  async runEpisode(config, ctx): Promise<Episode<SimilarityRecord>> {
    const models = requireModels('similarity', ctx.models);
    const ids = similarityModels(config);
    const games = gameQueue(config);
    if (ctx.index >= ids.length + games.length) {
      const item = noveltyQueue(config)[ctx.index - ids.length - games.length];
      if (!item) throw new Error(`episode ${ctx.index} is outside this run's queue`);
      const record = await playNovelty({
        ...item,
        a: models.get(item.a),
        b: models.get(item.b),
        rounds: config.noveltyRounds,
        temperature: config.temperature,
        seedKey: `${config.seed}/novelty/${ctx.index}`,
        signal: ctx.signal,
        progress: ctx.progress,
        ...(config.uniqueness.rule === 'embedding' ? { embeddingLayer: config.uniqueness.layer } : {}),
      });
      return { index: ctx.index, records: [record], tensors: {} };
    }
    if (ctx.index >= ids.length) {
      const item = games[ctx.index - ids.length];
      if (!item) throw new Error(`episode ${ctx.index} is outside this run's queue`);
      const { rounds, game } = await playGame({
        ...item,
        a: models.get(item.a),
        b: models.get(item.b),
        rounds: item.game === 'wordGuessing' ? config.wordRounds : config.rounds,
        temperature: config.temperature,
        judge: config.judge.enabled ? models.get(config.judge.model) : undefined,
        constrained: config.decoding === 'constrained',
        seedKey: `${config.seed}/game/${ctx.index}`,
        signal: ctx.signal,
        progress: ctx.progress,
      });
      return { index: ctx.index, records: [game, ...rounds], tensors: {} };
    }
    const id = ids[ctx.index];
    const { probes, error } = selectProbes(config.probes.set, config.probes.count, config.seed, config.probes.custom);
    if (error) throw new Error(error);
    const model = models.get(id);
    const t0 = now();
    const L1 = model.numLayers + 1;
    const H = model.hiddenSize;
    const data = new Float32Array(probes.length * L1 * H);
    const batch = config.probes.batchSize;
    for (let start = 0; start < probes.length; start += batch) {
      throwIfAborted(ctx.signal);
      const chunk = probes.slice(start, start + batch);
      ctx.progress(start / probes.length, `${id}: probes ${start + 1}–${start + chunk.length} of ${probes.length}`);
      const r = await model.encode(chunk, { chatTemplate: true, addGenerationPrompt: false, batchSize: batch });
      if (r.shape[0] !== chunk.length || r.shape[1] !== L1 || r.shape[2] !== H) {
        throw new Error(`${id} returned states of shape [${r.shape.join(', ')}], expected [${chunk.length}, ${L1}, ${H}].`);
      }
      data.set(r.data, start * L1 * H);
    }
    ctx.progress(1);
    const record: ProbeRecord = {
      kind: 'probes',
      model: id,
      backend: model.backend,
      dtype: model.dtype,
      m: probes.length,
      numLayers: model.numLayers,
      hiddenSize: H,
      probeSet: config.probes.set,
      seconds: (now() - t0) / 1000,
      ...(model.tokenizer ? { tokenizer: model.tokenizer } : {}),
    };
    return { index: ctx.index, records: [record], tensors: { [PROBE_STATES]: { dtype: 'F32', shape: [probes.length, L1, H], data } } };
  },
  async summarize(config, episodes, compute) {
    return [
      {
        name: 'similarity',
        value: await analyzeSimilarity(config, episodes, { grids: compute?.grids ?? createInProcessExecutor(), memoryBudgetBytes: compute?.memoryBudgetBytes }),
      },
    ];
  },
};
