import { REPLY_FORMATS } from '../../src/core/prompts/formats';
import { GRAMMAR_MAX_CHARS } from '../../src/core/prompts/grammars';
import { describe, expect, it } from 'vitest';
import { synchronyLab } from '../../src/labs/synchrony/config';
import { validateConfig } from '../../src/core/config/validate';
import { createSynchronyRunner } from '../../src/labs/synchrony/runner';
import { buildQueue, type ScenarioSource, type SynchronyConfig } from '../../src/labs/synchrony/queue';
import { analyzeSynchrony } from '../../src/labs/synchrony/analysis';
import { createInProcessExecutor } from '../../src/core/grid-tasks';

const analyze = (c: Parameters<typeof analyzeSynchrony>[0], eps: Parameters<typeof analyzeSynchrony>[1]) =>
  analyzeSynchrony(c, eps, undefined, { grids: createInProcessExecutor() });
import { JUDGE_DIMENSIONS, type RelationshipLevel, type SynchronyEpisode } from '../../src/core/prompts/synchrony';
import { episodeRng } from '../../src/core/runs/runner';
import type { Episode } from '../../src/core/runs/types';
import { ContextOverflowError, type RunnerModel } from '../../src/core/runs/models';
import { STATE_TENSORS } from '../../src/labs/synchrony/types';
import { fakeSyncModel, testPersona } from '../helpers/fake-sync-model';
import { synchronyRecord, type SynchronyRecord } from '../../src/labs/synchrony/records';
import { expectRecordsFit } from '../helpers/records-fit';

const persona = testPersona;

/** Six scenarios with two pairings each; relationship = scenario number mod 6. */
const source: ScenarioSource = {
  ids: (c) => (c.scenarios.length ? c.scenarios : ['s0', 's1', 's2']),
  pairings: () => 2,
  episode: (_c, id, pairing) => {
    const n = Number(id.slice(1));
    const ep: SynchronyEpisode = {
      scenario: `Scenario ${id}: two people share a table.`,
      relationship: (n % 6) as RelationshipLevel,
      agents: [
        { persona: persona(`Ana${pairing}`), goal: 'Get the window seat.' },
        { persona: persona(`Ben${pairing}`), goal: 'Keep the window seat.' },
      ],
      facts: [{ text: 'Only Ana knows the cafe closes soon.', visibleTo: 0 }],
    };
    return { episode: ep, title: `Title ${id}` };
  },
};

function config(over: Record<string, unknown> = {}): SynchronyConfig {
  const r = validateConfig(synchronyLab, { seed: 7, ...over });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value as SynchronyConfig;
}

function modelsOf(...list: RunnerModel[]) {
  const map = new Map(list.map((m) => [m.id, m]));
  return { get: (id: string) => map.get(id) ?? list[0] };
}

async function runAll(c: SynchronyConfig, models: ReturnType<typeof modelsOf>, notes: string[] = []): Promise<Episode<SynchronyRecord>[]> {
  const runner = createSynchronyRunner(source);
  const plan = runner.plan(c);
  const out: Episode<SynchronyRecord>[] = [];
  for (let index = 0; index < plan.episodes; index++) {
    out.push(
      await runner.runEpisode(c, {
        index,
        rng: episodeRng(c.seed, index),
        signal: new AbortController().signal,
        progress: (_f, n) => n && notes.push(n),
        models,
      }),
    );
  }
  return out;
}

