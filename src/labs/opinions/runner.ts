import { simulateGlauber } from '../../core/ising/simulate';
import { throwIfAborted } from '../../core/cancel';
import { yieldToEventLoop, type LabRunner } from '../../core/runs/runner';
import { communityLayout, communityProblem, MAX_COMMUNITY_AGENTS } from './community-data';

/** The community size that the one-click fix for a too-large graph offers: runs in about a minute on WASM. */
const SMALL_COMMUNITY = 12;
import { communityLivePlot, runCommunityEpisode, summarizeCommunity } from './community-runner';
import { planScreening, runScreeningEpisode, screeningLivePlot, summarizeScreening } from './screening-runner';
import { configNodeCount, simulationProblem, simulationSetup, type OpinionsConfig } from './graph';
import type { OpinionsRecord, StepRow } from './records';
import type { OpinionsSummary } from './results';

/** Steps simulated between checks for cancellation and progress. */
const CHUNK = 50;

/**
 * `mode: 'community'` runs LLM agents (community-runner.ts: one episode per round of one trajectory); `mode:
 * 'screening'` samples them on candidate questions (screening-runner.ts: one episode per question).
 *
 * Pure kinetic-Ising simulation: each episode is one replica, started from a seeded random s(0) on the graph that
 * the run seed fixes (or the custom graph the config carries). Random fields are quenched: drawn once from the run
 * seed, shared by every replica. Records hold n(t) per step; the final spins are kept as a tensor.
 */
export const opinionsRunner: LabRunner<OpinionsConfig, OpinionsRecord, OpinionsSummary> = {
  lab: 'opinions',
  plan(config) {
    if (config.mode === 'screening') return planScreening(config);
    if (config.mode === 'community') {
      const models = [config.community.model];
      const problem = communityProblem(config);
      if (problem) {
        // Too many agents: one click puts the community on a small random signed graph instead.
        const fix =
          configNodeCount(config) > MAX_COMMUNITY_AGENTS
            ? {
                label: `Use a random graph of ${SMALL_COMMUNITY} agents`,
                config: {
                  ...config,
                  custom: { nodes: 0, edges: '' },
                  graph: { ...config.graph, generator: 'random' as const, agents: SMALL_COMMUNITY, edgeBudget: 2 * SMALL_COMMUNITY },
                },
              }
            : undefined;
        return { episodes: 0, bytesPerEpisode: 0, models, unavailable: problem, ...(fix ? { fix } : {}) };
      }
      const c = config.community;
      const n = configNodeCount(config);
      const layout = communityLayout(config);
      // Each trajectory's rounds form a chain: round t reads round t - 1.
      return {
        episodes: layout.episodes,
        chainLength: layout.rounds,
        bytesPerEpisode: 1000 + n * (400 + 40 * c.votesPerRound + 250 * c.messageAttempts),
        models,
      };
    }
    const problem = simulationProblem(config);
    if (problem) return { episodes: 0, bytesPerEpisode: 0, models: [], unavailable: problem };
    const n = configNodeCount(config);
    return { episodes: config.dynamics.replicas, bytesPerEpisode: n + 40 * (config.dynamics.steps + 1), models: [] };
  },
  async runEpisode(config, ctx) {
    if (config.mode === 'screening') return runScreeningEpisode(config, ctx);
    if (config.mode === 'community') return runCommunityEpisode(config, ctx);
    const { graph, params } = simulationSetup(config);
    const d = config.dynamics;
    let spins: ArrayLike<number> = Int8Array.from({ length: graph.n }, () => (ctx.rng.next() < d.initialUp ? 1 : -1));
    const net: number[] = [mean(spins)];
    for (let done = 0; done < d.steps;) {
      throwIfAborted(ctx.signal);
      const chunk = Math.min(CHUNK, d.steps - done);
      const result = simulateGlauber(graph, params, spins, chunk, ctx.rng, { record: false });
      for (let t = 1; t < result.net.length; t++) net.push(result.net[t]);
      spins = result.final;
      done += chunk;
      ctx.progress(done / d.steps);
      await yieldToEventLoop();
    }
    return {
      index: ctx.index,
      records: net.map((n, t) => ({ t, n, absN: Math.abs(n) })),
      tensors: { finalSpins: { dtype: 'U8', shape: [graph.n], data: Uint8Array.from(spins as Int8Array, (s) => (s > 0 ? 1 : 0)) } },
    };
  },
  livePlot(config, episodes) {
    if (config.mode === 'screening') return screeningLivePlot(episodes);
    if (config.mode === 'community') return communityLivePlot(config, episodes);
    const last = episodes[episodes.length - 1];
    if (!last) return null;
    return {
      title: `Net opinion n(t), episode ${last.index + 1}`,
      xLabel: 'step t',
      yLabel: 'n(t)',
      yDomain: [-1, 1],
      series: [{ name: 'n', values: stepRows(last.records).map((r) => r.n) }],
    };
  },
  summarize(config, episodes) {
    if (config.mode === 'screening') return summarizeScreening(config, episodes);
    if (config.mode === 'community') return summarizeCommunity(config, episodes);
    const tail = (rows: StepRow[]) => rows.slice(Math.floor(rows.length / 2)).map((r) => r.absN);
    const perEpisode = episodes.map((e) => {
      const xs = tail(stepRows(e.records));
      const m = xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
      const v = xs.reduce((a, b) => a + (b - m) ** 2, 0) / Math.max(1, xs.length);
      return { meanAbsN: m, varAbsN: v };
    });
    const n = configNodeCount(config);
    const avg = (f: (x: { meanAbsN: number; varAbsN: number }) => number) => perEpisode.reduce((a, x) => a + f(x), 0) / Math.max(1, perEpisode.length);
    return [
      {
        name: 'magnetisation',
        value: { meanAbsN: avg((x) => x.meanAbsN), chi: n * avg((x) => x.varAbsN), episodes: episodes.length, note: 'second half of each replica' },
      },
    ];
  },
};

/** A simulated replica's rows: one per step, the only rows without a kind. */
const stepRows = (records: readonly OpinionsRecord[]): StepRow[] => records.filter((r) => r.kind === undefined);

function mean(xs: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i];
  return xs.length ? s / xs.length : 0;
}
