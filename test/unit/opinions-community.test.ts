import { resultOf } from '../../src/core/runs/results';
import { opinionsResults } from '../../src/labs/opinions/results';
import { describe, expect, it } from 'vitest';
import { defaultConfig, validateConfig } from '../../src/core/config';
import { opinionsLab } from '../../src/labs/opinions/config';
import type { OpinionsConfig } from '../../src/labs/opinions/graph';
import { fromEdges } from '../../src/core/graphs/signed';
import { hashSeed } from '../../src/core/rng';
import { episodeRng } from '../../src/core/runs/runner';
import { runHeadless } from '../../src/core/runs/headless';
import type { RunnerGenerateOptions, RunnerModels, RunnerSampleRequest } from '../../src/core/runs/models';
import { textModel } from '../helpers/text-model';
import type { Episode } from '../../src/core/runs/types';
import { opinionsRunner } from '../../src/labs/opinions/runner';
import { aggregateVotes, routeInboxes, storable } from '../../src/labs/opinions/community-runner';
import { readBundle, writeBundle } from '../../src/core/runs/bundle';
import { LAB_MODULES } from '../../src/labs/registry';
import {
  agentRows,
  assignPersonas,
  communityGraph,
  communityLayout,
  communityProblem,
  episodeSlot,
  personaPool,
  roundRow,
  slotIndex,
  trajectoriesFromRun,
} from '../../src/labs/opinions/community-data';
import { BUNDLED_PERSONAS, BUNDLED_PROBLEMS, BUNDLED_STATEMENTS } from '../../src/labs/opinions/community/sets';
import { personaSchema, questionSchema, SET_LIMITS } from '../../src/labs/opinions/community/schema';
import { toIsingEpisode } from '../../src/labs/opinions/trajectory';
import { validateTrajectoryFile } from '../../src/labs/opinions/trajectory-io';
import { trajectoriesFromBundle } from '../../src/labs/opinions/fit-data';
import type { OpinionsRecord } from '../../src/labs/opinions/records';
import { opinionsRecord } from '../../src/labs/opinions/records';
import { expectRecordsFit } from '../helpers/records-fit';

/**
 * A deterministic stand-in for a language model: the reply depends only on the prompt and the seed. Votes follow the
 * friendly inbox's majority when there is one, and about one reply in six is junk, so parse failures occur.
 */
function fakeModels(log: { prompt: string; seed: string }[] = []): RunnerModels {
  const model = textModel('tiny-social', (prompt, seed) => {
    log.push({ prompt, seed });
    const h = hashSeed(`${prompt}|${seed}`) >>> 0;
    const objective = prompt.includes('Reply with one letter') || prompt.includes('(A or B)');
    if (prompt.includes('Write one short sentence')) {
      const cur = /Your current answer: (\w+)\./.exec(prompt)?.[1] ?? 'Agree';
      return h % 7 === 0
        ? 'Hello everyone.'
        : objective
          ? `I choose ${cur} because I checked it twice.`
          : `I ${cur === 'Agree' ? 'agree' : 'disagree'} because it matters for my family.`;
    }
    const friendly = /tend to agree with:\n([\s\S]*?)\nMessages from people you tend to disagree/.exec(prompt)?.[1] ?? '';
    const plus = (friendly.match(/I agree|I choose A/g) ?? []).length;
    const minus = (friendly.match(/I disagree|I choose B/g) ?? []).length;
    const up = plus > minus ? true : minus > plus ? false : h % 2 === 0;
    return h % 6 === 0 ? 'Maybe' : objective ? (up ? 'A' : 'B') : up ? 'Agree' : 'Disagree';
  });
  return {
    get: (id) =>
      id === 'tiny-social'
        ? model
        : (() => {
            throw new Error(`no ${id}`);
          })(),
  };
}

