// The Fit panel's code path, in Node: trajectories (generated with a known law) → file → import → study in the
// compute API → effective weights and balanced accuracies; splits; progress and cancel; runs as trajectory sources.
import { describe, expect, it } from 'vitest';
import { computeApi } from '../../src/core/compute-api';
import { effectiveWeights } from '../../src/core/ising/couplings';
import { makeSplits, type StudyResult } from '../../src/core/ising/study';
import { runHeadless } from '../../src/core/runs/headless';
import { writeBundle, readBundle } from '../../src/core/runs/bundle';
import { defaultConfig } from '../../src/core/config';
import { LAB_MODULES } from '../../src/labs/registry';
import { opinionsLab } from '../../src/labs/opinions/config';
import { opinionsRunner } from '../../src/labs/opinions/runner';
import { parseTrajectoryJson, trajectoriesToJson } from '../../src/labs/opinions/trajectory-io';
import { poolTrajectories, studyItems, trajectoriesFromBundle } from '../../src/labs/opinions/fit-data';
import { syntheticTrajectories } from '../../src/labs/opinions/synthetic-trajectories';
import { accuracyTable, allTables, coefficientsTable, tableCsv } from '../../src/labs/opinions/fit-tables';
import { TRAJECTORY_RESULT } from '../../src/labs/opinions/trajectory';

const relErr = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

function imported(text: string) {
  const r = parseTrajectoryJson(text);
  if (!r.ok) throw new Error(r.message);
  return r.file.trajectories;
}

function score(r: StudyResult, split: string, model: string) {
  const s = r.splits.find((x) => x.name === split)!.scores.find((x) => x.name === model)!;
  return { one: s.oneStep.balanced, roll: s.rollout.balanced };
}

