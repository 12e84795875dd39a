/**
 * The Synchrony lab's analysis of stored episodes (synchrony.md): lag-k samples A_t → B_{t+k} and B_t → A_{t+k},
 * grouped by scenario × pairing × model pair; ridge maps over all decoder-layer pairs; SyncR² ± SE per direction and
 * for the pair; and the controls (passive reader, lags, relationship levels). Pure: it runs in the compute worker.
 *
 * The ridge grids go to a GridExecutor (src/core/grid-tasks.ts): the page's and Node's worker pools share them out
 * over the cores, and the in-process executor runs them here, yielding between layers so that a worker answers its
 * heartbeat and a cancel. Progress is counted in grids: each direction is (α candidates × 3 folds + splits) grids.
 */
import { buildLagSamples, chooseAlphaWith, cvFolds, groupedSplit, syncR2With, type EpisodeRecord, type SyncResult } from '../../core/synchrony';
import { batchProgress, type AnalysisContext, type GridExecutor } from '../../core/grid-tasks';
import { GpuGram } from '../../gpu/gram';
import { gpuGridExecutor } from '../../gpu/ridge-grid';
import { isCancelledError } from '../../core/cancel';
import { runStepsAsync } from '../../core/steps';
import type { Episode } from '../../core/runs/types';
import type { SynchronyConfig } from './queue';
import { PASSIVE_TENSORS, STATE_TENSORS, type ConditionResult, type DirectionResult, type SynchronyAnalysis } from './types';
import type { EpisodeMetaRecord, JudgeRecord, Role, SynchronyRecord, TurnRecord } from './records';
import { decodeLabelsSteps, type LabelDecoding, type LabelledEpisode } from './label-decoding';

/** Below these, a SyncR² is shown with a warning that it is not to be trusted. */
export const TRUST = { samples: 50, groups: 5 };

interface Parsed {
  meta: EpisodeMetaRecord;
  turns: TurnRecord[];
  judges: JudgeRecord[];
  episode: Episode<SynchronyRecord>;
}

export function parseEpisode(e: Episode<SynchronyRecord>): Parsed | null {
  const meta = e.records.find((r) => r.kind === 'meta');
  if (!meta) return null;
  return {
    meta,
    turns: e.records.filter((r) => r.kind === 'turn'),
    judges: e.records.filter((r) => r.kind === 'judge'),
    episode: e,
  };
}

/** Row `i` of a [n, L+1, H] tensor without the embeddings row: the decoder layers' [L, H]. */
function decoderRows(data: ArrayLike<number>, shape: readonly number[], i: number): Float32Array {
  const [, L1, H] = shape;
  const start = i * L1 * H + H;
  return Float32Array.from({ length: (L1 - 1) * H }, (_, k) => data[start + k]);
}

interface Dims {
  LA: number;
  HA: number;
  LB: number;
  HB: number;
}

function dimsOf(p: Parsed): Dims | null {
  const a = p.episode.tensors[STATE_TENSORS.A];
  const b = p.episode.tensors[STATE_TENSORS.B];
  if (!a || !b || a.shape.length !== 3 || b.shape.length !== 3) return null;
  return { LA: a.shape[1] - 1, HA: a.shape[2], LB: b.shape[1] - 1, HB: b.shape[2] };
}

/**
 * The utterances of one episode in speaking order, as the core's EpisodeRecord (speaker and [L, H] state). With
 * `passive`, that role's states are its passive-reader re-encodings; null when they were not recorded.
 */
function toRecord(p: Parsed, passive?: Role): EpisodeRecord | null {
  const seen = { A: 0, B: 0 };
  const utterances: EpisodeRecord['utterances'] = [];
  for (const t of p.turns) {
    const name = passive === t.speaker ? PASSIVE_TENSORS[t.speaker] : STATE_TENSORS[t.speaker];
    const tensor = p.episode.tensors[name];
    if (!tensor || tensor.shape[0] <= seen[t.speaker]) return null;
    utterances.push({ speaker: t.speaker, state: decoderRows(tensor.data as ArrayLike<number>, tensor.shape, seen[t.speaker]++) });
  }
  return { group: p.meta.group, utterances };
}

function direction(r: SyncResult, n: number, groups: number): DirectionResult {
  return { grid: [...r.r2], LA: r.LA, LB: r.LB, best: [...r.best], bestR2: [...r.bestR2], syncR2: r.syncR2, se: r.se, alpha: r.alpha, n, groups };
}