describe('synchrony queue', () => {
  it('is scenarios × pairings × pairs × seeds × orders, with one group per scenario × pairing × pair', () => {
    const c = config({
      scenarios: ['s0', 's1'],
      pairingsPerScenario: 2,
      episodeSeeds: [0, 1, 2],
      pairs: [
        { a: 'x', b: 'y' },
        { a: 'y', b: 'y' },
      ],
    });
    const q = buildQueue(c, source);
    expect(q.length).toBe(2 * 2 * 2 * 3 * 2);
    expect(new Set(q.map((i) => i.group)).size).toBe(2 * 2 * 2);
    // every seed and both speaking orders of one combination share a group
    const g0 = q.filter((i) => i.group === 0);
    expect(new Set(g0.map((i) => `${i.scenarioId}/${i.pairing}/${i.pairIndex}`)).size).toBe(1);
    expect(new Set(g0.map((i) => `${i.seed}/${i.first}`)).size).toBe(6);
    expect(createSynchronyRunner(source).plan(c).models.sort()).toEqual(['x', 'y']);
  });

  it('asks for fewer pairings when a scenario has fewer, and names the judge model', () => {
    const c = config({ scenarios: ['s0'], pairingsPerScenario: 5, bothOrders: false, judge: { enabled: true, model: 'judge-m' } });
    expect(buildQueue(c, source).length).toBe(2);
    expect(createSynchronyRunner(source).plan(c).models).toContain('judge-m');
  });

  it('migrates a version-1 link with one pair of agents', () => {
    const r = validateConfig(synchronyLab, { agents: { a: 'p', b: 'q' } }, 1);
    expect(r.ok && (r.value as SynchronyConfig).pairs).toEqual([{ a: 'p', b: 'q' }]);
  });
});

/** A judge reply that parseJudge accepts: every dimension scored 0 (inside every range) with a reason. */
const judgeReply = (): string => JSON.stringify(Object.fromEntries(JUDGE_DIMENSIONS.map((d) => [d, { score: 0, reason: 'ok' }])));