const cfg = (over: Record<string, unknown> = {}): OpinionsConfig => {
  const base = {
    mode: 'community',
    seed: 7,
    graph: { generator: 'random', agents: 5, edgeBudget: 7, friendlyShare: 0.6 },
    community: { model: 'tiny-social', rounds: 2, votesPerRound: 3, questionId: 's03' },
  };
  const merged = { ...base, ...over, community: { ...base.community, ...((over.community as object) ?? {}) } };
  const v = validateConfig(opinionsLab, merged);
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  return v.value as OpinionsConfig;
};

async function runAll(config: OpinionsConfig, log?: { prompt: string; seed: string }[]) {
  return runHeadless(opinionsLab, opinionsRunner, config, { models: fakeModels(log) });
}

describe('bundled personas and questions', () => {
  it('has at least 64 personas, 20 balanced statements and 20 problems, all valid for the link schema', () => {
    expect(BUNDLED_PERSONAS.length).toBeGreaterThanOrEqual(64);
    expect(new Set(BUNDLED_PERSONAS.map((p) => p.id)).size).toBe(BUNDLED_PERSONAS.length);
    for (const p of BUNDLED_PERSONAS) expect(personaSchema.safeParse({ id: p.id, text: p.text }).success, p.id).toBe(true);
    expect(BUNDLED_STATEMENTS.length).toBeGreaterThanOrEqual(20);
    const left = BUNDLED_STATEMENTS.filter((s) => s.lean === 'left').length;
    expect(left).toBe(BUNDLED_STATEMENTS.length - left);
    expect(BUNDLED_PROBLEMS.length).toBeGreaterThanOrEqual(20);
    for (const q of [...BUNDLED_STATEMENTS, ...BUNDLED_PROBLEMS]) expect(questionSchema.safeParse(q).success, q.id).toBe(true);
    for (const q of BUNDLED_PROBLEMS) expect(q.answer).not.toBe(q.wrong);
    // The personas span the political range.
    for (const lean of [-2, -1, 0, 1, 2]) expect(BUNDLED_PERSONAS.filter((p) => p.lean === lean).length).toBeGreaterThanOrEqual(8);
  });
});

describe('edited sets in the config', () => {
  it('adds and replaces items by id, and refuses hostile or oversized sets with a path', () => {
    const c = cfg({
      sets: {
        personas: [
          { id: 'p01', text: 'You are a cat.' },
          { id: 'mine', text: 'You are a sailor.' },
        ],
        questions: [{ kind: 'subjective', id: 'q1', text: 'Cats are better than dogs.', lean: 'left' }],
      },
    });
    const pool = personaPool(c);
    expect(pool.find((p) => p.id === 'p01')!.text).toBe('You are a cat.');
    expect(pool.find((p) => p.id === 'mine')).toBeTruthy();
    const bad: [unknown, RegExp][] = [
      [{ sets: { personas: [{ id: 'x', text: '<script>alert(1)</script>' }] } }, /markup/],
      [{ sets: { personas: [{ id: 'x', text: 'two\nlines' }] } }, /one line/],
      [
        {
          sets: {
            personas: [
              { id: 'x', text: 'a' },
              { id: 'x', text: 'b' },
            ],
          },
        },
        /twice/,
      ],
      [{ sets: { personas: [{ id: '../x', text: 'a' }] } }, /must be 1–32/],
      [{ sets: { personas: Array.from({ length: 100 }, (_, i) => ({ id: `x${i}`, text: 'y'.repeat(290) })) } }, /at most 24000/],
      [{ sets: { questions: [{ kind: 'objective', id: 'o', text: 't', answer: '1', wrong: '1', example: { problem: 'p', solution: 's' } }] } }, /differ/],
      [{ sets: { questions: [{ kind: 'subjective', id: 'q', text: 't', lean: 'up' }] } }, /lean/],
      [{ sets: { personas: [{ id: 'x', text: 'a', __proto__x: 1 }] } }, /unrecognized|Unrecognized/],
    ];
    for (const [raw, re] of bad) {
      const v = validateConfig(opinionsLab, raw);
      expect(v.ok, JSON.stringify(raw).slice(0, 80)).toBe(false);
      if (!v.ok) expect(v.errors.map((e) => `${e.path} ${e.message}`).join('; ')).toMatch(re);
    }
    expect(SET_LIMITS.totalChars).toBeLessThan(64 * 1024);
  });
});