/** The fewest samples on either side (train or test) of any of these masks. */
function smallestSide(masks: Uint8Array[]): number {
  return Math.min(
    ...masks.map((m) => {
      const test = m.reduce((a, v) => a + v, 0);
      return Math.min(test, m.length - test);
    }),
  );
}

type Report = (fraction: number) => void;

const CV_FOLDS = 3;

async function oneDirection(
  records: EpisodeRecord[],
  dims: Dims,
  k: number,
  from: Role,
  config: SynchronyConfig,
  warnings: string[],
  ctx: AnalysisContext,
  report: Report,
): Promise<DirectionResult | null> {
  const d = from === 'A' ? dims : { LA: dims.LB, HA: dims.HB, LB: dims.LA, HB: dims.HA };
  const samples = buildLagSamples(records, d, k, from);
  const groups = new Set(samples.group).size;
  const label = from === 'A' ? 'A→B' : 'B→A';
  if (groups < 2) {
    warnings.push(`${label}: ${samples.source.n} samples in ${groups} episode group${groups === 1 ? '' : 's'}; a grouped split needs at least 2.`);
    return null;
  }
  const splits = config.analysis.splitSeeds.map((seed) => groupedSplit(samples.group, config.analysis.testFraction, seed));
  if (smallestSide(splits) < 2) {
    warnings.push(`${label}: ${samples.source.n} samples in ${groups} groups leave a split with fewer than 2 training or test samples.`);
    return null;
  }
  const { alphaGrid, alphaMode, testFraction } = config.analysis;
  const folds = cvFolds(samples.group, CV_FOLDS, testFraction);
  const searching = alphaMode === 'cv' && alphaGrid.length > 1 && smallestSide(folds) >= 2;
  // progress in grids: the α search's (candidates × folds), then the scored splits
  const cvShare = searching ? (alphaGrid.length * CV_FOLDS) / (alphaGrid.length * CV_FOLDS + splits.length) : 0;
  let r: SyncResult;
  try {
    // cv: every condition and direction gets its own α from the same grid and the same grouped folds, so that no
    // condition is favoured; the folds reuse the samples that the splits then score (a mild, shared optimism).
    let alpha = alphaMode === 'cv' ? alphaGrid[0] : config.analysis.alpha;
    if (searching) {
      const cv = await chooseAlphaWith(ctx.grids, samples.source, samples.target, samples.group, alphaGrid, {
        folds: CV_FOLDS,
        testFraction,
        signal: ctx.signal,
        onProgress: (f) => report(cvShare * f),
      });
      alpha = cv.alpha;
    } else if (alphaMode === 'cv' && alphaGrid.length > 1) {
      alpha = config.analysis.alpha;
      warnings.push(`${label}: too few samples to cross-validate α, so the fixed α = ${alpha} was used.`);
    }
    r = await syncR2With(ctx.grids, samples.source, samples.target, samples.group, {
      alpha,
      splits,
      signal: ctx.signal,
      onProgress: (f) => report(cvShare + (1 - cvShare) * f),
    });
  } catch (e) {
    if (isCancelledError(e) || ctx.signal?.aborted) throw e;
    // A summary must never lose a run: a map that cannot be computed becomes a warning, not an exception.
    warnings.push(`${label}: ${(e as Error).message}`);
    return null;
  }
  if (samples.source.n < TRUST.samples || groups < TRUST.groups) {
    warnings.push(
      `${label}: only ${samples.source.n} samples in ${groups} groups; treat this SyncR² as a rough sketch (aim for ≥ ${TRUST.samples} samples in ≥ ${TRUST.groups} groups).`,
    );
  }
  return direction(r, samples.source.n, groups);
}