describe('synchrony episodes', () => {
  it('alternates speakers from the one who starts, records every turn’s states, and stops at 2 × the limit', async () => {
    const m = fakeSyncModel();
    const c = config({ scenarios: ['s0'], pairingsPerScenario: 1, maxUtterancesPerAgent: 3 });
    const [ab, ba] = await runAll(c, modelsOf(m));
    const turns = (e: Episode) => e.records.filter((r) => r.kind === 'turn');
    expect(turns(ab).map((t) => t.speaker)).toEqual(['A', 'B', 'A', 'B', 'A', 'B']);
    expect(turns(ba).map((t) => t.speaker)).toEqual(['B', 'A', 'B', 'A', 'B', 'A']);
    expect(ab.tensors.statesA.shape).toEqual([3, 3, 8]);
    expect(ab.tensors.statesB.shape).toEqual([3, 3, 8]);
    // the states stored are the ones generate() returned, in speaking order
    expect(Array.from(ab.tensors.statesA.data.slice(0, 24) as Float32Array)).toEqual(Array.from((await m.generate(m.calls[0].options)).prefillStates!));
    // the hidden fact reaches agent A's prompt only
    expect(m.calls[0].prompt).toContain('cafe closes soon');
    expect(m.calls[1].prompt).not.toContain('cafe closes soon');
    expect(m.calls[1].prompt).toMatch(/^Turn 1: Ana0 said: /m);
    // each turn samples with its own seed, at the config's temperature, stopping at the first newline
    expect(new Set(m.calls.slice(0, 6).map((x) => x.options.seed)).size).toBe(6);
    expect(m.calls[0].options).toMatchObject({ temperature: 0.7, stop: ['\n'] });
    // top-p, min-p, top-k and the prompt boost left empty: the model's own (the host fills them in)
    expect(m.calls[0].options).toMatchObject({ topP: undefined, minP: undefined, topK: undefined, promptBoost: undefined, repetitionPenalty: undefined });
  });

  it('samples every turn at the top-p, min-p, top-k and prompt boost the settings give', async () => {
    const m = fakeSyncModel();
    await runAll(
      config({ scenarios: ['s0'], pairingsPerScenario: 1, maxUtterancesPerAgent: 2, topP: 0.8, minP: 0.05, topK: 20, promptBoost: 1, repetitionPenalty: 1.1 }),
      modelsOf(m),
    );
    const turns = m.calls.filter((x) => x.options.temperature === 0.7);
    expect(turns.length).toBeGreaterThan(0);
    for (const t of turns) expect(t.options).toMatchObject({ topP: 0.8, minP: 0.05, topK: 20, promptBoost: 1, repetitionPenalty: 1.1 });
    // a top-k that is not a whole number is refused with the field named, as a link or a form would give it
    const bad = validateConfig(synchronyLab, { topK: 2.5 }, synchronyLab.version);
    expect(bad.ok ? [] : bad.errors.map((e) => e.path)).toEqual(['topK']);
  });

  it('ends the episode when an agent says it leaves, and counts an unparseable reply', async () => {
    const m = fakeSyncModel({ script: (_p, call) => (call === 1 ? '   ' : call === 2 ? 'Fine, I am leaving now.' : undefined) });
    const c = config({ scenarios: ['s0'], pairingsPerScenario: 1, bothOrders: false });
    const [e] = await runAll(c, modelsOf(m));
    const turns = e.records.filter((r) => r.kind === 'turn');
    expect(turns.length).toBe(3);
    expect(turns[1]).toMatchObject({ parsed: false, text: '' });
    expect(turns[2]).toMatchObject({ leaves: true });
    expect(m.calls[2].prompt).toMatch(/^Turn 2: Ben0 said: \.\.\.$/m);
    expect((await analyze(c, [e])).parse).toEqual({ turns: 3, failed: 1 });
  });

  it('ends a dialogue that outgrows the model’s context, keeps its turns and records where, and goes on', async () => {
    const m = fakeSyncModel();
    const generate = m.generate.bind(m);
    // The fourth turn's prompt no longer fits in the first episode; the second episode is short enough.
    m.generate = async (o) => {
      if ((o.messages?.[0]?.content.match(/^Turn \d+: .* said:/gm) ?? []).length >= 3 && m.calls.length < 6)
        throw new ContextOverflowError('The prompt has 1051 tokens, but model "fake" reads at most 1024');
      return generate(o);
    };
    const c = config({ scenarios: ['s0'], pairingsPerScenario: 1, bothOrders: true, maxUtterancesPerAgent: 3 });
    const notes: string[] = [];
    const [first, second] = await runAll(c, modelsOf(m), notes);
    expect(first.records.filter((r) => r.kind === 'turn')).toHaveLength(3);
    expect(first.records.find((r) => r.kind === 'meta')).toMatchObject({ contextFullAt: 3 });
    expect(first.tensors[STATE_TENSORS.A].shape[0] + first.tensors[STATE_TENSORS.B].shape[0]).toBe(3);
    expect(notes.some((n) => /filled fake's context at turn 4/.test(n))).toBe(true);
    expect(second.records.find((r) => r.kind === 'meta')).not.toHaveProperty('contextFullAt');
    expect(second.records.filter((r) => r.kind === 'turn')).toHaveLength(6);
    expectRecordsFit(synchronyRecord, [first, second]);
  });
  it('repeats exactly when an episode is run again (resume), and differs with another run seed', async () => {
    const c = config({ scenarios: ['s1'], pairingsPerScenario: 1, bothOrders: false, maxUtterancesPerAgent: 2 });
    const [a] = await runAll(c, modelsOf(fakeSyncModel()));
    const [b] = await runAll(c, modelsOf(fakeSyncModel()));
    const [d] = await runAll({ ...c, seed: 8 }, modelsOf(fakeSyncModel()));
    expect(b.records).toEqual(a.records);
    expect(d.records).not.toEqual(a.records);
  });

  it('re-encodes each agent’s prompts as a passive reader: no act instruction, no open cue, one per utterance', async () => {
    const m = fakeSyncModel();
    const c = config({ scenarios: ['s0'], pairingsPerScenario: 1, bothOrders: false, maxUtterancesPerAgent: 2, controls: { passiveReader: true } });
    const [e] = await runAll(c, modelsOf(m));
    expect(m.encoded.length).toBe(4);
    for (const p of m.encoded) {
      expect(p).toMatch(/^Imagine you are Sam Rivera, reading an interaction between two other people, Ana0 and Ben0\./);
      expect(p).not.toMatch(/your turn|say that you leave|goal: Unknown/);
    }
    expect(e.tensors.passiveA.shape).toEqual(e.tensors.statesA.shape);
  });

  /** The config, the episode and its judge records of one episode of scenario s0, played by the fake agents and judged by `judgeModel` ("judge-m"). */
  async function judgedEpisode(judgeModel: ReturnType<typeof fakeSyncModel>, maxUtterancesPerAgent: number) {
    const c = config({ scenarios: ['s0'], pairingsPerScenario: 1, bothOrders: false, maxUtterancesPerAgent, judge: { enabled: true, model: 'judge-m' } });
    const [e] = await runAll(c, modelsOf(fakeSyncModel(), judgeModel));
    return { c, e, judges: e.records.filter((r) => r.kind === 'judge') };
  }

  it('judges both agents with strict JSON and retries a bad answer', async () => {
    const good = judgeReply();
    const judgeModel = fakeSyncModel({ id: 'judge-m', script: (p, call) => (p.startsWith('Rate how') ? (call === 0 ? 'not json' : good) : undefined) });
    const { judges } = await judgedEpisode(judgeModel, 1);
    expect(judges.map((j) => [j.target, j.ok, j.attempts])).toEqual([
      ['A', true, 2],
      ['B', true, 1],
    ]);
    expect(judgeModel.calls[1].options.temperature).toBe(0.7);
  });

  it('judges a conversation too long for its model on the opening and the last turns that fit, and records how many it left out', async () => {
    const good = judgeReply();
    const judgeModel = fakeSyncModel({ id: 'judge-m', script: (p) => (p.startsWith('Rate how') ? good : undefined) });
    const generate = judgeModel.generate.bind(judgeModel);
    // This judge's context holds at most three turns of the six.
    judgeModel.generate = async (o) => {
      if ((o.messages?.[0]?.content.match(/^Turn \d+: .* said:/gm) ?? []).length > 3)
        throw new ContextOverflowError('The prompt has 1051 tokens, but model "judge-m" reads at most 1024');
      return generate(o);
    };
    const { c, e, judges } = await judgedEpisode(judgeModel, 3);
    expect(judges.map((j) => [j.target, j.ok, j.turnsLeftOut])).toEqual([
      ['A', true, 3],
      ['B', true, 3],
    ]);
    // The prompt that fitted: turns 1 and 2, a line saying 3 to 5 are left out, then turn 6, numbered as in the run.
    const fitted = judgeModel.calls.filter((x) => x.prompt.startsWith('Rate how')).at(-1)!.prompt;
    expect([...fitted.matchAll(/^Turn (\d+): /gm)].map((m) => m[1])).toEqual(['1', '2', '6']);
    expect(fitted).toContain('(Turns 3 to 5 are left out: the whole conversation is too long for the judge.)');
    expectRecordsFit(synchronyRecord, [e]);

    // A judge that reads the whole conversation records nothing left out.
    const [whole] = await runAll({ ...c, maxUtterancesPerAgent: 1 }, modelsOf(fakeSyncModel(), judgeModel));
    for (const j of whole.records.filter((r) => r.kind === 'judge')) expect(j).not.toHaveProperty('turnsLeftOut');
  });

  it('a constrained judge asks under the judge-json grammar with room for its longest reply; a free one does not', async () => {
    for (const decoding of ['free', 'constrained'] as const) {
      const judgeModel = fakeSyncModel({ id: 'judge-m' });
      const c = config({
        scenarios: ['s0'],
        pairingsPerScenario: 1,
        bothOrders: false,
        maxUtterancesPerAgent: 1,
        judge: { enabled: true, model: 'judge-m', decoding },
      });
      await runAll(c, modelsOf(fakeSyncModel(), judgeModel));
      const judgeCalls = judgeModel.calls.filter((x) => x.prompt.startsWith('Rate how'));
      expect(judgeCalls.length).toBeGreaterThan(0);
      for (const call of judgeCalls) {
        expect(call.options.grammar).toBe(decoding === 'constrained' ? REPLY_FORMATS['judge-json'].grammar!() : undefined);
        // Its longest reply (GRAMMAR_MAX_CHARS.judgeJson, 880 characters) at one character a token, and the end.
        expect(call.options.maxNewTokens).toBe(decoding === 'constrained' ? GRAMMAR_MAX_CHARS.judgeJson() + 1 : 400);
      }
    }
  });

  it('writes records that fit the lab record schema: meta, turns (parsed or not) and judge rows', async () => {
    // The judge answers its first call (agent A of episode 0) and never again: judge rows with scores and with errors.
    const good = judgeReply();
    const judgeModel = fakeSyncModel({ id: 'judge-m', script: (p, call) => (p.startsWith('Rate how') ? (call === 0 ? good : 'not json') : undefined) });
    const c = config({
      scenarios: ['s0', 's1'],
      pairingsPerScenario: 1,
      bothOrders: true,
      controls: { passiveReader: true },
      judge: { enabled: true, model: 'judge-m' },
    });
    const episodes = await runAll(c, modelsOf(fakeSyncModel({ script: (_p, call) => (call === 1 ? '   ' : undefined) }), judgeModel));
    expect(expectRecordsFit(synchronyRecord, episodes)).toEqual(['judge', 'meta', 'turn']);
    const judges = episodes.flatMap((e) => e.records.filter((r) => r.kind === 'judge'));
    expect(judges.some((j) => j.ok && j.scores) && judges.some((j) => !j.ok && j.error)).toBe(true);
    expect(episodes[0].records.some((r) => r.kind === 'turn' && !r.parsed)).toBe(true);
  });

  it('refuses to run without models, with a message that says so', async () => {
    const runner = createSynchronyRunner(source);
    await expect(runner.runEpisode(config(), { index: 0, rng: episodeRng(1, 0), signal: new AbortController().signal, progress: () => {} })).rejects.toThrow(
      /needs loaded models/,
    );
  });
});

describe('synchrony analysis on a model whose states follow the dialogue', () => {
  it('finds real synchrony above the passive reader and above lag 5, with both directions and every relationship level', async () => {
    const c = config({
      scenarios: ['s0', 's1', 's2', 's3', 's4', 's5'],
      pairingsPerScenario: 2,
      bothOrders: false,
      episodeSeeds: [0, 1],
      controls: { passiveReader: true },
      analysis: { alphaMode: 'fixed', lags: [1, 3, 5] },
    });
    const episodes = await runAll(c, modelsOf(fakeSyncModel()));
    const a = await analyze(c, episodes);
    const by = Object.fromEntries(a.conditions.map((x) => [x.condition, x]));
    expect(a.episodes).toBe(24);
    expect(by.real.ab!.n).toBe(24 * 8 - 0); // 8 A→B pairs in each 16-turn episode starting with A
    expect(by.real.ba!.n).toBe(24 * 7);
    expect(by.real.ab!.LA).toBe(2);
    expect(by.real.syncR2!).toBeGreaterThan(0.3);
    expect(by.passive.syncR2!).toBeLessThan(by.real.syncR2! - 0.2);
    expect(by.lag5.syncR2!).toBeLessThan(by.real.syncR2!);
    expect(by.lag3.ab!.n).toBe(24 * 7);
    expect(Object.keys(by).filter((k) => k.startsWith('rel'))).toEqual(['rel0', 'rel1', 'rel2', 'rel3', 'rel4', 'rel5']);
    expect(by.rel3.warnings.join(' ')).toMatch(/rough sketch/);
    expect(by.real.se!).toBeGreaterThanOrEqual(0);
  });

  it('with the GPU engine asked for and no WebGPU (Node), runs the grids on the CPU, says so, and gives the same maps', async () => {
    const base = { scenarios: ['s0', 's1', 's2', 's3'], pairingsPerScenario: 1, bothOrders: false, episodeSeeds: [0, 1] };
    const c = config({ ...base, analysis: { alphaMode: 'fixed' } });
    const episodes = await runAll(c, modelsOf(fakeSyncModel()));
    const cpu = await analyze(c, episodes);
    const asked = await analyze(config({ ...base, analysis: { alphaMode: 'fixed', engine: 'gpu' } }), episodes);
    expect(cpu.engine).toBe('cpu');
    expect(cpu.engineNote).toBeUndefined();
    expect(asked.engine).toBe('cpu');
    expect(asked.engineNote).toMatch(/ran on the CPU \(float64\) instead of the GPU: .*WebGPU/);
    expect(asked.conditions).toEqual(cpu.conditions);
  });

  it('says why a direction is missing when there is only one episode group', async () => {
    const c = config({ scenarios: ['s0'], pairingsPerScenario: 1, bothOrders: false, maxUtterancesPerAgent: 2 });
    const a = await analyze(c, await runAll(c, modelsOf(fakeSyncModel())));
    expect(a.conditions[0].syncR2).toBeNull();
    expect(a.conditions[0].warnings.join(' ')).toMatch(/at least 2/);
  });
});

describe('synchrony plan', () => {
  it('refuses a config that names a scenario the library does not have', () => {
    const noPairings: ScenarioSource = { ...source, pairings: (_c, id) => (id === 'ghost' ? 0 : 2) };
    const plan = createSynchronyRunner(noPairings).plan(config({ scenarios: ['s0', 'ghost'] }));
    expect(plan.unavailable).toMatch(/Unknown scenario.*ghost/);
  });
});

describe('synchrony ridge α', () => {
  it('uses the fixed α when asked, and otherwise picks one from the grid per condition and direction', async () => {
    const base = { scenarios: ['s0', 's1', 's2', 's3'], pairingsPerScenario: 2, bothOrders: false, maxUtterancesPerAgent: 4 };
    const episodes = await runAll(config(base), modelsOf(fakeSyncModel()));
    const fixed = await analyze(config({ ...base, analysis: { alphaMode: 'fixed', alpha: 3 } }), episodes);
    expect(fixed.conditions[0].ab!.alpha).toBe(3);
    const cv = await analyze(config({ ...base, analysis: { alphaMode: 'cv', alphaGrid: [0.5, 5e6] } }), episodes);
    // a huge α shrinks every map to the intercept, so cross-validation must prefer the small one here
    expect(cv.conditions[0].ab!.alpha).toBe(0.5);
    expect(cv.conditions[0].ba!.alpha).toBe(0.5);
  });
});

describe('synchrony analysis on very few samples', () => {
  it('falls back to the fixed α with a warning when the α folds would be too small, instead of failing', async () => {
    const c = config({ scenarios: ['s0', 's1', 's2'], pairingsPerScenario: 1, bothOrders: false, maxUtterancesPerAgent: 2 });
    const a = await analyze(c, await runAll(c, modelsOf(fakeSyncModel())));
    const real = a.conditions[0];
    for (const d of [real.ab, real.ba]) if (d) expect(d.alpha).toBeGreaterThan(0);
    expect(real.warnings.join(' ')).not.toMatch(/ridge: need at least/);
  });
});

describe('emotion and action decoding', () => {
  const FEEL = ['calm', 'happy', 'hopeful', 'worried'];
  // Each reply carries its hidden line; the feeling cycles with the turn, so it is known before anyone speaks.
  const hiddenScript = (prompt: string) => {
    const turn = [...prompt.matchAll(/^Turn \d+: .*? said: /gm)].length;
    return `Point about turn ${turn + 1}.\nFeeling: ${FEEL[turn % 4]}; Action: ${turn % 2 ? 'refuse' : 'propose'}`;
  };

  it('asks for the hidden line, records its labels and never shows it to the partner', async () => {
    const c = config({ scenarios: ['s0'], pairingsPerScenario: 1, bothOrders: false, maxUtterancesPerAgent: 2, emotions: { enabled: true } });
    const model = fakeSyncModel({ script: hiddenScript });
    const [ep] = await runAll(c, modelsOf(model));
    expect(model.calls[0].prompt).toMatch(/Feeling: <calm\|happy/);
    expect(model.calls[0].options.stop).toEqual(['\n\n', '\nTurn ']);
    expect(model.calls[0].options.maxNewTokens).toBe(c.maxNewTokens + 24);
    const turns = ep.records.filter((r) => r.kind === 'turn');
    expect(turns.map((t) => [t.text, t.emotion, t.action])).toEqual([
      ['Point about turn 1.', 'calm', 'propose'],
      ['Point about turn 2.', 'happy', 'refuse'],
      ['Point about turn 3.', 'hopeful', 'propose'],
      ['Point about turn 4.', 'worried', 'refuse'],
    ]);
    expect(model.calls.some((k) => /said: .*Feeling/.test(k.prompt))).toBe(false);
    expectRecordsFit(synchronyRecord, [ep]);
    // Off, nothing changes: one line, no labels.
    const plain = fakeSyncModel({ script: hiddenScript });
    const [p] = await runAll(config({ scenarios: ['s0'], pairingsPerScenario: 1, bothOrders: false, maxUtterancesPerAgent: 1 }), modelsOf(plain));
    expect(plain.calls[0].prompt).not.toMatch(/Feeling/);
    expect(p.records.find((r) => r.kind === 'turn')).not.toHaveProperty('emotion');
  });

  it('probes every direction, label kind and time, and says when the model wrote no hidden line', async () => {
    const c = config({
      scenarios: ['s0', 's1', 's2', 's3', 's4', 's5'],
      pairingsPerScenario: 2,
      bothOrders: false,
      maxUtterancesPerAgent: 4,
      emotions: { enabled: true },
      controls: { byRelationship: false },
      analysis: { alphaMode: 'fixed', lags: [1] },
    });
    const a = await analyze(c, await runAll(c, modelsOf(fakeSyncModel({ script: hiddenScript }))));
    const d = a.decoding!;
    expect(d.turns).toBe(12 * 8);
    expect(d.labelled).toEqual({ emotion: 96, action: 96 });
    expect(d.curves.map((x) => `${x.direction} ${x.kind} ${x.time}`)).toHaveLength(12);
    for (const x of d.curves) {
      expect(x.probe).toHaveLength(2);
      expect(x.bestLayer).toBeGreaterThanOrEqual(1);
      expect(Number.isFinite(x.gain) && Number.isFinite(x.baseline)).toBe(true);
    }
    // A→B next: the partner replies at t + 1, so A (at turns 1, 3, 5, 7) is followed 4 times an episode.
    expect(d.curves.find((x) => x.direction === 'A→B' && x.kind === 'emotion' && x.time === 'next')!.n).toBe(12 * 4);
    // Current (t − 1) follows A's turns 3, 5 and 7; previous (t − 3) only its turns 5 and 7.
    expect(d.curves.find((x) => x.direction === 'A→B' && x.kind === 'emotion' && x.time === 'current')!.n).toBe(12 * 3);
    expect(d.curves.find((x) => x.direction === 'A→B' && x.kind === 'emotion' && x.time === 'previous')!.n).toBe(12 * 2);
    const silent = await analyze(c, await runAll(c, modelsOf(fakeSyncModel())));
    expect(silent.decoding!.warnings.join(' ')).toMatch(/No turn has a readable hidden line/);
  });
});
