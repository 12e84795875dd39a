/**
 * SyncR² (synchrony.md): grouped splits, lag-k sample building, the ridge grid over split seeds, and the summary
 * (best target per source layer, clamp, average, SE over splits, top-k and unclamped variants).
 */
import { createRng } from './rng';
import { checkStack, type LayerStack } from './layer-stack';
import type { MomentCache } from './ridge';
import { gridTaskSteps, type BatchOptions, type GridExecutor } from './grid-tasks';
import { runSteps, type Progress } from './steps';

/**
 * The seed's grouped split: shuffle the distinct groups with the split seed, put whole groups into the test set
 * until it holds at least testFraction·n samples, and the rest into training. Returns a mask, 1 = test.
 */
export function groupedSplit(groups: ArrayLike<number>, testFraction: number, seed: number | string): Uint8Array {
  if (!(testFraction > 0 && testFraction < 1)) throw new Error(`split: test fraction must be in (0, 1) (got ${testFraction})`);
  const members = new Map<number, number[]>();
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i];
    let list = members.get(g);
    if (!list) members.set(g, (list = []));
    list.push(i);
  }
  const ids = [...members.keys()].sort((x, y) => x - y);
  if (ids.length < 2) throw new Error(`split: need at least 2 groups (got ${ids.length})`);
  createRng(seed).shuffle(ids);
  const mask = new Uint8Array(groups.length);
  const want = testFraction * groups.length;
  let nTest = 0;
  let nTestGroups = 0;
  for (const g of ids) {
    if (nTest >= want || nTestGroups === ids.length - 1) break;
    for (const i of members.get(g)!) mask[i] = 1;
    nTest += members.get(g)!.length;
    nTestGroups++;
  }
  return mask;
}

export interface Utterance {
  speaker: 'A' | 'B';
  /** Row-major [L, H]: every decoder layer's last-token state for this utterance's prompt. */
  state: Float32Array | Float64Array;
}

export interface EpisodeRecord {
  group: number;
  utterances: Utterance[];
}

export interface LagSamples {
  source: LayerStack;
  target: LayerStack;
  group: Int32Array;
}

/**
 * Pairs (speaker at t, other speaker at t+k) for an odd lag k, direction `from`→other, over all episodes.
 * Layer counts and widths come from the first matching utterance of each side and must agree everywhere.
 */
export function buildLagSamples(episodes: EpisodeRecord[], dims: { LA: number; HA: number; LB: number; HB: number }, k = 1, from: 'A' | 'B' = 'A'): LagSamples {
  if (!Number.isInteger(k) || k < 1 || k % 2 === 0) throw new Error(`lag must be a positive odd integer (got ${k})`);
  const { LA, HA, LB, HB } = dims;
  const pairs: Array<[Utterance, Utterance, number]> = [];
  for (const ep of episodes) {
    const u = ep.utterances;
    for (let t = 0; t + k < u.length; t++) {
      if (u[t].speaker !== from || u[t + k].speaker === from) continue;
      if (u[t].state.length !== LA * HA) throw new Error(`source state has ${u[t].state.length} values, expected ${LA}×${HA}`);
      if (u[t + k].state.length !== LB * HB) throw new Error(`target state has ${u[t + k].state.length} values, expected ${LB}×${HB}`);
      pairs.push([u[t], u[t + k], ep.group]);
    }
  }
  const n = pairs.length;
  const src = new Float32Array(n * LA * HA);
  const tgt = new Float32Array(n * LB * HB);
  const group = new Int32Array(n);
  pairs.forEach(([s, t, g], i) => {
    src.set(s.state, i * LA * HA);
    tgt.set(t.state, i * LB * HB);
    group[i] = g;
  });
  return { source: { data: src, n, L: LA, H: HA }, target: { data: tgt, n, L: LB, H: HB }, group };
}

export interface SyncSummary {
  /** Per source layer: the target layer with the highest split-mean R². */
  best: Int32Array;
  bestR2: Float64Array;
  /** Mean over source layers of max(0, best R²). */
  syncR2: number;
  /** Mean over source layers of the best R², not clamped. */
  syncR2Unclamped: number;
  /** Mean over source layers of max(0, mean of the k best targets); present when topK > 1 was asked. */
  syncR2TopK?: number;
  /** √(Σ_lA Var_split(R²(l_A, best))) / L_A, with the population variance over splits (numpy's default). */
  se: number;
}