describe('seeded persona assignment', () => {
  it('draws distinct personas per node, the same for the same seed and graph, and differs across seeds and graphs', () => {
    const c = cfg();
    const a = assignPersonas(c, 32, 0);
    expect(a).toEqual(assignPersonas(c, 32, 0));
    expect(new Set(a).size).toBe(32);
    expect(assignPersonas(c, 32, 1)).not.toEqual(a);
    expect(assignPersonas(cfg({ seed: 8 }), 32, 0)).not.toEqual(a);
    // More nodes than personas: every persona is used before any repeats.
    const big = assignPersonas(c, 100, 0);
    expect(new Set(big.slice(0, BUNDLED_PERSONAS.length)).size).toBe(BUNDLED_PERSONAS.length);
  });
  it('manual assignment uses the list, and a wrong length or unknown id is refused before the run', () => {
    const ids = ['p01', 'p02', 'p03', 'p04', 'p05'];
    const c = cfg({ community: { assignment: 'manual', personaIds: ids } });
    expect(assignPersonas(c, 5, 0)).toEqual(ids);
    expect(communityProblem(c)).toBeNull();
    expect(communityProblem(cfg({ community: { assignment: 'manual', personaIds: ids.slice(0, 4) } }))).toMatch(/lists 4 personas.*5 nodes/);
    expect(communityProblem(cfg({ community: { assignment: 'manual', personaIds: [...ids.slice(0, 4), 'nobody'] } }))).toMatch(/"nobody"/);
    expect(communityProblem(cfg({ community: { questionId: 'nope' } }))).toMatch(/no question "nope"/);
    const plan = opinionsRunner.plan(cfg({ graph: { generator: 'square', side: 64 } }));
    expect(plan.unavailable).toMatch(/too large/);
  });
});

describe('inbox routing', () => {
  it('files each delivered message by the sign of the edge, and skips silent senders', () => {
    // 0 —(+)— 1, 0 —(−)— 2, 1 —(+)— 2, 3 isolated
    const g = fromEdges(4, [
      [0, 1, 1],
      [0, 2, -1],
      [1, 2, 1],
    ]);
    const r = routeInboxes(g, ['m0', 'm1', 'm2', 'm3']);
    expect(r.friendly).toEqual([[1], [0, 2], [1], []]);
    expect(r.unfriendly).toEqual([[2], [], [0], []]);
    const silent = routeInboxes(g, ['m0', null, 'm2', 'm3']);
    expect(silent.friendly).toEqual([[], [0, 2], [], []]);
    expect(silent.unfriendly).toEqual([[2], [], [0], []]);
  });
});

describe('vote aggregation with parse failures', () => {
  it('averages the parsed votes only, and keeps the previous state when none parse', () => {
    expect(aggregateVotes(['A', null, 'B', 'A'])).toEqual({ obar: 1 / 3, spin: 1, parsed: 3 });
    expect(aggregateVotes(['Disagree', 'Disagree', null])).toEqual({ obar: -1, spin: -1, parsed: 2 });
    expect(aggregateVotes([null, null], { obar: -0.6, spin: -1 })).toEqual({ obar: -0.6, spin: -1, parsed: 0 });
    expect(aggregateVotes([null, null])).toEqual({ obar: 0, spin: 1, parsed: 0 });
    expect(aggregateVotes(['A', 'B'], { obar: -1, spin: -1 })).toEqual({ obar: 0, spin: -1, parsed: 2 });
  });
});

