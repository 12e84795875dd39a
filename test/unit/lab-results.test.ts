import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { validateConfig } from '../../src/core/config/validate';
import { runHeadless } from '../../src/core/runs/headless';
import { readBundle, writeBundle, type RunBundle } from '../../src/core/runs/bundle';
import { checkResult, readResult, resultOf, staleResults, type ResultsDefinition } from '../../src/core/runs/results';
import type { RunnerModels } from '../../src/core/runs/models';
import { textModel } from '../helpers/text-model';
import type { RunResult } from '../../src/core/runs/types';
import { hashSeed } from '../../src/core/rng';
import { LAB_MODULE_BY_NAME, LAB_MODULES, openLabByName } from '../../src/labs/registry';
import { defineLabModule, parseConfig } from '../../src/labs/lab-module';
import type { LabDefinition, LabName } from '../../src/core/config/lab-definition';
import type { RelationshipLevel } from '../../src/core/prompts/synchrony';
import type { z } from 'zod';
import { RunStore } from '../../src/store/run-store';
import { synchronyLab } from '../../src/labs/synchrony/config';
import { createSynchronyRunner } from '../../src/labs/synchrony/runner';
import type { ScenarioSource } from '../../src/labs/synchrony/queue';
import { synchronyResults } from '../../src/labs/synchrony/results';
import { similarityLab } from '../../src/labs/similarity/config';
import { similarityRunner } from '../../src/labs/similarity/runner';
import { similarityResults } from '../../src/labs/similarity/results';
import { polarizationLab } from '../../src/labs/polarization/config';
import { polarizationRunner } from '../../src/labs/polarization/runner';
import { polarizationResults } from '../../src/labs/polarization/results';
import { opinionsLab } from '../../src/labs/opinions/config';
import { opinionsRunner } from '../../src/labs/opinions/runner';
import { opinionsResults } from '../../src/labs/opinions/results';
import { trajectoriesFromBundle } from '../../src/labs/opinions/fit-data';
import { fakeSyncModel, testPersona } from '../helpers/fake-sync-model';
import { fakeGameModel } from '../helpers/fake-game-model';
import { fakeProbeModel } from '../helpers/fake-probe-model';
import { fakePolarizationAgent, fakePolarizationBundle } from '../helpers/fake-polarization-agent';
import { expectResultsFit, holdsNonFinite } from '../helpers/results-fit';

/** A config of lab `def`, validated as a link's would be, typed by its schema. */
function parsed<S extends z.ZodObject>(def: LabDefinition<S, LabName>, raw: Record<string, unknown>): z.output<S> {
  const r = validateConfig(def, raw);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return parseConfig(def, r.value);
}

/** A copy of one result with the value at `path` replaced. */
function damaged(result: RunResult, path: (string | number)[], value: unknown): RunResult {
  const copy = structuredClone(result);
  let at: unknown = copy.value;
  for (const k of path.slice(0, -1)) at = (at as Record<string | number, unknown>)[k];
  (at as Record<string | number, unknown>)[path[path.length - 1]] = value;
  return copy;
}

const named = (results: readonly RunResult[], name: string) => results.find((r) => r.name === name)!;

// ---- Synchrony: a judged run with the passive reader and the hidden feelings on, on the scripted dialogue model.

const persona = testPersona;
const source: ScenarioSource = {
  ids: (c) => (c.scenarios.length ? c.scenarios : ['s0', 's1', 's2']),
  pairings: () => 1,
  episode: (_c, id, pairing) => ({
    episode: {
      scenario: `Scenario ${id}: two people share a table.`,
      relationship: (Number(id.slice(1)) % 6) as RelationshipLevel,
      agents: [
        { persona: persona(`Ana${pairing}`), goal: 'Get the window seat.' },
        { persona: persona(`Ben${pairing}`), goal: 'Keep the window seat.' },
      ],
      facts: [],
    },
    title: `Title ${id}`,
  }),
};
const FEEL = ['calm', 'happy', 'hopeful', 'worried'];
const JUDGED = JSON.stringify(
  Object.fromEntries(
    ['believability', 'relationship', 'knowledge', 'secret', 'social_rules', 'financial_and_material_benefits', 'goal'].map((d) => [
      d,
      { score: 0, reason: 'ok' },
    ]),
  ),
);
function dialogueModels(): RunnerModels {
  const speaker = fakeSyncModel({
    script: (prompt) => {
      const turn = [...prompt.matchAll(/^Turn \d+: .*? said: /gm)].length;
      return `Point about turn ${turn + 1}.\nFeeling: ${FEEL[turn % 4]}; Action: ${turn % 2 ? 'refuse' : 'propose'}`;
    },
  });
  const judge = fakeSyncModel({ id: 'judge-m', script: (p) => (p.startsWith('Rate how') ? JUDGED : undefined) });
  return { get: (id) => (id === 'judge-m' ? judge : speaker) };
}

