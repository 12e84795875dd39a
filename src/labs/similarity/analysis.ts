import { GpuGram } from '../../gpu/gram';
import { ckaSteps, gramStatsBytes, pairDots, type AllDots, type CkaGrid, type GramStats } from '../../core/cka';
import { crossDotsAllWith, type AnalysisContext } from '../../core/grid-tasks';
import { runStepsAsync } from '../../core/steps';
import type { LayerStack } from '../../core/layer-stack';
import type { Episode } from '../../core/runs/types';
import type { SimilarityConfig } from './config';
import { summarizeGames } from './games-analysis';
import { summarizeNovelty } from './novelty-analysis';
import type { SimilarityAnalysis } from './results';
import type { RegressionOptions } from './regression';
import { findModel } from '../../../models/registry';
import type { PairGrid, ProbeRecord, SimilarityPair } from './pairs';
import type { SimilarityRecord } from './records';

export type { PairGrid, ProbeRecord, SimilarityPair };

/** The tensor of one model's probe states, [m, L+1, H] (row 0 = embeddings). */
export const PROBE_STATES = 'probe_states';

/** The analysis result: inferred from its schema (results.ts), which the stored result parses with. */
export type { SimilarityAnalysis };

/**
 * The config's covariates, with sizes and families from the model registry (unknown for folders and unknown ids), and
 * tokenizers from the run's probe records (unknown in runs stored before they were kept).
 */
export function regressionOptions(config: SimilarityConfig, models: readonly { model: string; tokenizer?: string }[] = []): RegressionOptions {
  const tokenizers = new Map(models.flatMap((m) => (m.tokenizer ? [[m.model, m.tokenizer] as const] : [])));
  return {
    covariates: config.regression.covariates,
    abilities: config.regression.abilities,
    modelInfo: (id) => {
      const e = findModel(id);
      return { params: e?.params ?? null, family: e && e.family !== 'unknown' ? e.family : null, tokenizer: tokenizers.get(id) ?? null };
    },
  };
}

/** Decoder layers only: the method compares layers 1..L, not the embeddings. */
export function decoderStack(episode: Episode): LayerStack {
  const t = episode.tensors[PROBE_STATES];
  if (!t) throw new Error(`episode ${episode.index} holds no probe states`);
  const [m, L1, H] = t.shape;
  const src = t.data as Float32Array;
  const out = new Float32Array(m * (L1 - 1) * H);
  for (let i = 0; i < m; i++) out.set(src.subarray((i * L1 + 1) * H, (i + 1) * L1 * H), i * (L1 - 1) * H);
  return { data: out, n: m, L: L1 - 1, H };
}

/** A probe episode's record; one without it cannot be compared (its model would be unknown). */
function probeRecord(e: Episode<SimilarityRecord>): ProbeRecord {
  const r = e.records.find((x) => x.kind === 'probes');
  if (!r) throw new Error(`episode ${e.index} holds probe states but no probes record`);
  return r;
}

function toPairGrid(g: CkaGrid): PairGrid {
  const { grid, p, ...pooled } = g;
  return { ...pooled, grid: Array.from(grid), ...(p ? { p: { ...p, grid: Array.from(p.grid) } } : {}) };
}

/**
 * The most memory the per-model Gram cache may take (the statistics of every layer of every model), unless the
 * context gives a budget (the page gives one from the device's memory: workers/compute.worker.ts).
 */
const GRAM_CACHE_BYTES = 256 * 2 ** 20;

/**
 * CKA for every pair of the run's models. Each model's Gram statistics (the expensive part: one m × m product per
 * layer) go to the executor, one layer per task; each pair's dot products then run here, a layer per step.
 */
