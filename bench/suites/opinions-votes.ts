/**
 * Batched votes: an Opinions community round with K votes per agent, where the K votes share one prefill
 * (src/runtime/samples.ts), against the same round with one model call per vote. Both runs give the same records.
 */
import { createNodeRuntime } from '../../src/runtime/node.ts';
import { asRunnerModel, RunnerModelSet } from '../../src/runtime/runner-models.ts';
import { validateConfig } from '../../src/core/config/index.ts';
import { opinionsLab } from '../../src/labs/opinions/config.ts';
import { opinionsRunner } from '../../src/labs/opinions/runner.ts';
import { runHeadless } from '../../src/core/runs/headless.ts';
import type { RunnerModel } from '../../src/core/runs/models.ts';
import type { OpinionsConfig } from '../../src/labs/opinions/graph.ts';
import type { BenchSuite } from '../run.ts';

const MODEL = 'organism-opinions';
const AGENTS = 16;
const REPEATS = 5;

function config(votesPerRound: number): OpinionsConfig {
  const v = validateConfig(opinionsLab, {
    mode: 'community',
    seed: 5,
    graph: { generator: 'random', agents: AGENTS, edgeBudget: 3 * AGENTS },
    community: { model: MODEL, rounds: 1, votesPerRound, temperature: 0.7, questions: ['s01', 's02'], graphs: 1 },
  });
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  return v.value as OpinionsConfig;
}

/** The same model without the shared prefill: the runner then asks once per vote. */
const oneCallPerVote = (m: RunnerModel): RunnerModel => ({ ...m, generateSamples: undefined });

const suite: BenchSuite = {
  title: 'Opinions: batched votes (K votes from one prefill)',
  async run() {
    const rt = createNodeRuntime();
    const info = await rt.load(MODEL, { device: 'cpu', dtype: 'fp32' });
    const model = asRunnerModel(MODEL, rt, info);
    const lines = [
      `Community runs on ${MODEL} (Node CPU fp32, one thread): ${AGENTS} agents on a random signed graph, 2 statements, round 0 (votes only) and round 1 (each agent messages its neighbours, then votes), K votes per agent at temperature 0.7. Seconds are the rounds' own (their records' \`seconds\`, summed over the 2 statements), median of ${REPEATS} runs after one warm-up run; "same records" compares every stored vote and message of the two runs.`,
      '',
      '| K | round 0: one call per vote (s) | round 0: K votes from one prefill (s) | speed-up | round 1: one call per vote (s) | round 1: from one prefill (s) | speed-up | same records |',
      '|---|---|---|---|---|---|---|---|',
    ];
    const roundSeconds = (episodes: { records: unknown[] }[], t: number) =>
      episodes
        .flatMap((e) => e.records as { kind: string; t: number; seconds: number }[])
        .filter((r) => r.kind === 'round' && r.t === t)
        .reduce((a, r) => a + r.seconds, 0);
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    for (const k of [5, 8]) {
      const c = config(k);
      const time = async (m: RunnerModel) => {
        const r0: number[] = [];
        const r1: number[] = [];
        let records = '';
        for (let r = 0; r <= REPEATS; r++) {
          const set = new RunnerModelSet();
          set.add(m);
          const bundle = await runHeadless(opinionsLab, opinionsRunner, c, { models: set });
          if (r === 0) continue; // warm-up
          r0.push(roundSeconds(bundle.episodes, 0));
          r1.push(roundSeconds(bundle.episodes, 1));
          // Every record but the rounds' wall-clock seconds.
          records = JSON.stringify(
            bundle.episodes.map((e) => e.records),
            (key, v) => (key === 'seconds' ? undefined : v),
          );
        }
        return { r0: median(r0), r1: median(r1), records };
      };
      const lone = await time(oneCallPerVote(model));
      const shared = await time(model);
      const x = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
      lines.push(
        `| ${k} | ${lone.r0.toFixed(2)} | ${shared.r0.toFixed(2)} | ${x(lone.r0, shared.r0)} | ${lone.r1.toFixed(2)} | ${shared.r1.toFixed(2)} | ${x(lone.r1, shared.r1)} | ${lone.records === shared.records ? 'yes' : 'no'} |`,
      );
    }
    await rt.dispose();
    lines.push(
      '',
      'The issue asks for at least 3× at K = 8. A round after the first also sends messages, one call per attempt (each message has its own prompt), so it gains less than a round of votes alone.',
    );
    return lines.join('\n');
  },
};

export default suite;