/** One condition: both directions at once, so that a worker pool has all their grids to share out. */
async function condition(plan: ConditionPlan, dims: Dims, config: SynchronyConfig, ctx: AnalysisContext, report: Report): Promise<ConditionResult> {
  const { id, label, episodes: parsed, k, passive = false } = plan;
  const warnings: string[] = [];
  const recs = (role?: Role) => parsed.map((p) => toRecord(p, role)).filter((r): r is EpisodeRecord => r !== null);
  const srcA = recs(passive ? 'A' : undefined);
  const srcB = recs(passive ? 'B' : undefined);
  if (passive && srcA.length < parsed.length)
    warnings.push(`${parsed.length - srcA.length} episodes have no passive-reader states (the control was off when they ran).`);
  const part = batchProgress(2, report);
  // Each direction writes its own warnings, joined in A, B order, so that the text does not depend on which ends first.
  const wA: string[] = [];
  const wB: string[] = [];
  const [ab, ba] = await Promise.all([
    srcA.length ? oneDirection(srcA, dims, k, 'A', config, wA, ctx, (f) => part(0, f)) : null,
    srcB.length ? oneDirection(srcB, dims, k, 'B', config, wB, ctx, (f) => part(1, f)) : null,
  ]);
  warnings.push(...wA, ...wB);
  const both = ab && ba;
  const syncR2 = both ? 0.5 * (ab.syncR2 + ba.syncR2) : ((ab ?? ba)?.syncR2 ?? null);
  const se = both ? 0.5 * Math.sqrt(ab.se ** 2 + ba.se ** 2) : ((ab ?? ba)?.se ?? null);
  return { condition: id, label, ab, ba, syncR2, se, n: (ab?.n ?? 0) + (ba?.n ?? 0), warnings };
}

const pairName = (m: EpisodeMetaRecord) => `${m.modelA} × ${m.modelB}`;

interface ConditionPlan {
  id: string;
  label: string;
  episodes: Parsed[];
  k: number;
  passive?: boolean;
}

function conditionPlans(config: SynchronyConfig, usable: Parsed[]): ConditionPlan[] {
  const plans: ConditionPlan[] = [{ id: 'real', label: 'Real (k = 1)', episodes: usable, k: 1 }];
  if (config.controls.passiveReader || usable.some((p) => p.episode.tensors[PASSIVE_TENSORS.A]))
    plans.push({ id: 'passive', label: 'Passive reader', episodes: usable, k: 1, passive: true });
  for (const k of config.analysis.lags) if (k > 1 && k % 2 === 1) plans.push({ id: `lag${k}`, label: `Lag k = ${k}`, episodes: usable, k });
  if (config.controls.byRelationship) {
    const levels = [...new Set(usable.map((p) => p.meta.relationship))].sort((a, b) => a - b);
    for (const level of levels)
      plans.push({ id: `rel${level}`, label: `Relationship ${level}`, episodes: usable.filter((p) => p.meta.relationship === level), k: 1 });
  }
  return plans;
}

/** The episodes whose states have the shape of the first episode that has states, and that shape. */
function sameShape(parsed: Parsed[]): { dims: Dims; usable: Parsed[] } | null {
  const dims = parsed.map(dimsOf).find((d) => d !== null);
  if (!dims) return null;
  const usable = parsed.filter((p) => {
    const d = dimsOf(p);
    return d && d.LA === dims.LA && d.HA === dims.HA && d.LB === dims.LB && d.HB === dims.HB;
  });
  return { dims, usable };
}

/** Every condition for one model pair's episodes, one condition at a time (each holds its lag samples in memory). */
async function analyzePair(config: SynchronyConfig, parsed: Parsed[], ctx: AnalysisContext, report: Report): Promise<ConditionResult[]> {
  const shaped = sameShape(parsed);
  if (!shaped) return [];
  const { dims, usable } = shaped;
  const plans = conditionPlans(config, usable);
  const out: ConditionResult[] = [];
  for (const plan of plans) out.push(await condition(plan, dims, config, ctx, (f) => report((out.length + f) / plans.length)));
  return out;
}

/**
 * The whole analysis of one model pair's episodes (the first pair unless `pairIndex` names one), and the real
 * condition of every other pair for the performance plot. Progress is reported as {done, total = 1000}.
 */
export async function analyzeSynchrony(
  config: SynchronyConfig,
  episodes: readonly Episode<SynchronyRecord>[],
  pairIndex: number | undefined,
  ctx: AnalysisContext,
): Promise<SynchronyAnalysis> {
  const gpu = config.analysis.engine === 'gpu' ? await gpuExecutor(ctx.grids) : null;
  try {
    const result = await analyzeOn(config, episodes, pairIndex, gpu && 'executor' in gpu ? { ...ctx, grids: gpu.executor } : ctx);
    return { ...result, engine: gpu && 'executor' in gpu ? 'gpu' : 'cpu', ...(gpu && 'note' in gpu ? { engineNote: gpu.note } : {}) };
  } finally {
    if (gpu && 'executor' in gpu) gpu.kernel.destroy();
  }
}

