/**
 * A fit study over observed trajectories (opinions.md "Fitting", "Baselines", "Score"): the 1-, 3- and 5-coupling
 * Glauber laws and the continuous ε form, fitted on all trajectories (coefficients, archetypes, correctness) and on
 * seeded train/test splits (in-distribution: random trajectories held out; out-of-distribution: held-out questions,
 * held-out graphs), each scored against Persistence, Interaction-Free, Mean-Field and Majority Class.
 *
 * It is a generator that yields between (and inside) fits, so the compute worker can report progress, answer its
 * heartbeat and honour a cancel. Everything it returns is plain data and typed arrays (structured-cloneable).
 */
import { createRng, type Rng } from '../rng';
import type { Progress } from '../steps';
import { episodeSteps, type Episode, type FieldMode } from './design';
import { fitGlauberSteps, type GlauberFit } from './fit';
import { fitInteractionFreeSteps, fitMajority, fitMeanFieldSteps, PERSISTENCE } from './baselines';
import { modelFromFit, rolloutStochastic, type DynamicsModel } from './models';
import { scoreOneStep, scoreRollout, type Accuracy } from './scores';
import type { AdamOptions } from './optimize';
import {
  conviction,
  correctness,
  groupArchetype,
  individualArchetypes,
  netOpinion,
  regimes,
  GROUP_ARCHETYPES,
  INDIVIDUAL_ARCHETYPES,
  type GroupArchetype,
  type IndividualArchetype,
  type Regime,
} from './archetypes';

export type StudyModelKind = 'one' | 'three' | 'five' | 'eps';
export const STUDY_MODEL_LABELS: Record<StudyModelKind, string> = {
  one: 'Glauber, 1 coupling',
  three: 'Glauber, 3 couplings',
  five: 'Glauber, 5 couplings',
  eps: 'Continuous ε form (3 couplings)',
};

export interface StudyItem {
  id: string;
  questionId: string;
  graphId: string;
  objective: boolean;
  episode: Episode;
  /** (T+1)·N vote means ō, row t = round t; regimes and conviction use them (spins when omitted). */
  voteMeans?: Float64Array;
}

export interface StudyOptions extends AdamOptions {
  seed: number | string;
  /** Share of trajectories / questions / graphs held out (at least one, never all). Default 0.25. */
  testFraction?: number;
  /** Default: 'features' when every trajectory carries the same number of features, else 'bias'. */
  field?: FieldMode;
  /** Default: one, three, eps, and five when every trajectory is objective. */
  models?: StudyModelKind[];
  /** Split band of the group archetypes. Default 0.2. */
  delta?: number;
  /** Stochastic rollouts per trajectory for the archetype and correctness distributions. Default 10. */
  rollouts?: number;
}

export type SplitName = 'in-distribution' | 'held-out questions' | 'held-out graphs';
export const SPLIT_NAMES: SplitName[] = ['in-distribution', 'held-out questions', 'held-out graphs'];

export interface StudyFit {
  kind: StudyModelKind;
  fit: GlauberFit;
}

export interface StudyScore {
  name: string;
  /** The Glauber kind, or null for a baseline. */
  kind: StudyModelKind | null;
  oneStep: Accuracy;
  rollout: Accuracy;
  /** Majority Class: raw accuracy only. */
  rawOnly: boolean;
}

export interface StudySplit {
  name: SplitName;
  distribution: 'in' | 'out';
  /** Ids of the trajectories in each part. */
  train: string[];
  test: string[];
  /** The held-out question or graph ids (out-of-distribution splits). */
  heldOut: string[];
  /** Why the split was not run (e.g. only one question), else absent. */
  skipped?: string;
  fits: StudyFit[];
  scores: StudyScore[];
}

export interface ArchetypeCounts {
  individual: Record<IndividualArchetype, number>;
  group: Record<GroupArchetype, number>;
}

export interface CorrectnessSummary {
  /** Fraction of groups whose majority is correct, per round. */
  majorityCorrect: number[];
  wrongToRight: number;
  rightToWrong: number;
}