export function summariseSync(r2PerSplit: Float64Array[], LA: number, LB: number, topK = 1): SyncSummary {
  const S = r2PerSplit.length;
  if (S < 1) throw new Error('sync: no splits');
  const mean = meanGrid(r2PerSplit, LA * LB);
  const best = new Int32Array(LA);
  const bestR2 = new Float64Array(LA);
  let clamped = 0;
  let raw = 0;
  let varSum = 0;
  let topSum = 0;
  const k = Math.max(1, Math.min(LB, Math.floor(topK)));
  for (let a = 0; a < LA; a++) {
    let arg = 0;
    for (let b = 1; b < LB; b++) if (mean[a * LB + b] > mean[a * LB + arg]) arg = b;
    best[a] = arg;
    const v = mean[a * LB + arg];
    bestR2[a] = v;
    clamped += Math.max(0, v);
    raw += v;
    let m = 0;
    for (const g of r2PerSplit) m += g[a * LB + arg];
    m /= S;
    let ss = 0;
    for (const g of r2PerSplit) ss += (g[a * LB + arg] - m) ** 2;
    varSum += ss / S;
    if (k > 1) {
      const row = Array.from(mean.subarray(a * LB, (a + 1) * LB)).sort((x, y) => y - x);
      let s = 0;
      for (let i = 0; i < k; i++) s += row[i];
      topSum += Math.max(0, s / k);
    }
  }
  const out: SyncSummary = { best, bestR2, syncR2: clamped / LA, syncR2Unclamped: raw / LA, se: Math.sqrt(varSum) / LA };
  if (k > 1) out.syncR2TopK = topSum / LA;
  return out;
}

export function meanGrid(grids: Float64Array[], size: number): Float64Array {
  const mean = new Float64Array(size);
  for (const g of grids) for (let i = 0; i < size; i++) mean[i] += g[i];
  for (let i = 0; i < size; i++) mean[i] /= grids.length;
  return mean;
}

export interface SyncOptions {
  alpha?: number;
  splitSeeds?: Array<number | string>;
  testFraction?: number;
  /** Explicit test mask (1 = test); replaces the random splits, and then only one split is used. */
  split?: Uint8Array;
  /** Several explicit test masks, one per split (for reproducing another tool's splits). */
  splits?: Uint8Array[];
  topK?: number;
  onProgress?: (done: number, total: number) => unknown;
  signal?: AbortSignal;
}

export interface SyncResult extends SyncSummary {
  LA: number;
  LB: number;
  alpha: number;
  /** L_A × L_B, row = source layer, mean over splits. */
  r2: Float64Array;
  r2PerSplit: Float64Array[];
  nTrain: number[];
  nTest: number[];
}

/** The test masks of a SyncR² computation: the explicit ones, or one grouped split per seed. */
export function syncMasks(group: ArrayLike<number>, opts: Pick<SyncOptions, 'split' | 'splits' | 'splitSeeds' | 'testFraction'> = {}): Uint8Array[] {
  return opts.split ? [opts.split] : (opts.splits ?? (opts.splitSeeds ?? [0, 1, 2]).map((s) => groupedSplit(group, opts.testFraction ?? 0.2, s)));
}

function checkSyncInputs(source: LayerStack, target: LayerStack, group: ArrayLike<number>): void {
  checkStack(source, 'source');
  checkStack(target, 'target');
  if (group.length !== source.n) throw new Error(`sync: ${group.length} group ids for ${source.n} samples`);
}

/** The SyncR² result from one grid per mask (in mask order). */
export function syncFromGrids(masks: Uint8Array[], grids: Float64Array[], LA: number, LB: number, alpha: number, topK = 1): SyncResult {
  const nTest = masks.map((m) => m.reduce((acc, v) => acc + (v ? 1 : 0), 0));
  const summary = summariseSync(grids, LA, LB, topK);
  return { ...summary, LA, LB, alpha, r2: meanGrid(grids, LA * LB), r2PerSplit: grids, nTrain: masks.map((m, i) => m.length - nTest[i]), nTest };
}

/** The whole SyncR² computation for one direction. */
export function syncR2(source: LayerStack, target: LayerStack, group: ArrayLike<number>, opts: SyncOptions = {}): SyncResult {
  return runSteps(syncR2Steps(source, target, group, opts), opts);
}

/**
 * syncR2 as a generator that yields after each layer of each split. Each split is one grid task (grid-tasks.ts),
 * computed exactly as a worker pool computes it, so both give the same bits.
 */
export function* syncR2Steps(source: LayerStack, target: LayerStack, group: ArrayLike<number>, opts: SyncOptions = {}): Generator<Progress, SyncResult> {
  checkSyncInputs(source, target, group);
  const alpha = opts.alpha ?? 0.1;
  const masks = syncMasks(group, opts);
  const cache: MomentCache = new Map();
  const grids: Float64Array[] = [];
  for (let s = 0; s < masks.length; s++) {
    const steps = gridTaskSteps({ source, target, mask: masks[s], alpha }, cache);
    for (;;) {
      const r = steps.next();
      if (r.done) {
        grids.push(r.value);
        break;
      }
      yield { done: s * r.value.total + r.value.done, total: masks.length * r.value.total };
    }
  }
  return syncFromGrids(masks, grids, source.L, target.L, alpha, opts.topK ?? 1);
}

