/**
 * Emotion and action decoding (synchrony.md, optional extension): every agent also wrote, on a line its partner never
 * saw, how it feels and what it does. A linear probe per decoder layer reads one agent's state before it speaks and
 * predicts its partner's labels: the one the partner showed before its last turn (previous), in its last turn
 * (current) and in its reply (next). Each probe is scored by the test KL divergence from the observed label, beside a
 * baseline that predicts the label frequencies (src/core/label-probe.ts), over the same grouped splits as SyncR².
 * Pure: it runs in the compute worker, one layer per step.
 */
import { labelProbeScore, PROBE_FLOOR } from '../../core/label-probe';
import type { LayerStack, MomentCache } from '../../core/ridge';
import { groupedSplit, type EpisodeRecord } from '../../core/synchrony';
import { ACTIONS, EMOTIONS } from '../../core/prompts/synchrony';
import type { Role } from './records';
import type { DecodingCurve, LabelDecoding, LabelKind, LabelTime } from './results';

/** The curves and the decoding are results: their types come from the result schemas (results.ts). */
export type { DecodingCurve, LabelDecoding, LabelKind, LabelTime };

/** Each label kind of the result schema, with its names (an extra or a missing kind does not compile). */
export const LABEL_KINDS = { emotion: EMOTIONS, action: ACTIONS } as const satisfies Record<LabelKind, readonly string[]>;

/** Which of the partner's turns a probe predicts, counted from the speaker's turn t (each time of the result schema). */
export const LABEL_TIMES = { previous: -3, current: -1, next: 1 } as const satisfies Record<LabelTime, number>;

/** One episode as the probes read it: each utterance's speaker, state and labels, in speaking order. */
export interface LabelledEpisode {
  group: number;
  utterances: (EpisodeRecord['utterances'][number] & { emotion?: string; action?: string })[];
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
/** Population SD, as the SyncR² SE takes it over split seeds. */
const sd = (xs: readonly number[]) => {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / xs.length);
};

interface Samples {
  states: ArrayLike<number>[];
  labels: number[];
  groups: number[];
}

function samplesFor(episodes: readonly LabelledEpisode[], from: Role, kind: LabelKind, time: LabelTime): Samples {
  const names: readonly string[] = LABEL_KINDS[kind];
  const out: Samples = { states: [], labels: [], groups: [] };
  for (const ep of episodes) {
    const u = ep.utterances;
    for (let t = 0; t < u.length; t++) {
      const target = u[t + LABEL_TIMES[time]];
      if (u[t].speaker !== from || !target || target.speaker === from) continue;
      const label = names.indexOf(target[kind] ?? '');
      if (label < 0) continue;
      out.states.push(u[t].state);
      out.labels.push(label);
      out.groups.push(ep.group);
    }
  }
  return out;
}

function* curve(
  episodes: readonly LabelledEpisode[],
  from: Role,
  kind: LabelKind,
  time: LabelTime,
  dims: { L: number; H: number },
  opts: { alpha: number; splitSeeds: readonly number[]; testFraction: number },
  warnings: string[],
): Generator<void, DecodingCurve | null> {
  const direction = from === 'A' ? 'A→B' : 'B→A';
  const s = samplesFor(episodes, from, kind, time);
  const groups = new Set(s.groups).size;
  const what = `${direction}, the partner's ${time} ${kind}`;
  if (groups < 2) {
    if (s.labels.length) warnings.push(`${what}: ${s.labels.length} samples in ${groups} episode group; a grouped split needs at least 2.`);
    return null;
  }
  const { L, H } = dims;
  const masks = opts.splitSeeds.map((seed) => groupedSplit(s.groups, opts.testFraction, seed));
  const K = LABEL_KINDS[kind].length;
  const n = s.labels.length;
  const probe: number[] = [];
  const probeSe: number[] = [];
  const gains: number[][] = [];
  let baselines: number[] = [];
  // The speaker's states as one [n, L, H] stack; the ridge operator's moment cache serves every split of a layer.
  const stack: LayerStack = { data: new Float64Array(n * L * H), n, L, H };
  s.states.forEach((st, i) => stack.data.set(st, i * L * H));
  const cache: MomentCache = new Map();
  try {
    for (let l = 0; l < L; l++) {
      const scores = masks.map((m) => labelProbeScore(stack, l, s.labels, K, m, opts.alpha, { cache }));
      probe.push(mean(scores.map((r) => r.probe)));
      probeSe.push(sd(scores.map((r) => r.probe)));
      gains.push(scores.map((r) => r.baseline - r.probe));
      baselines = scores.map((r) => r.baseline);
      yield;
    }
  } catch (e) {
    // A summary must never lose a run: a probe that cannot be fitted becomes a warning.
    warnings.push(`${what}: ${(e as Error).message}`);
    return null;
  }
  let best = 0;
  for (let l = 1; l < L; l++) if (probe[l] < probe[best]) best = l;
  return {
    direction,
    kind,
    time,
    n,
    groups,
    probe,
    probeSe,
    baseline: mean(baselines),
    baselineSe: sd(baselines),
    bestLayer: best + 1,
    gain: mean(gains[best]),
    gainSe: sd(gains[best]),
  };
}

/** Steps (one per probed layer) of the decoding of every direction, label kind and time; yields the fraction done. */
export function* decodeLabelsSteps(
  episodes: readonly LabelledEpisode[],
  dims: { A: { L: number; H: number }; B: { L: number; H: number } },
  opts: { alpha: number; splitSeeds: readonly number[]; testFraction: number },
): Generator<number, LabelDecoding> {
  const all = episodes.flatMap((e) => e.utterances);
  const labelled = { emotion: all.filter((u) => u.emotion).length, action: all.filter((u) => u.action).length };
  const warnings: string[] = [];
  if (all.length && !labelled.emotion && !labelled.action)
    warnings.push('No turn has a readable hidden line: the model did not write "Feeling: …; Action: …" after its reply.');
  const jobs = (['A', 'B'] as const).flatMap((from) =>
    (Object.keys(LABEL_KINDS) as LabelKind[]).flatMap((kind) => (Object.keys(LABEL_TIMES) as LabelTime[]).map((time) => ({ from, kind, time }))),
  );
  const total = jobs.reduce((a, j) => a + dims[j.from].L, 0);
  let done = 0;
  const curves: DecodingCurve[] = [];
  for (const j of jobs) {
    const steps = curve(episodes, j.from, j.kind, j.time, dims[j.from], opts, warnings);
    for (;;) {
      const r = steps.next();
      if (r.done) {
        if (r.value) curves.push(r.value);
        break;
      }
      yield ++done / total;
    }
  }
  return { alpha: opts.alpha, floor: PROBE_FLOOR, turns: all.length, labelled, curves, warnings };
}