export interface StudyResult {
  field: FieldMode;
  models: StudyModelKind[];
  seed: string;
  testFraction: number;
  summary: {
    trajectories: number;
    questions: number;
    graphs: number;
    objective: number;
    agents: [number, number];
    rounds: [number, number];
    transitions: number;
  };
  /** Every model fitted on all trajectories: the coefficients, and the law behind the rollouts below. */
  full: StudyFit[];
  splits: StudySplit[];
  archetypes: { rollouts: number; observed: ArchetypeCounts; rollout: Partial<Record<StudyModelKind, ArchetypeCounts>> };
  regimes: { counts: Record<Regime, number>; convictionThreshold: number; medianAbsNet: number; rows: { id: string; n: number; c: number; regime: Regime }[] };
  /** Objective trajectories only (absent when there are none); rollout counts are per rollout (averaged). */
  correctness?: { trajectories: number; observed: CorrectnessSummary; rollout: Partial<Record<StudyModelKind, CorrectnessSummary>> };
}

export interface StudyProgress extends Progress {
  note: string;
}

function defaultField(items: readonly StudyItem[]): FieldMode {
  const f = items[0]?.episode.featureCount ?? 0;
  return f > 0 && items.every((it) => it.episode.features && it.episode.featureCount === f) ? 'features' : 'bias';
}

export function studyModels(items: readonly StudyItem[], requested?: readonly StudyModelKind[]): StudyModelKind[] {
  const allObjective = items.length > 0 && items.every((it) => it.objective && (it.episode.yTrue === 1 || it.episode.yTrue === -1));
  const want = requested ?? ['one', 'three', 'five', 'eps'];
  return want.filter((k) => k !== 'five' || allObjective);
}

