/**
 * The opinions/polarization entries of the compute API. Arguments and results are structured-cloneable (plain
 * objects and typed arrays); randomness enters as a seed, since an Rng object cannot cross a worker boundary.
 */
import { createRng } from './rng';
import { lowRank, randomSigned, squareLattice, triangularLattice } from './graphs/generators';
import { frustratedTriangleFraction, minUnsatisfiedFraction } from './graphs/balance';
import { ringLattice, randomDirected, smallWorld, type DirectedGraph } from './graphs/directed';
import type { SignedGraph } from './graphs/signed';
import { simulateGlauber, type GlauberParams, type SimulationResult } from './ising/simulate';
import { fitGlauber, type FitOptions, type GlauberFit } from './ising/fit';
import { spinsFromVoteMeans, type Episode } from './ising/design';
import { compareModels, type Comparison } from './ising/compare';
import { rolloutStochastic, type DynamicsModel } from './ising/models';
import { temperatureSweep, type SweepOptions, type SweepResult } from './ising/sweep';
import { pca, fieldFeatures, embeddingFieldFeatures, type EmbeddingFeatures, type PcaModel } from './ising/features';
import {
  individualArchetypes,
  groupArchetype,
  netOpinion,
  conviction,
  regimes,
  correctness,
  GROUP_ARCHETYPES,
  INDIVIDUAL_ARCHETYPES,
  type GroupArchetype,
  type IndividualArchetype,
} from './ising/archetypes';
import { fitStudySteps, type StudyItem, type StudyOptions, type StudyResult } from './ising/study';
import { JobAborts, throwIfAborted } from './cancel';
import { yieldToEventLoop } from './runs/runner';
import { echoChamberTable, homophily, linkHomophily, opinionDistribution, polarization, type EchoTable } from './polarization/metrics';
import { boundedConfidence, coevolvingVoter, initialOpinions, type BaselineRun } from './polarization/classic';

export type SignedGraphSpec =
  | { generator: 'random'; agents: number; edgeBudget: number; friendlyShare?: number }
  | { generator: 'square' | 'triangular'; side: number }
  | { generator: 'lowRank'; agents: number; rank: number; frustration: number; edgeBudget?: number };

export type DirectedGraphSpec =
  | { generator: 'ring'; agents: number; k?: number }
  | { generator: 'smallWorld'; agents: number; k?: number; p: number }
  | { generator: 'random'; agents: number; k?: number };

/** Fit studies by job id, so that `cancelFitStudy(jobId)`, a separate comlink message, can stop one. */
const studyAborts = new JobAborts();