async function synchronyBundle() {
  const config = parsed(synchronyLab, {
    seed: 7,
    scenarios: ['s0', 's1', 's2', 's3'],
    bothOrders: false,
    maxUtterancesPerAgent: 2,
    controls: { passiveReader: true, byRelationship: true },
    emotions: { enabled: true },
    judge: { enabled: true, model: 'judge-m' },
    analysis: { alphaMode: 'fixed', lags: [1, 3] },
  });
  return runHeadless(synchronyLab, createSynchronyRunner(source), config, { models: dialogueModels() });
}

// ---- Similarity: three models that encode and play, two games and one novelty task, permutation p-values.

function similarityModels(): RunnerModels {
  const both = (id: string, world: string, probeWorld: string, give: number) =>
    Object.assign(fakeGameModel({ id, world, give }), { encode: fakeProbeModel({ id, world: probeWorld }).encode, numLayers: 3, hiddenSize: 6 });
  const models = [both('org/a', 'shared', 'w1', 0.9), both('org/b', 'shared', 'w1', 0.4), both('org/c', 'other', 'w2', 0.1)];
  return { get: (id) => models.find((m) => m.id === id)! };
}

async function similarityBundle() {
  const config = parsed(similarityLab, {
    seed: 9,
    models: ['org/a', 'org/b', 'org/c'],
    probes: { set: 'custom', count: 12, custom: Array.from({ length: 12 }, (_, i) => `Probe ${i} about thing ${i * 3}.`) },
    cka: { permutations: 4 },
    games: ['wordGuessing', 'publicGoods'],
    wordRounds: 2,
    rounds: 2,
    novelty: ['haiku'],
    noveltyRounds: 2,
  });
  return runHeadless(similarityLab, similarityRunner, config, { models: similarityModels() });
}

// ---- Opinions: a community on a small scripted model (some replies junk), and a screening.

function opinionsModels(): RunnerModels {
  const model = textModel('fake', (prompt, seed) => {
    const h = hashSeed(`${prompt}|${seed}`) >>> 0;
    const objective = prompt.includes('Reply with one letter') || prompt.includes('(A or B)');
    const [yes, no] = objective ? ['A', 'B'] : ['Agree', 'Disagree'];
    return prompt.includes('Write one short sentence')
      ? h % 5 === 0
        ? 'Hello.'
        : objective
          ? `I choose ${h % 2 ? 'A' : 'B'} because I checked it.`
          : `I ${h % 2 ? 'agree' : 'disagree'} because it matters.`
      : h % 6 === 0
        ? 'Maybe'
        : h % 2
          ? yes
          : no;
  });
  return { get: () => model };
}