function shuffled<T>(xs: readonly T[], rng: Rng): T[] {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

function holdOutCount(total: number, fraction: number): number {
  return Math.min(total - 1, Math.max(1, Math.round(total * fraction)));
}

/** The seeded splits: trajectory indices of train and test, or why a split cannot be made. */
export function makeSplits(
  items: readonly StudyItem[],
  seed: number | string,
  testFraction = 0.25,
): { name: SplitName; train: number[]; test: number[]; heldOut: string[]; skipped?: string }[] {
  const idx = items.map((_, i) => i);
  const out: { name: SplitName; train: number[]; test: number[]; heldOut: string[]; skipped?: string }[] = [];
  if (items.length < 2) out.push({ name: 'in-distribution', train: idx, test: [], heldOut: [], skipped: 'needs at least two trajectories' });
  else {
    const order = shuffled(idx, createRng(`${seed}/split/trajectories`));
    const test = new Set(order.slice(0, holdOutCount(items.length, testFraction)));
    out.push({ name: 'in-distribution', train: idx.filter((i) => !test.has(i)), test: idx.filter((i) => test.has(i)), heldOut: [] });
  }
  for (const [name, key, what] of [
    ['held-out questions', 'questionId', 'questions'],
    ['held-out graphs', 'graphId', 'graphs'],
  ] as const) {
    const ids = [...new Set(items.map((it) => it[key]))].sort();
    if (ids.length < 2) {
      out.push({ name, train: idx, test: [], heldOut: [], skipped: `needs at least two ${what} (the data has ${ids.length})` });
      continue;
    }
    const held = new Set(shuffled(ids, createRng(`${seed}/split/${key}`)).slice(0, holdOutCount(ids.length, testFraction)));
    out.push({ name, train: idx.filter((i) => !held.has(items[i][key])), test: idx.filter((i) => held.has(items[i][key])), heldOut: [...held].sort() });
  }
  return out;
}

function emptyArchetypes(): ArchetypeCounts {
  return {
    individual: Object.fromEntries(INDIVIDUAL_ARCHETYPES.map((k) => [k, 0])) as Record<IndividualArchetype, number>,
    group: Object.fromEntries(GROUP_ARCHETYPES.map((k) => [k, 0])) as Record<GroupArchetype, number>,
  };
}

function addArchetypes(acc: ArchetypeCounts, states: ArrayLike<number>, n: number, delta: number) {
  const a = individualArchetypes(states, n).counts;
  for (const k of INDIVIDUAL_ARCHETYPES) acc.individual[k] += a[k];
  const net = netOpinion(states, n);
  acc.group[groupArchetype(net[0], net[net.length - 1], delta)]++;
}

function correctnessOf(groups: { states: ArrayLike<number>; n: number; yTrue: number }[], per = 1): CorrectnessSummary {
  const c = correctness(groups);
  return { majorityCorrect: Array.from(c.majorityCorrect), wrongToRight: c.wrongToRight / per, rightToWrong: c.rightToWrong / per };
}

/** Counts the fits a study will run (for progress). */
function fitCount(models: number, splits: number): number {
  // Full-data Glauber fits, then per split: the Glauber fits and two fitted baselines.
  return models + splits * (models + 2);
}

export function* fitStudySteps(items: readonly StudyItem[], opts: StudyOptions): Generator<StudyProgress, StudyResult> {
  if (!items.length) throw new Error('no trajectories to fit');
  const field = opts.field ?? defaultField(items);
  const models = studyModels(items, opts.models);
  if (!models.length) throw new Error('no model to fit (five couplings need every trajectory to be an objective question)');
  const testFraction = opts.testFraction ?? 0.25;
  const delta = opts.delta ?? 0.2;
  const R = Math.max(1, Math.floor(opts.rollouts ?? 10));
  const adamOpts: AdamOptions = {
    lr: opts.lr,
    beta1: opts.beta1,
    beta2: opts.beta2,
    maxSteps: opts.maxSteps,
    plateauEvery: opts.plateauEvery,
    tol: opts.tol,
    l2: opts.l2,
  };
  const splitSpecs = makeSplits(items, opts.seed, testFraction);
  const runnable = splitSpecs.filter((s) => !s.skipped);
  const total = fitCount(models.length, runnable.length) + 1;
  let done = 0;

  function* fitKind(kind: StudyModelKind, eps: readonly Episode[], where: string): Generator<StudyProgress, GlauberFit> {
    const note = `${STUDY_MODEL_LABELS[kind]} (${where})`;
    yield { done, total, note };
    const g = fitGlauberSteps(eps, { ...adamOpts, kind: kind === 'eps' ? 'three' : kind, link: kind === 'eps' ? 'eps' : 'logistic', field });
    for (;;) {
      const r = g.next();
      if (r.done) {
        done++;
        return r.value;
      }
      yield { done, total, note };
    }
  }
  function* fitBaseline(g: Generator<number, DynamicsModel>, note: string): Generator<StudyProgress, DynamicsModel> {
    yield { done, total, note };
    for (;;) {
      const r = g.next();
      if (r.done) {
        done++;
        return r.value;
      }
      yield { done, total, note };
    }
  }

  const all = items.map((it) => it.episode);
  const full: StudyFit[] = [];
  for (const kind of models) full.push({ kind, fit: yield* fitKind(kind, all, 'all trajectories') });

  const splits: StudySplit[] = [];
  for (const spec of splitSpecs) {
    const split: StudySplit = {
      name: spec.name,
      distribution: spec.name === 'in-distribution' ? 'in' : 'out',
      train: spec.train.map((i) => items[i].id),
      test: spec.test.map((i) => items[i].id),
      heldOut: spec.heldOut,
      fits: [],
      scores: [],
    };
    if (spec.skipped) split.skipped = spec.skipped;
    splits.push(split);
    if (spec.skipped) continue;
    const train = spec.train.map((i) => items[i].episode);
    const test = spec.test.map((i) => items[i].episode);
    const scored: [string, StudyModelKind | null, DynamicsModel, boolean][] = [];
    for (const kind of models) {
      const fit = yield* fitKind(kind, train, spec.name);
      split.fits.push({ kind, fit });
      scored.push([STUDY_MODEL_LABELS[kind], kind, modelFromFit(fit), false]);
    }
    scored.push(['Persistence', null, PERSISTENCE, false]);
    scored.push(['Interaction-Free', null, yield* fitBaseline(fitInteractionFreeSteps(train, field, adamOpts), `Interaction-Free (${spec.name})`), false]);
    scored.push(['Mean-Field', null, yield* fitBaseline(fitMeanFieldSteps(train, field, adamOpts), `Mean-Field (${spec.name})`), false]);
    scored.push(['Majority Class', null, fitMajority(train), true]);
    for (const [name, kind, model, rawOnly] of scored) {
      yield { done, total, note: `scoring (${spec.name})` };
      split.scores.push({ name, kind, rawOnly, oneStep: scoreOneStep(model, test), rollout: scoreRollout(model, test) });
    }
  }

  yield { done, total, note: 'stochastic rollouts' };
  const observed = emptyArchetypes();
  for (const it of items) addArchetypes(observed, it.episode.states, it.episode.graph.n, delta);
  const objective = items.filter((it) => it.objective && (it.episode.yTrue === 1 || it.episode.yTrue === -1));
  const isObjective = new Set(objective);
  const rollout: Partial<Record<StudyModelKind, ArchetypeCounts>> = {};
  const rolloutCorrect: Partial<Record<StudyModelKind, CorrectnessSummary>> = {};
  for (const { kind, fit } of full) {
    const rng = createRng(`${opts.seed}/rollouts/${kind}`);
    const model = modelFromFit(fit);
    const acc = emptyArchetypes();
    const groups: { states: Int8Array; n: number; yTrue: number }[] = [];
    for (const [k, it] of items.entries()) {
      if (k % 16 === 15) yield { done, total, note: 'stochastic rollouts' };
      for (let r = 0; r < R; r++) {
        const s = rolloutStochastic(model, it.episode, rng);
        addArchetypes(acc, s, it.episode.graph.n, delta);
        if (isObjective.has(it)) groups.push({ states: s, n: it.episode.graph.n, yTrue: it.episode.yTrue! });
      }
    }
    rollout[kind] = acc;
    if (objective.length) rolloutCorrect[kind] = correctnessOf(groups, R);
    yield { done, total, note: 'stochastic rollouts' };
  }

  const finals = items.map((it) => {
    const n = it.episode.graph.n;
    const o = it.voteMeans ?? it.episode.states;
    const net = netOpinion(o, n);
    const c = conviction(o, n);
    return { id: it.id, n: net[net.length - 1], c: c[c.length - 1] };
  });
  const reg = regimes(finals);
  const counts: Record<Regime, number> = { indifference: 0, polarization: 0, consensus: 0 };
  for (const l of reg.labels) counts[l]++;

  const ns = items.map((it) => it.episode.graph.n);
  const ts = items.map((it) => episodeSteps(it.episode));
  const result: StudyResult = {
    field,
    models,
    seed: String(opts.seed),
    testFraction,
    summary: {
      trajectories: items.length,
      questions: new Set(items.map((it) => it.questionId)).size,
      graphs: new Set(items.map((it) => it.graphId)).size,
      objective: objective.length,
      agents: [Math.min(...ns), Math.max(...ns)],
      rounds: [Math.min(...ts), Math.max(...ts)],
      transitions: items.reduce((a, it) => a + it.episode.graph.n * episodeSteps(it.episode), 0),
    },
    full,
    splits,
    archetypes: { rollouts: R, observed, rollout },
    regimes: {
      counts,
      convictionThreshold: reg.convictionThreshold,
      medianAbsNet: reg.medianAbsNet,
      rows: finals.map((f, i) => ({ ...f, regime: reg.labels[i] })),
    },
  };
  if (objective.length)
    result.correctness = {
      trajectories: objective.length,
      observed: correctnessOf(objective.map((it) => ({ states: it.episode.states, n: it.episode.graph.n, yTrue: it.episode.yTrue! }))),
      rollout: rolloutCorrect,
    };
  done = total;
  yield { done, total, note: 'done' };
  return result;
}