describe('episode indexing', () => {
  it('maps episodes to (question, graph, trajectory, round) and back', () => {
    const c = cfg({ community: { questions: ['s01', 'o02'], graphs: 3, trajectories: 2, rounds: 4 } });
    const L = communityLayout(c);
    expect(L).toEqual({ questions: 2, graphs: 3, trajectories: 2, rounds: 5, episodes: 60 });
    expect(opinionsRunner.plan(c).episodes).toBe(60);
    const seen = new Set<string>();
    for (let i = 0; i < L.episodes; i++) {
      const s = episodeSlot(L, i);
      expect(slotIndex(L, s)).toBe(i);
      seen.add(`${s.q}/${s.g}/${s.e}/${s.t}`);
      if (s.t > 0) expect(episodeSlot(L, i - 1)).toEqual({ ...s, t: s.t - 1 });
    }
    expect(seen.size).toBe(60);
    expect(episodeSlot(L, 5)).toEqual({ q: 0, g: 0, e: 1, t: 0 });
    expect(episodeSlot(L, 30)).toEqual({ q: 1, g: 0, e: 0, t: 0 });
    // A custom graph is one graph whatever `graphs` says; graph 0 is the editor's graph.
    expect(communityLayout(cfg({ custom: { nodes: 3, edges: '0+1,1-2' }, community: { graphs: 5 } })).graphs).toBe(1);
  });
});