/** The GPU grid executor over `cpu`, or why there is none (the analysis then runs on `cpu`). */
async function gpuExecutor(cpu: GridExecutor): Promise<{ executor: GridExecutor; kernel: GpuGram } | { note: string }> {
  const opened = await GpuGram.open();
  if ('why' in opened) return { note: `The ridge grids ran on the CPU (float64) instead of the GPU: ${opened.why}.` };
  return { executor: gpuGridExecutor(cpu, opened.kernel), kernel: opened.kernel };
}

async function analyzeOn(
  config: SynchronyConfig,
  episodes: readonly Episode<SynchronyRecord>[],
  pairIndex: number | undefined,
  ctx: AnalysisContext,
): Promise<SynchronyAnalysis> {
  const TOTAL = 1000;
  let shown = 0;
  const report: Report = (f) => {
    const done = Math.round(TOTAL * Math.min(1, f));
    if (done > shown) ctx.onProgress?.((shown = done), TOTAL);
  };
  const parsed = episodes.map(parseEpisode).filter((p): p is Parsed => p !== null);
  const byPair = new Map<number, Parsed[]>();
  for (const p of parsed) byPair.set(p.meta.pairIndex, [...(byPair.get(p.meta.pairIndex) ?? []), p]);
  const chosen = pairIndex ?? [...byPair.keys()].sort((a, b) => a - b)[0] ?? 0;
  const mine = byPair.get(chosen) ?? [];
  const others = [...byPair.keys()].filter((k) => k !== chosen).length;
  const share = 1 / (1 + others);
  const conditions = await analyzePair(config, mine, ctx, (f) => report(share * f));
  const performance: SynchronyAnalysis['performance'] = [];
  let otherDone = 0;
  for (const [index, list] of [...byPair.entries()].sort((a, b) => a[0] - b[0])) {
    const scores = list.flatMap((p) => p.judges.filter((j) => j.ok && j.overall !== undefined).map((j) => j.overall!));
    if (!scores.length) continue;
    const realOnly = { ...config, controls: { ...config.controls, passiveReader: false, byRelationship: false }, analysis: { ...config.analysis, lags: [1] } };
    const from = share * (1 + otherDone++);
    const real =
      index === chosen ? conditions.find((c) => c.condition === 'real') : (await analyzePair(realOnly, list, ctx, (f) => report(from + share * f)))[0];
    performance.push({
      pair: pairName(list[0].meta),
      modelA: list[0].meta.modelA,
      modelB: list[0].meta.modelB,
      overall: scores.reduce((a, b) => a + b, 0) / scores.length,
      episodes: list.length,
      syncR2: real?.syncR2 ?? null,
    });
  }
  const turns = parsed.flatMap((p) => p.turns);
  const decoding = config.emotions.enabled || mine.some((p) => p.turns.some((t) => t.emotion || t.action)) ? await decodePair(config, mine, ctx) : null;
  return {
    pair: mine[0] ? pairName(mine[0].meta) : '',
    alphaMode: config.analysis.alphaMode,
    alpha: config.analysis.alpha,
    splitSeeds: config.analysis.splitSeeds,
    episodes: mine.length,
    conditions,
    performance,
    parse: { turns: turns.length, failed: turns.filter((t) => !t.parsed).length },
    ...(config.judge.enabled ? { judgeDecoding: config.judge.decoding } : {}),
    ...(decoding ? { decoding } : {}),
  };
}

/** The emotion and action probes of one pair's episodes (label-decoding.ts), in this thread, layer by layer. */
async function decodePair(config: SynchronyConfig, parsed: Parsed[], ctx: AnalysisContext): Promise<LabelDecoding | null> {
  const shaped = sameShape(parsed);
  if (!shaped) return null;
  const { dims, usable } = shaped;
  const labelled: LabelledEpisode[] = [];
  for (const p of usable) {
    const rec = toRecord(p);
    if (rec) labelled.push({ group: rec.group, utterances: rec.utterances.map((u, i) => ({ ...u, emotion: p.turns[i].emotion, action: p.turns[i].action })) });
  }
  const steps = decodeLabelsSteps(
    labelled,
    { A: { L: dims.LA, H: dims.HA }, B: { L: dims.LB, H: dims.HB } },
    { alpha: config.emotions.alpha, splitSeeds: config.analysis.splitSeeds, testFraction: config.analysis.testFraction },
  );
  return await runStepsAsync(asProgress(steps), { signal: ctx.signal });
}

function* asProgress<T>(steps: Generator<number, T>): Generator<{ done: number; total: number }, T> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    yield { done: r.value, total: 1 };
  }
}