export async function analyzeSimilarity(
  config: SimilarityConfig,
  episodes: readonly Episode<SimilarityRecord>[],
  ctx: AnalysisContext,
): Promise<SimilarityAnalysis> {
  const eps = episodes.filter((e) => e.tensors[PROBE_STATES]).sort((a, b) => a.index - b.index);
  const records = eps.map(probeRecord);
  const warnings: string[] = [];
  if (eps.length < new Set(config.models).size) warnings.push(`Only ${eps.length} of ${new Set(config.models).size} models have been encoded so far.`);
  const m = records[0]?.m ?? 0;
  const pairs: SimilarityPair[] = [];
  const jobs: Array<[number, number]> = [];
  for (let i = 0; i < eps.length; i++) for (let j = i; j < eps.length; j++) jobs.push([i, j]);
  const stacks = new Map<number, LayerStack>();
  const stackOf = (i: number) => stacks.get(i) ?? stacks.set(i, decoderStack(eps[i])).get(i)!;
  // Each model's Gram statistics are built once, on the executor (a pool shares out the layers), and reused for all
  // its pairs (its self-pair included), when every model's fit in GRAM_CACHE_BYTES; otherwise each pair streams its
  // own in this thread, one layer at a time, as one pair alone does (memory stays at one model's triangles). The
  // numbers are the same either way, to the last bit.
  const cacheBytes = records.reduce((b, r) => b + gramStatsBytes(m, r.numLayers), 0);
  const progress = (f: number) => ctx.onProgress?.(Math.round(1000 * f), 1000);
  // The Gram products run on the GPU when the config asks for it and there is one (float32: within 1e-5 of float64).
  const opened = config.cka.engine === 'gpu' && eps.length ? await GpuGram.open() : null;
  if (opened && 'why' in opened) warnings.push(`CKA ran on the CPU (float64) instead of the GPU: ${opened.why}.`);
  const gpu = opened && 'kernel' in opened ? opened.kernel : null;
  const gramsOf = (i: number, onProgress?: (f: number) => void) => (gpu ?? ctx.grids).gramStats(stackOf(i), { signal: ctx.signal, onProgress });
  try {
    let shared: { grams: GramStats[]; all: AllDots } | null = null;
    if (cacheBytes <= (ctx.memoryBudgetBytes ?? GRAM_CACHE_BYTES)) {
      // Progress: every model's Gram statistics the first half, the dot products of all their layers the next 30 %.
      const done = eps.map(() => 0);
      const grams = await Promise.all(
        eps.map((_, i) =>
          gramsOf(i, (f) => {
            done[i] = f;
            progress((0.5 * done.reduce((a, b) => a + b, 0)) / eps.length);
          }),
        ),
      );
      // The dot products of all layer pairs of all models are one product (crossDotsAll: the same bits as each
      // pair's own, in a fraction of the time when there are several models).
      shared = { grams, all: await crossDotsAllWith(ctx.grids, grams, { signal: ctx.signal, onProgress: (f) => progress(0.5 + 0.3 * f) }) };
    }
    const from = shared ? 0.8 : 0;
    for (let k = 0; k < jobs.length; k++) {
      const [i, j] = jobs[k];
      // Without the cache, a GPU still builds each pair's statistics (two models' at a time); the CPU path builds
      // them inside ckaSteps, a layer at a time.
      const given = shared ? [shared.grams[i], shared.grams[j]] : gpu ? [await gramsOf(i), await gramsOf(j)] : null;
      const r = await runStepsAsync(
        ckaSteps(stackOf(i), stackOf(j), {
          permutations: config.cka.permutations,
          seed: `${config.seed}/cka/${i}/${j}`,
          ...(given ? { gramsX: given[0], gramsY: given[1] } : {}),
          ...(shared ? { dots: pairDots(shared.all, i, stackOf(i).L, j, stackOf(j).L) } : {}),
        }),
        { signal: ctx.signal, onProgress: (d, t) => progress(from + ((1 - from) * (k + d / t)) / jobs.length) },
      );
      pairs.push({ a: records[i].model, b: records[j].model, La: r.L1, Lb: r.L2, linear: toPairGrid(r.linear), debiased: toPairGrid(r.debiased) });
    }
  } finally {
    gpu?.destroy();
  }
  if (m > 0 && m < 20) warnings.push(`Only ${m} probes: CKA from so few samples is noisy and biased upward (debiased HSIC helps); the method used 1000.`);
  return {
    m,
    decoding: config.decoding,
    probeSet: records[0]?.probeSet ?? config.probes.set,
    permutations: config.cka.permutations,
    models: records.map(({ model, backend, dtype, numLayers, hiddenSize, seconds, tokenizer }) => ({
      model,
      backend,
      dtype,
      numLayers,
      hiddenSize,
      seconds,
      ...(tokenizer ? { tokenizer } : {}),
    })),
    pairs,
    games: summarizeGames(episodes, pairs, config.cka.debiased ? 'debiased' : 'linear', regressionOptions(config, records)),
    novelty: summarizeNovelty(episodes, pairs, config.cka.debiased ? 'debiased' : 'linear', regressionOptions(config, records)),
    warnings,
    ckaEngine: gpu ? 'gpu' : 'cpu',
  };
}