// Generous timeouts: a study is ~15 Adam fits; this 2-core machine is shared and often loaded.
describe('fit study: parameter recovery through the import and the compute API', { timeout: 120_000 }, () => {
  it('three couplings: effective weights recovered; the fit beats every baseline in every split', async () => {
    const truth = { kind: 'three' as const, betaPlus: 0.5, betaMinus: 0.6, beta0: 0.3 };
    const [tf, , tu] = effectiveWeights(truth); // 0.8, −0.3
    const ts = imported(trajectoriesToJson(syntheticTrajectories({ couplings: truth, seed: 'recovery', graphs: 4, questions: 4, episodes: 3 })));
    const notes: string[] = [];
    const r = await computeApi.fitStudy(studyItems(ts), { seed: 7, models: ['one', 'three', 'eps'] }, (_d, _t, n) => notes.push(n));
    expect(r.models).toEqual(['one', 'three', 'eps']); // no five: the questions are subjective
    expect(r.field).toBe('features');
    const three = r.full.find((f) => f.kind === 'three')!.fit;
    const eps = r.full.find((f) => f.kind === 'eps')!.fit;
    console.log(
      `recovery: friendly ${three.effective.friendly.toFixed(3)} (true ${tf}), unfriendly ${three.effective.unfriendly.toFixed(3)} (true ${tu}); ε form ×2: ${(2 * eps.effective.friendly).toFixed(3)}, ${(2 * eps.effective.unfriendly).toFixed(3)}, ε = ${eps.eps!.toFixed(3)}`,
    );
    expect(relErr(three.effective.friendly, tf)).toBeLessThan(0.1);
    expect(Math.abs(three.effective.unfriendly - tu)).toBeLessThan(0.05);
    // Synchronous data: the ε form finds ε ≈ 1 and twice its tanh-unit weights match the Glauber ones.
    expect(eps.eps!).toBeGreaterThan(0.9);
    expect(relErr(2 * eps.effective.friendly, tf)).toBeLessThan(0.15);
    for (const split of ['in-distribution', 'held-out questions', 'held-out graphs']) {
      const g = score(r, split, 'Glauber, 3 couplings');
      const p = score(r, split, 'Persistence');
      console.log(
        `${split}: Glauber-3 one-step ${(100 * g.one).toFixed(1)} rollout ${(100 * g.roll).toFixed(1)}; Persistence ${(100 * p.one).toFixed(1)} / ${(100 * p.roll).toFixed(1)}; ` +
          ['Interaction-Free', 'Mean-Field'].map((b) => `${b} ${(100 * score(r, split, b).one).toFixed(1)}`).join(', '),
      );
      expect(p.one).toBeCloseTo(0.5, 10);
      expect(g.one).toBeGreaterThan(p.one + 0.15);
      expect(g.roll).toBeGreaterThan(p.roll);
      for (const b of ['Interaction-Free', 'Mean-Field']) expect(g.one).toBeGreaterThan(score(r, split, b).one);
    }
    expect(notes.some((n) => n.includes('held-out graphs'))).toBe(true);
    // The tables behind the panel: one coefficient row per fit, accuracy rows per split × model, CSV with a header.
    expect(coefficientsTable(r).rows.length).toBe(3 * 4);
    expect(accuracyTable(r).rows.length).toBe(3 * 7);
    for (const t of allTables(r)) expect(tableCsv(t).split('\n')[0]).toBe(t.columns.map((c) => (/[",]/.test(c) ? `"${c}"` : c)).join(','));
    expect(r.archetypes.observed.individual.Frozen + r.archetypes.observed.individual.Oscillator).toBeGreaterThan(0);
    expect(Object.values(r.regimes.counts).reduce((a, b) => a + b, 0)).toBe(48);
  });

  it('objective questions: five couplings recovered, wrong→right and right→wrong counted', async () => {
    const truth = { kind: 'five' as const, betaPlusT: 0.9, betaPlusF: 0.3, betaMinusT: 0.2, betaMinusF: 0.9, beta0: 0.3 };
    const [fT, fF, uT, uF] = effectiveWeights(truth);
    const ts = imported(trajectoriesToJson(syntheticTrajectories({ couplings: truth, seed: 'five', graphs: 5, questions: 4, episodes: 4, objective: true })));
    const r = await computeApi.fitStudy(studyItems(ts), { seed: 1, models: ['three', 'five'], rollouts: 4 });
    const five = r.full.find((f) => f.kind === 'five')!.fit.effective;
    console.log(
      `five: ${[five.friendly, five.friendlyWrong!, five.unfriendly, five.unfriendlyWrong!].map((v) => v.toFixed(3)).join(', ')} (true ${[fT, fF, uT, uF].join(', ')})`,
    );
    expect(relErr(five.friendly, fT)).toBeLessThan(0.1);
    expect(relErr(five.friendlyWrong!, fF)).toBeLessThan(0.15);
    expect(Math.abs(five.unfriendly - uT)).toBeLessThan(0.06);
    expect(relErr(five.unfriendlyWrong!, uF)).toBeLessThan(0.15);
    const c = r.correctness!;
    expect(c.trajectories).toBe(80);
    // Direct count of the observed transitions.
    let w2r = 0;
    let r2w = 0;
    for (const t of ts)
      for (let k = 1; k < t.voteMeans.length; k++)
        for (let i = 0; i < t.graph.n; i++) {
          const a = Math.sign(t.voteMeans[k - 1][i]) === t.question.correct;
          const b = Math.sign(t.voteMeans[k][i]) === t.question.correct;
          if (!a && b) w2r++;
          if (a && !b) r2w++;
        }
    expect([c.observed.wrongToRight, c.observed.rightToWrong]).toEqual([w2r, r2w]);
    expect(c.rollout.five!.majorityCorrect.length).toBe(9);
    const g5 = score(r, 'in-distribution', 'Glauber, 5 couplings');
    expect(g5.one).toBeGreaterThan(score(r, 'in-distribution', 'Persistence').one + 0.15);
  });

  it('splits are seeded and keep questions / graphs apart', () => {
    const items = studyItems(
      syntheticTrajectories({ couplings: { kind: 'one', beta: 0.4 }, seed: 's', graphs: 4, questions: 4, episodes: 1, agents: 8, rounds: 2 }),
    );
    const a = makeSplits(items, 3);
    expect(makeSplits(items, 3)).toEqual(a);
    expect(makeSplits(items, 4)).not.toEqual(a);
    for (const s of a) {
      expect(s.skipped).toBeUndefined();
      expect(s.train.length + s.test.length).toBe(16);
      expect(s.test.length).toBeGreaterThan(0);
    }
    const q = a.find((s) => s.name === 'held-out questions')!;
    const trainQ = new Set(q.train.map((i) => items[i].questionId));
    expect(q.test.every((i) => !trainQ.has(items[i].questionId))).toBe(true);
    const g = a.find((s) => s.name === 'held-out graphs')!;
    const trainG = new Set(g.train.map((i) => items[i].graphId));
    expect(g.test.every((i) => !trainG.has(items[i].graphId))).toBe(true);
    // One question: the question split is skipped with a reason.
    const one = makeSplits(
      items.filter((it) => it.questionId === 'q0'),
      3,
    );
    expect(one.find((s) => s.name === 'held-out questions')!.skipped).toMatch(/two questions/);
  });

  it('pooling sources keeps ids unique and never merges two different graphs under one id', () => {
    const a = syntheticTrajectories({ couplings: { kind: 'one', beta: 0.4 }, seed: 'a', graphs: 2, questions: 1, episodes: 1, agents: 6, rounds: 2 });
    const b = syntheticTrajectories({ couplings: { kind: 'one', beta: 0.4 }, seed: 'b', graphs: 2, questions: 1, episodes: 1, agents: 6, rounds: 2 });
    const pooled = poolTrajectories([a, b, a]);
    expect(new Set(pooled.map((t) => t.id)).size).toBe(6);
    expect(pooled.map((t) => t.graphId)).toEqual(['g0', 'g1', 'g0~2', 'g1~2', 'g0', 'g1']);
  });

  it('reports progress and stops on cancel', async () => {
    const items = studyItems(syntheticTrajectories({ couplings: { kind: 'one', beta: 0.4 }, seed: 'c', graphs: 3, questions: 3, episodes: 2 }));
    let calls = 0;
    const p = computeApi.fitStudy(
      items,
      { seed: 1 },
      () => {
        if (++calls === 2) computeApi.cancelFitStudy('job-1');
      },
      'job-1',
    );
    await expect(p).rejects.toThrow(/cancelled/);
    expect(calls).toBeGreaterThanOrEqual(2);
  });
});

describe('trajectories from stored runs', { timeout: 60_000 }, () => {
  it('a simulation run is replayed from its seed and matches the stored n(t)', async () => {
    const config = defaultConfig(opinionsLab);
    config.graph.generator = 'random';
    config.graph.agents = 24;
    config.graph.edgeBudget = 60;
    config.dynamics.steps = 120;
    config.dynamics.replicas = 3;
    const bundle = readBundle(writeBundle(await runHeadless(opinionsLab, opinionsRunner, config)), LAB_MODULES);
    const r = trajectoriesFromBundle(bundle, { rounds: 60 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.source).toBe('simulation');
    expect(r.trajectories.length).toBe(3);
    for (const t of r.trajectories) {
      expect(t.voteMeans.length).toBe(61);
      expect(t.graph.n).toBe(24);
    }
    // A tampered record is caught by the check against the stored n(t).
    bundle.episodes[1].records[55].n = 0.123;
    const bad = trajectoriesFromBundle(bundle, { rounds: 60 });
    expect(!bad.ok && bad.message).toMatch(/differs from the stored n\(t\) at t = 55/);
  });

  it('a community run hands its trajectories over as a result; hostile ones are refused', async () => {
    const config = defaultConfig(opinionsLab);
    const ts = syntheticTrajectories({ couplings: { kind: 'one', beta: 0.4 }, seed: 'r', graphs: 1, questions: 2, episodes: 1, agents: 6, rounds: 2 });
    const meta = {
      id: 'run-x',
      lab: 'opinions' as const,
      schemaVersion: 1,
      config: { ...config, mode: 'community' },
      seed: 0,
      backend: null,
      dtype: null,
      status: 'done' as const,
      episodesDone: 0,
      episodesTotal: 0,
      createdAt: '',
      updatedAt: '',
    };
    const ok = trajectoriesFromBundle({ meta, episodes: [], results: [{ name: TRAJECTORY_RESULT, value: ts, updatedAt: '' }] });
    expect(ok.ok && ok.source).toBe('result');
    const hostile = structuredClone(ts);
    hostile[0].question.text = '<iframe src="x">';
    const bad = trajectoriesFromBundle({ meta, episodes: [], results: [{ name: TRAJECTORY_RESULT, value: hostile, updatedAt: '' }] });
    expect(!bad.ok && bad.message).toMatch(/markup/);
    // Without the result, the complete trajectories are rebuilt from the round records (community-data.ts).
    const where = (t: number) => ({ t, question: 'q7', questionKind: 'objective', graph: 0, graphId: 'g0', trajectory: 0 });
    const unsaid = { message: null, messageStance: null, rawMessages: [], messageFailures: 0, friendlyFrom: [], unfriendlyFrom: [], escaped: 0 };
    const round = (t: number, text: string) => ({
      index: t,
      tensors: {},
      records: [
        {
          ...where(t),
          kind: 'round',
          questionText: text,
          correct: -1,
          n: 0,
          c: 0,
          fractionCorrect: null,
          agents: 3,
          updated: 3,
          votes: 3,
          voteFailures: 0,
          messages: 0,
          messageFailures: 0,
          undelivered: 0,
          calls: 3,
          seconds: 1,
          edges: '0+1,1-2',
        },
        ...[0.6, -0.2, 1].map((o, agent) => ({
          ...where(t),
          ...unsaid,
          kind: 'agent',
          agent,
          persona: `p${agent}`,
          updated: true,
          votes: ['A'],
          rawVotes: ['A'],
          voteFailures: 0,
          obar: t ? -o : o,
          spin: o > 0 !== !!t ? 1 : -1,
        })),
      ],
    });
    const cm = { ...meta, config: { ...config, mode: 'community', community: { ...config.community, rounds: 1 } } };
    const rebuilt = trajectoriesFromBundle({ meta: cm, episodes: [round(0, 'Is 9 prime?'), round(1, 'Is 9 prime?')], results: [] });
    expect(rebuilt.ok && rebuilt.source).toBe('records');
    expect(rebuilt.ok && rebuilt.trajectories[0].voteMeans).toEqual([
      [0.6, -0.2, 1],
      [-0.6, 0.2, -1],
    ]);
    const tampered = trajectoriesFromBundle({ meta: cm, episodes: [round(0, '<script>x</script>'), round(1, '<script>x</script>')], results: [] });
    expect(!tampered.ok && tampered.message).toMatch(/markup/);
    const none = trajectoriesFromBundle({ meta, episodes: [], results: [] });
    expect(!none.ok && none.message).toMatch(/no complete trajectory yet/);
  });
});