describe('each lab’s result schemas accept what its summarize produces', { timeout: 120_000 }, () => {
  it('synchrony: the analysis with every condition, the judge’s performance and the hidden-feeling probes', async () => {
    const bundle = await synchronyBundle();
    expect(expectResultsFit(synchronyResults, bundle.results)).toEqual(['synchrony']);
    const a = resultOf(synchronyResults, bundle.results, 'synchrony')!;
    // The fixture reaches the optional and nullable parts: passive, lag and relationship conditions, a direction
    // missing for too few groups, the judge's scores, and the decoding curves.
    expect(a.conditions.map((c) => c.condition)).toEqual(expect.arrayContaining(['real', 'passive', 'lag3', 'rel0']));
    expect(a.conditions.some((c) => c.ab === null || c.ba === null)).toBe(true);
    expect(a.performance).toHaveLength(1);
    expect(a.judgeDecoding).toBe('free');
    expect(a.decoding!.curves.length).toBeGreaterThan(0);
  });

  it('similarity: CKA with p-values, games and novelty with their regressions, NaN where nothing was measured', async () => {
    const bundle = await similarityBundle();
    expect(expectResultsFit(similarityResults, bundle.results)).toEqual(['similarity']);
    const a = resultOf(similarityResults, bundle.results, 'similarity')!;
    expect(a.pairs[0].linear.p).toBeDefined();
    expect(a.games!.regressions[0].result).not.toBeNull();
    expect(a.novelty!.pairs.length).toBe(6);
    // A mean over no measurement is NaN on purpose (novelty-analysis.ts): the schema takes it.
    const withNaN = structuredClone(named(bundle.results, 'similarity'));
    const value = resultOf(similarityResults, [withNaN], 'similarity')!;
    value.novelty!.pairs[0].mi = [NaN, NaN];
    expect(expectResultsFit(similarityResults, [{ name: 'similarity', value }])).toEqual(['similarity']);
  });

  it('polarization: a classic run, an LLM run with its echo table, and a mechanism sweep with NaN SEs of one seed', async () => {
    const classic = await runHeadless(polarizationLab, polarizationRunner, parsed(polarizationLab, { seed: 2, agents: 20, epochs: 3 }));
    const llm = await fakePolarizationBundle();
    const sweep = await runHeadless(
      polarizationLab,
      polarizationRunner,
      parsed(polarizationLab, {
        seed: 9,
        agents: 8,
        epochs: 2,
        agentKind: 'llm',
        model: 'fake-agent',
        network: { generator: 'ring', degree: 2 },
        mechanisms: { enabled: true, traits: ['confirmationBias'], traitShares: [0.5], eliteStances: ['neutral'], seeds: 1, readFrom: 1 },
      }),
      { models: { get: () => fakePolarizationAgent() } },
    );
    expect(expectResultsFit(polarizationResults, [...classic.results, ...llm.results, ...sweep.results])).toEqual(['mechanisms', 'polarization']);
    expect(resultOf(polarizationResults, llm.results, 'polarization')!.echo).toBeDefined();
    const m = resultOf(polarizationResults, sweep.results, 'mechanisms')!;
    expect(m.conditions.map((c) => c.condition.kind)).toEqual(['trait', 'elite']);
    // One seed per condition: the SE is NaN, and the schema says so rather than refusing the result.
    expect(m.conditions.every((c) => Number.isNaN(c.Pse) && Number.isNaN(c.Hse))).toBe(true);
    expect(holdsNonFinite(named(sweep.results, 'mechanisms').value)).toBe(true);
  });

  it('opinions: a simulation’s magnetisation, a community’s counts and trajectories, and a screening', async () => {
    const simulation = await runHeadless(
      opinionsLab,
      opinionsRunner,
      parsed(opinionsLab, { seed: 3, graph: { generator: 'random', agents: 12, edgeBudget: 20 }, dynamics: { steps: 20, replicas: 2 } }),
    );
    const community = await runHeadless(
      opinionsLab,
      opinionsRunner,
      parsed(opinionsLab, {
        mode: 'community',
        seed: 7,
        graph: { generator: 'random', agents: 5, edgeBudget: 7, friendlyShare: 0.6 },
        community: { model: 'fake', rounds: 2, votesPerRound: 3, questionId: 'o04', trajectories: 2 },
      }),
      { models: opinionsModels() },
    );
    const screening = await runHeadless(
      opinionsLab,
      opinionsRunner,
      parsed(opinionsLab, {
        mode: 'screening',
        seed: 3,
        community: { model: 'fake', questions: ['s01', 's02'] },
        screening: { agents: 3, samples: 2, keep: 1 },
      }),
      { models: opinionsModels() },
    );
    const all = [...simulation.results, ...community.results, ...screening.results];
    expect(expectResultsFit(opinionsResults, all)).toEqual(['community', 'magnetisation', 'screening', 'trajectories']);
    expect(resultOf(opinionsResults, community.results, 'trajectories')!.trajectories).toHaveLength(2);
    expect(resultOf(opinionsResults, screening.results, 'screening')!.kept).toHaveLength(1);
    // A bare list of trajectories (an older or a hand-made result) reads as a trajectory file.
    const bare = { name: 'trajectories', value: resultOf(opinionsResults, community.results, 'trajectories')!.trajectories, updatedAt: '' };
    expect(resultOf(opinionsResults, [bare], 'trajectories')).toEqual({ format: 'social-minds-lab/opinion-trajectories@1', trajectories: bare.value });
  });
});