export const opinionsCompute = {
  makeSignedGraph(spec: SignedGraphSpec, seed: number | string): SignedGraph {
    const rng = createRng(seed);
    switch (spec.generator) {
      case 'random':
        return randomSigned(spec.agents, { budget: spec.edgeBudget, positiveFraction: spec.friendlyShare }, rng);
      case 'square':
        return squareLattice(spec.side);
      case 'triangular':
        return triangularLattice(spec.side);
      case 'lowRank':
        return lowRank(spec.agents, { rank: spec.rank, frustration: spec.frustration, budget: spec.edgeBudget }, rng);
    }
  },
  balanceReadouts(g: SignedGraph, seed: number | string = 0, restarts = 16) {
    const t = frustratedTriangleFraction(g);
    const u = minUnsatisfiedFraction(g, createRng(seed), { restarts });
    return { triangles: t, unsatisfied: u };
  },
  simulateGlauber(g: SignedGraph, params: GlauberParams, s0: ArrayLike<number>, steps: number, seed: number | string, record = true): SimulationResult {
    return simulateGlauber(g, params, s0, steps, createRng(seed), { record });
  },
  fitGlauber(episodes: Episode[], opts: FitOptions): GlauberFit {
    return fitGlauber(episodes, opts);
  },
  compareModels(train: Episode[], test: Episode[], opts: FitOptions): Comparison {
    return compareModels(train, test, opts);
  },
  /**
   * The Fit panel's study (src/core/ising/study.ts): every model on all trajectories and on seeded splits, with
   * baselines, archetypes, regimes and correctness. It yields to the worker's event loop at every Adam plateau
   * check, so progress arrives, the heartbeat is answered, and `cancelFitStudy(jobId)` stops it (it then rejects
   * with "cancelled").
   */
  async fitStudy(
    items: StudyItem[],
    opts: StudyOptions,
    onProgress?: (done: number, total: number, note: string) => unknown,
    jobId?: string,
  ): Promise<StudyResult> {
    const steps = fitStudySteps(items, opts);
    const signal = jobId === undefined ? undefined : studyAborts.start(jobId);
    let last = 0;
    try {
      for (;;) {
        const r = steps.next();
        if (r.done) return r.value;
        const now = Date.now();
        if (now - last > 40) {
          last = now;
          await yieldToEventLoop();
          throwIfAborted(signal);
          onProgress?.(r.value.done, r.value.total, r.value.note);
        }
      }
    } finally {
      if (jobId !== undefined) studyAborts.end(jobId);
    }
  },
  cancelFitStudy(jobId: string): void {
    studyAborts.abort(jobId);
  },
  /** Stochastic rollouts from each episode's s(0), with their individual- and group-archetype counts. */
  stochasticArchetypes(model: DynamicsModel, episodes: Episode[], seed: number | string, delta = 0.2) {
    const rng = createRng(seed);
    const counts: Record<IndividualArchetype, number> = { Frozen: 0, Switcher: 0, Intermittent: 0, Oscillator: 0 };
    const groups = Object.fromEntries(GROUP_ARCHETYPES.map((k) => [k, 0])) as Record<GroupArchetype, number>;
    const rollouts = episodes.map((e) => {
      const s = rolloutStochastic(model, e, rng);
      const a = individualArchetypes(s, e.graph.n).counts;
      for (const k of INDIVIDUAL_ARCHETYPES) counts[k] += a[k];
      const net = netOpinion(s, e.graph.n);
      groups[groupArchetype(net[0], net[net.length - 1], delta)]++;
      return s;
    });
    return { rollouts, counts, groups };
  },
  temperatureSweep(model: DynamicsModel, starts: Episode[], opts: SweepOptions = {}): SweepResult {
    return temperatureSweep(model, starts, opts);
  },
  pca(X: ArrayLike<number>, rows: number, cols: number, k = 3): PcaModel {
    return pca(X, rows, cols, k);
  },
  fieldFeatures(p: ArrayLike<number>, n: number, q: ArrayLike<number>) {
    return fieldFeatures(p, n, q);
  },
  embeddingFieldFeatures(
    personas: ArrayLike<number>,
    nPersonas: number,
    questions: ArrayLike<number>,
    nQuestions: number,
    dim: number,
    k = 3,
  ): EmbeddingFeatures {
    return embeddingFieldFeatures(personas, nPersonas, questions, nQuestions, dim, k);
  },
  spinsFromVoteMeans(obar: ArrayLike<number>, n: number): Int8Array {
    return spinsFromVoteMeans(obar, n);
  },
  describeGroup(o: ArrayLike<number>, n: number, delta = 0.2) {
    const net = netOpinion(o, n);
    return {
      net,
      conviction: conviction(o, n),
      individual: individualArchetypes(o, n),
      group: groupArchetype(net[0], net[net.length - 1], delta),
    };
  },
  regimes,
  correctness,
  makeDirectedGraph(spec: DirectedGraphSpec, seed: number | string): DirectedGraph {
    const rng = createRng(seed);
    if (spec.generator === 'ring') return ringLattice(spec.agents, spec.k ?? 4);
    if (spec.generator === 'smallWorld') return smallWorld(spec.agents, spec.k ?? 4, spec.p, rng);
    return randomDirected(spec.agents, spec.k ?? 4, rng);
  },
  initialOpinions(n: number, seed: number | string, shares?: number[]): number[] {
    return initialOpinions(n, createRng(seed), shares);
  },
  polarizationMetrics(g: DirectedGraph, x: ArrayLike<number>) {
    return { P: polarization(x), H: homophily(g, x), distribution: opinionDistribution(x), links: linkHomophily(g, x) };
  },
  echoChamberTable(history: number[][], interactions: [number, number][][], opts: { window?: number; tol?: number } = {}): EchoTable {
    return echoChamberTable(history, interactions, opts);
  },
  coevolvingVoter(g: DirectedGraph, x0: number[], opts: { phi: number; epochs: number }, seed: number | string): BaselineRun {
    return coevolvingVoter(g, x0, opts, createRng(seed));
  },
  boundedConfidence(
    g: DirectedGraph,
    x0: number[],
    opts: { confidence: number; mu?: number; rewire?: number; epochs: number },
    seed: number | string,
  ): BaselineRun {
    return boundedConfidence(g, x0, opts, createRng(seed));
  },
};