/** syncR2 with its split grids run by `executor` (a worker pool, or in process), as one batch. */
export async function syncR2With(
  executor: GridExecutor,
  source: LayerStack,
  target: LayerStack,
  group: ArrayLike<number>,
  opts: Omit<SyncOptions, 'onProgress'> & BatchOptions = {},
): Promise<SyncResult> {
  checkSyncInputs(source, target, group);
  const alpha = opts.alpha ?? 0.1;
  const masks = syncMasks(group, opts);
  const grids = await executor.grids(
    masks.map((mask) => ({ source, target, mask, alpha })),
    opts,
  );
  return syncFromGrids(masks, grids, source.L, target.L, alpha, opts.topK ?? 1);
}

/** The grouped folds of the α search: seeds cv-0, cv-1, …. */
export function cvFolds(group: ArrayLike<number>, folds: number, testFraction = 0.2): Uint8Array[] {
  return Array.from({ length: folds }, (_, i) => groupedSplit(group, testFraction, `cv-${i}`));
}

/** The α with the best score; ties go to the smaller α. */
export function pickAlpha(alphas: readonly number[], scores: readonly number[]): number {
  let bi = 0;
  for (let i = 1; i < alphas.length; i++) if (scores[i] > scores[bi] || (scores[i] === scores[bi] && alphas[i] < alphas[bi])) bi = i;
  return alphas[bi];
}

/**
 * Chooses α by grouped cross-validation inside the given samples: for each α, the mean SyncR² (unclamped) over
 * `folds` grouped splits with seeds `cv-0`, `cv-1`, …; the best α wins (ties go to the smaller α).
 */
export function chooseAlphaGroupedCV(
  source: LayerStack,
  target: LayerStack,
  group: ArrayLike<number>,
  alphas: number[],
  opts: { folds?: number; testFraction?: number; signal?: AbortSignal } = {},
): { alpha: number; scores: number[] } {
  if (!alphas.length) throw new Error('alpha CV: no candidate alphas');
  const splits = cvFolds(group, opts.folds ?? 3, opts.testFraction);
  const scores = alphas.map((alpha) => syncR2(source, target, group, { alpha, splits, signal: opts.signal }).syncR2Unclamped);
  return { alpha: pickAlpha(alphas, scores), scores };
}

/** chooseAlphaGroupedCV with every (α, fold) grid in one batch for `executor`. */
export async function chooseAlphaWith(
  executor: GridExecutor,
  source: LayerStack,
  target: LayerStack,
  group: ArrayLike<number>,
  alphas: readonly number[],
  opts: { folds?: number; testFraction?: number } & BatchOptions = {},
): Promise<{ alpha: number; scores: number[] }> {
  if (!alphas.length) throw new Error('alpha CV: no candidate alphas');
  checkSyncInputs(source, target, group);
  const splits = cvFolds(group, opts.folds ?? 3, opts.testFraction);
  const grids = await executor.grids(
    alphas.flatMap((alpha) => splits.map((mask) => ({ source, target, mask, alpha }))),
    opts,
  );
  const scores = alphas.map(
    (alpha, i) => syncFromGrids(splits, grids.slice(i * splits.length, (i + 1) * splits.length), source.L, target.L, alpha).syncR2Unclamped,
  );
  return { alpha: pickAlpha(alphas, scores), scores };
}

export interface SyncBothResult {
  ab: SyncResult;
  ba: SyncResult;
  /** ½[SyncR²(A→B) + SyncR²(B→A)]. */
  syncR2: number;
  /** ½√(SE_AB² + SE_BA²): the two directions' SEs combined as if independent. */
  se: number;
}

/** Both directions of one interaction (samples from buildLagSamples with from = 'A' and from = 'B'). */
export function syncR2Both(ab: LagSamples, ba: LagSamples, opts: Omit<SyncOptions, 'split' | 'splits'> = {}): SyncBothResult {
  const r1 = syncR2(ab.source, ab.target, ab.group, opts);
  const r2 = syncR2(ba.source, ba.target, ba.group, opts);
  return { ab: r1, ba: r2, syncR2: 0.5 * (r1.syncR2 + r2.syncR2), se: 0.5 * Math.sqrt(r1.se ** 2 + r2.se ** 2) };
}