describe('a damaged or stale result is refused, in words', () => {
  const result = (value: unknown, version?: number): RunResult => ({ name: 'mechanisms', value, updatedAt: '', ...(version ? { version } : {}) });
  const sweep = {
    readFrom: 1,
    conditions: [{ condition: { id: 'elite:neutral', label: 'neutral elite', kind: 'elite', stance: 'neutral' }, runs: 1, P: 0.4, Pse: NaN, H: 0.6, Hse: NaN }],
  };

  it('names the result and the first bad field', () => {
    expect(checkResult(polarizationResults, result(sweep))).toEqual({ ok: true, value: sweep });
    const cases: [unknown, string][] = [
      [damaged(result(sweep), ['conditions', 0, 'P'], '0.4').value, 'conditions[0].P: expected number, got "0.4"'],
      [damaged(result(sweep), ['conditions', 0, 'runs'], null).value, 'conditions[0].runs: expected number, got null'],
      [damaged(result(sweep), ['conditions', 0, 'runs'], -1).value, 'conditions[0].runs: Too small'],
      [damaged(result(sweep), ['conditions', 0, 'condition', 'stance'], 'loud').value, 'conditions[0].condition.stance: expected one of'],
      [{ conditions: [] }, 'readFrom: missing (expected number)'],
      [null, 'the value: expected object, got null'],
    ];
    // A statistic that may be undefined takes NaN, and reads JSON's null (how results.json writes NaN) back as NaN.
    expect(resultOf(polarizationResults, [damaged(result(sweep), ['conditions', 0, 'P'], null)], 'mechanisms')?.conditions[0].P).toBeNaN();
    for (const [value, problem] of cases) {
      const r = checkResult(polarizationResults, result(value));
      expect(r.ok).toBe(false);
      expect(!r.ok && r.problem).toContain(`result "mechanisms": ${problem}`);
    }
  });

  it('refuses another result version, and a name the lab does not declare', () => {
    expect(checkResult(polarizationResults, result(sweep, 2))).toEqual({
      ok: false,
      problem: 'result "mechanisms" was computed with result version 2, and this version of the lab reads version 1',
    });
    expect(checkResult(polarizationResults, { name: 'summary', value: {} })).toEqual({
      ok: false,
      problem: 'result "summary" is not a result of this lab (its results: "polarization", "mechanisms")',
    });
  });

  it('the accessor: the typed value, null when absent or unfit, and the problem for a view to show', () => {
    const good = [result(sweep, 1)];
    expect(resultOf(polarizationResults, good, 'mechanisms')?.conditions[0].condition.kind).toBe('elite');
    expect(readResult(polarizationResults, good, 'polarization')).toBeNull();
    expect(resultOf(polarizationResults, good, 'polarization')).toBeNull();
    const bad = [damaged(result(sweep, 1), ['readFrom'], 'sixteen')];
    expect(resultOf(polarizationResults, bad, 'mechanisms')).toBeNull();
    expect(readResult(polarizationResults, bad, 'mechanisms')).toEqual({ ok: false, problem: 'result "mechanisms": readFrom: expected number, got "sixteen"' });
  });

  it('stored results are computed again when none is stored, one is of another version or none, or one does not parse', () => {
    const def: ResultsDefinition = polarizationResults;
    expect(staleResults(def, [result(sweep, 1)])).toBeNull();
    expect(staleResults(def, [])).toBe('no result is stored');
    expect(staleResults(def, [result(sweep)])).toMatch(/computed with no recorded result version/);
    expect(staleResults(def, [result(sweep, 2)])).toMatch(/computed with result version 2/);
    expect(staleResults(def, [damaged(result(sweep, 1), ['conditions', 0, 'H'], 'high')])).toBe(
      'result "mechanisms": conditions[0].H: expected number, got "high"',
    );
  });

  it('the store replaces a run’s results as a set, so a name no longer returned does not stay behind', async () => {
    const store = await RunStore.open('lab-results-test');
    try {
      await store.putResult('r', 'summary', { n: 1 });
      await store.putResult('other', 'summary', { n: 2 });
      await store.replaceResults('r', [{ name: 'mechanisms', value: sweep }], 1);
      expect(await store.results('r')).toEqual([expect.objectContaining({ name: 'mechanisms', value: sweep, version: 1 })]);
      expect(staleResults(polarizationResults, await store.results('r'))).toBeNull();
      expect(await store.results('other')).toHaveLength(1);
    } finally {
      store.close();
    }
  });
});