describe('a community run on a deterministic fake model', () => {
  it('stores one round per episode with every vote, message and parse failure, and routes inboxes by sign', async () => {
    const log: { prompt: string; seed: string }[] = [];
    const c = cfg();
    const bundle = await runAll(c, log);
    expect(bundle.episodes.length).toBe(3);
    const graph = communityGraph(c, 0);
    let failures = 0;
    for (const ep of bundle.episodes) {
      const r = roundRow(ep)!;
      const rows = agentRows(ep);
      expect(rows.length).toBe(5);
      expect(r.t).toBe(ep.index);
      for (const a of rows) {
        expect(a.rawVotes.length).toBe(3);
        expect(a.votes.filter((v) => v === null).length).toBe(a.voteFailures);
        failures += a.voteFailures;
        // Inboxes: exactly the neighbours that delivered a message, split by edge sign.
        if (r.t > 0) {
          const delivered = rows.map((x) => x.message);
          const want = routeInboxes(graph, delivered);
          expect(a.friendlyFrom).toEqual(want.friendly[a.agent]);
          expect(a.unfriendlyFrom).toEqual(want.unfriendly[a.agent]);
          expect(a.rawMessages.length).toBeGreaterThanOrEqual(1);
        } else expect(a.rawMessages).toEqual([]);
      }
      expect(r.voteFailures).toBe(rows.reduce((s, a) => s + a.voteFailures, 0));
      expect(r.n).toBeCloseTo(rows.reduce((s, a) => s + a.obar, 0) / 5, 12);
    }
    expect(failures).toBeGreaterThan(0);
    const res = resultOf(opinionsResults, bundle.results, 'community')!;
    expect(res.votes).toBe(45);
    expect(res.voteFailures).toBe(failures);
    // Every call has its own seed.
    expect(new Set(log.map((l) => l.seed)).size).toBe(log.length);
    // A vote prompt in round 1 shows a friendly neighbour's message under the friendly heading.
    const r1 = agentRows(bundle.episodes[1]).find((a) => a.friendlyFrom.length > 0)!;
    const sender = agentRows(bundle.episodes[1])[r1.friendlyFrom[0]];
    const prompt = log.find((l) => l.seed.endsWith(`/t1/a${r1.agent}/v0`))!.prompt;
    const friendlyPart = prompt.split('Messages from people you tend to disagree with:')[0].split('Messages from people you tend to agree with:')[1];
    expect(friendlyPart).toContain(sender.message!);
  });

  it('writes records that fit the lab record schema: round and agent rows', async () => {
    const bundle = await runAll(cfg({ community: { questionKind: 'objective' } }));
    expect(expectRecordsFit(opinionsRecord, bundle.episodes)).toEqual(['agent', 'round']);
  });

  it('produces trajectories in the shared shape, ready for the fits', async () => {
    const c = cfg({ community: { questionId: 'o04', trajectories: 2 } });
    const bundle = await runAll(c);
    const trajs = trajectoriesFromRun(c, bundle.episodes);
    expect(trajs.length).toBe(2);
    for (const t of trajs) {
      expect(t.voteMeans.length).toBe(3);
      for (const row of t.voteMeans) expect(row.length).toBe(5);
      expect(t.question.kind).toBe('objective');
      expect([1, -1]).toContain(t.question.correct);
      expect(t.graph.n).toBe(5);
      expect(t.graph.edges.length).toBe(7);
      const ep = toIsingEpisode(t);
      expect(ep.states.length).toBe(15);
    }
    expect(trajs[0].id).toBe('o04/g0/e0');
    const fromResult = resultOf(opinionsResults, bundle.results, 'trajectories')!;
    expect(fromResult.trajectories).toEqual(trajs);
    // The Fit panel and `ising fit` read them from the run's result, validated like an imported file.
    expect(validateTrajectoryFile(fromResult).ok).toBe(true);
    const read = trajectoriesFromBundle(bundle);
    expect(read.ok && read.source).toBe('result');
    expect(read.ok && read.trajectories).toEqual(trajs);
    // Incomplete trajectories are left out unless asked for.
    expect(trajectoriesFromRun(c, bundle.episodes.slice(0, 4)).length).toBe(1);
    expect(trajectoriesFromRun(c, bundle.episodes.slice(0, 4), { partial: true }).map((t) => t.voteMeans.length)).toEqual([3, 1]);
  });

  it('a run resumed at any round repeats the uninterrupted run exactly', async () => {
    const c = cfg({ community: { rounds: 3, trajectories: 2, update: 'async', epsilon: 0.6 } });
    const full = await runAll(c);
    const models = fakeModels();
    for (const cut of [1, 2, 5]) {
      const stored = full.episodes.slice(0, cut);
      const resumed: Episode<OpinionsRecord>[] = [...stored];
      for (let index = cut; index < full.episodes.length; index++) {
        resumed.push(
          await opinionsRunner.runEpisode(c, {
            index,
            rng: episodeRng(c.seed, index),
            signal: new AbortController().signal,
            progress: () => {},
            previous: resumed[index - 1],
            models,
          }),
        );
      }
      const strip = (eps: Episode[]) => eps.map((e) => e.records.map((r) => ({ ...r, seconds: 0 })));
      expect(strip(resumed)).toEqual(strip(full.episodes));
    }
    // Round t needs round t−1 of the same trajectory as `previous`.
    await expect(
      opinionsRunner.runEpisode(c, {
        index: 2,
        rng: episodeRng(c.seed, 2),
        signal: new AbortController().signal,
        progress: () => {},
        previous: full.episodes[0],
        models,
      }),
    ).rejects.toThrow(/needs round 1/);
    await expect(
      opinionsRunner.runEpisode(c, {
        index: 1,
        rng: episodeRng(c.seed, 1),
        signal: new AbortController().signal,
        progress: () => {},
        models: undefined,
        previous: full.episodes[0],
      }),
    ).rejects.toThrow(/needs loaded models/);
  });

  it('async: with ε = 0 nobody moves after round 0; with ε = 1 it is the sync run', async () => {
    const frozen = await runAll(cfg({ community: { update: 'async', epsilon: 0 } }));
    const r0 = agentRows(frozen.episodes[0]).map((a) => [a.obar, a.spin]);
    for (const ep of frozen.episodes.slice(1)) {
      expect(agentRows(ep).map((a) => [a.obar, a.spin])).toEqual(r0);
      expect(agentRows(ep).every((a) => !a.updated && a.rawVotes.length === 0 && a.message === null)).toBe(true);
      expect(roundRow(ep)!.calls).toBe(0);
    }
    const sync = await runAll(cfg());
    const all = await runAll(cfg({ community: { update: 'async', epsilon: 1 } }));
    const strip = (eps: Episode[]) => eps.map((e) => e.records.map((r) => ({ ...r, seconds: 0 })));
    expect(strip(all.episodes)).toEqual(strip(sync.episodes));
  });

  it('live plot follows the current trajectory: n(t), c(t), and the fraction correct for objective questions', async () => {
    const c = cfg({ community: { questionId: 'o01' } });
    const bundle = await runAll(c);
    const plot = opinionsRunner.livePlot!(c, bundle.episodes)!;
    expect(plot.series.map((s) => s.name)).toEqual(['n(t)', 'c(t)', 'fraction correct']);
    expect(plot.series[0].values.length).toBe(3);
    expect(defaultConfig(opinionsLab).mode).toBe('simulation');
  });

  it("asks a host that decodes together for a round's messages and every agent's K votes at once, with the seeds one call per reply would use", async () => {
    const base = fakeModels().get('tiny-social');
    const batches: (number | string)[][][] = [];
    const shared: RunnerModels = {
      get: () => ({
        ...base,
        // A lone request (a retry that only one agent needs) is a plain call: recorded as a batch of one.
        async generate(o: RunnerGenerateOptions) {
          batches.push([[o.seed ?? 0]]);
          return base.generate(o);
        },
        async generateSamples(requests: readonly RunnerSampleRequest[]) {
          batches.push(requests.map((r) => [...r.seeds]));
          return Promise.all(requests.map(({ options, seeds }) => Promise.all(seeds.map((seed) => base.generate({ ...options, seed })))));
        },
      }),
    };
    const c = cfg();
    const batched = await runHeadless(opinionsLab, opinionsRunner, c, { models: shared });
    const lone = await runAll(c);
    // Every record but the round's wall-clock seconds.
    const rows = (b: typeof lone) =>
      JSON.stringify(
        b.episodes.map((e) => e.records),
        (k, v) => (k === 'seconds' ? undefined : v),
      );
    expect(rows(batched)).toBe(rows(lone));
    // Votes: one batch per round holding every voting agent, each with K = 3 seeds ending in /v0, /v1, /v2.
    const votes = batches.filter((b) => b.every((seeds) => seeds.length === 3));
    const voters = lone.episodes.flatMap(agentRows).filter((a) => a.rawVotes.length).length;
    expect(votes.length).toBe(lone.episodes.length);
    expect(votes.flat().length).toBe(voters);
    expect(votes.flat().every((seeds) => seeds.every((s, k) => String(s).endsWith(`/v${k}`)))).toBe(true);
    // Messages (rounds t ≥ 1): each try is one batch of the agents still without a parsed message, one seed each.
    const messages = batches.filter((b) => b.every((seeds) => seeds.length === 1));
    const tries = lone.episodes.flatMap(agentRows).reduce((a, r) => a + r.rawMessages.length, 0);
    expect(messages.flat().length).toBe(tries);
    expect(messages.flat().every(([s]) => /\/m\d$/.test(String(s)))).toBe(true);
    expect(messages.some((b) => b.length > 1)).toBe(true);
  });

  it("replies that look like markup are stored defused, so the run's bundle still imports", async () => {
    expect(storable('I agree because x y.')).toEqual({ text: 'I agree because x y.', escaped: false });
    expect(storable('<img src=x onerror=alert(1)> I agree because x').escaped).toBe(true);
    const base = fakeModels().get('tiny-social');
    const hostile: RunnerModels = {
      get: () => ({
        ...base,
        async generate(o: RunnerGenerateOptions) {
          const r = await base.generate(o);
          const prompt = o.messages![0].content;
          if (prompt.includes('Write one short sentence')) return { ...r, text: `<a href="javascript:alert(1)">x</a> ${r.text}` };
          return { ...r, text: r.text === 'Maybe' ? '<script>alert(1)</script>' : r.text };
        },
      }),
    };
    const c = cfg();
    const bundle = await runHeadless(opinionsLab, opinionsRunner, c, { models: hostile });
    const rows = bundle.episodes.flatMap(agentRows);
    expect(rows.some((r) => r.escaped > 0)).toBe(true);
    // Still counted: the defused junk votes are failures, the messages (stance found after the markup) are not.
    expect(rows.reduce((s, r) => s + r.voteFailures, 0)).toBeGreaterThan(0);
    const back = readBundle(writeBundle(bundle), LAB_MODULES);
    expect(back.episodes.length).toBe(3);
    expect(JSON.stringify(back.episodes.map((e) => e.records))).not.toMatch(/<a |<script/);
  });
});
