/**
 * The LLM community run on the embedded model (Node, cpu fp32): N = 4, T = 1, K = 2. Checks that every vote and
 * message is stored with its parse outcome, that the counts add up, and that the trajectory has the fits' shape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeRuntime } from '../../src/runtime/node';
import { asRunnerModel, RunnerModelSet } from '../../src/runtime/runner-models';
import type { ModelRuntime } from '../../src/runtime/runtime';
import { validateConfig } from '../../src/core/config';
import { runHeadless } from '../../src/core/runs/headless';
import { opinionsLab } from '../../src/labs/opinions/config';
import { opinionsRunner } from '../../src/labs/opinions/runner';
import type { OpinionsConfig } from '../../src/labs/opinions/graph';
import { agentRows, roundRow, trajectoriesFromRun } from '../../src/labs/opinions/community-data';
import { parseCounts } from '../../src/labs/opinions/community-runner';
import { resultOf } from '../../src/core/runs/results';
import { opinionsResults } from '../../src/labs/opinions/results';

describe('community run on the embedded model', () => {
  let rt: ModelRuntime;
  const models = new RunnerModelSet();
  beforeAll(async () => {
    rt = createNodeRuntime();
    const info = await rt.load('tiny-social', { device: 'cpu', dtype: 'fp32' });
    models.add(asRunnerModel('tiny-social', rt, info));
  });
  afterAll(() => rt?.dispose());

  for (const questionId of ['s05', 'o03']) {
    it(`N=4, T=1, K=2 on ${questionId}: parse counts are recorded and the trajectory has the shared shape`, async () => {
      const v = validateConfig(opinionsLab, {
        mode: 'community',
        seed: 3,
        custom: { nodes: 4, edges: '0+1,1+2,2-3,3+0' },
        community: { model: 'tiny-social', rounds: 1, votesPerRound: 2, questionId },
      });
      if (!v.ok) throw new Error(JSON.stringify(v.errors));
      const config = v.value as OpinionsConfig;
      const bundle = await runHeadless(opinionsLab, opinionsRunner, config, { models });
      expect(bundle.episodes.length).toBe(2);
      for (const ep of bundle.episodes) {
        const r = roundRow(ep)!;
        const rows = agentRows(ep);
        expect(rows.length).toBe(4);
        expect(r.votes).toBe(8);
        expect(r.voteFailures).toBe(rows.reduce((s, a) => s + a.votes.filter((x) => x === null).length, 0));
        for (const a of rows) {
          expect(a.rawVotes.length).toBe(2);
          expect(a.rawVotes.every((x) => typeof x === 'string')).toBe(true);
          if (r.t === 1) {
            expect(a.rawMessages.length).toBeGreaterThanOrEqual(1);
            expect(a.messageFailures).toBe(a.message === null ? a.rawMessages.length : a.rawMessages.length - 1);
          }
        }
      }
      const counts = parseCounts(bundle.episodes);
      expect(counts.votes).toBe(16);
      expect(counts.messages).toBe(4);
      const trajs = trajectoriesFromRun(config, bundle.episodes);
      expect(trajs.length).toBe(1);
      expect(trajs[0].voteMeans.length).toBe(2);
      expect(trajs[0].voteMeans.every((row) => row.length === 4 && row.every((x) => x >= -1 && x <= 1))).toBe(true);
      expect(trajs[0].graph).toEqual({
        n: 4,
        edges: [
          [0, 1, 1],
          [0, 3, 1],
          [1, 2, 1],
          [2, 3, -1],
        ],
      });
      const res = resultOf(opinionsResults, bundle.results, 'community')!;
      console.log(
        `${questionId}: vote parse rate ${res.voteParseRate}, message parse rate ${res.messageParseRate}; raw votes ${JSON.stringify(agentRows(bundle.episodes[1]).map((a) => a.rawVotes))}; messages ${JSON.stringify(agentRows(bundle.episodes[1]).map((a) => a.rawMessages))}`,
      );
    });
  }
});