describe('lab modules declare their results', () => {
  it('every module has a results version and a schema per result name; the opened lab carries them', () => {
    for (const m of LAB_MODULES) {
      expect(Object.keys(m.results.schemas).length).toBeGreaterThan(0);
      expect(openLabByName(m.definition.name).results).toBe(m.results);
      expect(openLabByName(m.definition.name).resultsVersion).toBe(m.results.version);
    }
  });

  it('a runner whose results another declaration describes does not compile, and a module without results does not load', () => {
    const m = LAB_MODULE_BY_NAME.similarity;
    // @ts-expect-error -- the similarity runner returns "similarity", which the polarization results do not declare
    defineLabModule({ ...m, results: polarizationResults });
    // @ts-expect-error -- nor does one that declares no result (its runner's "similarity" is undeclared); it does not load
    expect(() => defineLabModule({ ...m, results: { version: 1, schemas: {} } })).toThrow(/declares no result/);
  });
});

describe('bundles check results with the lab’s schemas', { timeout: 60_000 }, () => {
  /** The bundle with results.json replaced. */
  const withResults = (bytes: Uint8Array, edit: (results: RunResult[]) => unknown): Uint8Array => {
    const files = unzipSync(bytes);
    files['results.json'] = strToU8(JSON.stringify(edit(JSON.parse(strFromU8(files['results.json'])) as RunResult[])));
    return zipSync(files);
  };

  it('keeps results that fit, with their version, and leaves out the rest, naming the result and the field', async () => {
    const bundle = await fakePolarizationBundle();
    const bytes = writeBundle(bundle);
    const back = readBundle(bytes, LAB_MODULES);
    expect(back.results.map((r) => [r.name, r.version])).toEqual([['polarization', 1]]);
    expect(back.resultsLeftOut).toBeUndefined();
    const bad = readBundle(
      withResults(bytes, (rs) => [...rs.map((r) => damaged(r, ['P0'], 'high')), { name: 'mechanisms', value: {}, updatedAt: '', version: 2 }]),
      LAB_MODULES,
    );
    expect(bad.results).toEqual([]);
    expect(bad.resultsLeftOut).toEqual([
      { name: 'polarization', problem: 'results.json: result "polarization": P0: expected number, got "high"' },
      { name: 'mechanisms', problem: 'results.json: result "mechanisms" was computed with result version 2, and this version of the lab reads version 1' },
    ]);
    // The records are untouched: the lab computes the results again from them.
    expect(bad.episodes.map((e) => e.records)).toEqual(bundle.episodes.map((e) => e.records));
    expect(expectResultsFit(polarizationResults, await openLabByName('polarization').summarize(bad.meta.config, bad.episodes))).toEqual(['polarization']);
  });

  it('a trajectories result that does not fit is not read: the Fit panel rebuilds them from the records and says why', async () => {
    const config = parsed(opinionsLab, {
      mode: 'community',
      seed: 5,
      graph: { generator: 'random', agents: 5, edgeBudget: 7, friendlyShare: 0.6 },
      community: { model: 'fake', rounds: 1, votesPerRound: 2, questionId: 's03', trajectories: 1 },
    });
    const bundle: RunBundle = await runHeadless(opinionsLab, openLabByName('opinions'), config, { models: opinionsModels() });
    const fromResult = trajectoriesFromBundle(bundle);
    expect(fromResult.ok && fromResult.source).toBe('result');
    const stale = { ...bundle, results: bundle.results.map((r) => (r.name === 'trajectories' ? damaged(r, ['trajectories', 0, 'voteMeans'], 'none') : r)) };
    const rebuilt = trajectoriesFromBundle(stale);
    expect(rebuilt.ok && rebuilt.source).toBe('records');
    expect(rebuilt.ok && rebuilt.note).toMatch(/rebuilt from the records: result "trajectories": trajectories\[0\]\.voteMeans: expected array, got "none"/);
    expect(rebuilt.ok && rebuilt.trajectories).toEqual(fromResult.ok && fromResult.trajectories);
    // Read from a file, the reader left it out; the Fit panel says so too.
    const read = readBundle(writeBundle(stale), LAB_MODULES);
    expect(read.resultsLeftOut?.map((r) => r.name)).toEqual(['trajectories']);
    const again = trajectoriesFromBundle(read);
    expect(again.ok && again.note).toMatch(/rebuilt from the records: results\.json: result "trajectories"/);
  });
});
