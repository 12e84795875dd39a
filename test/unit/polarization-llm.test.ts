import { resultOf } from '../../src/core/runs/results';
import { polarizationResults } from '../../src/labs/polarization/results';
import { describe, expect, it } from 'vitest';
import { polarizationLab } from '../../src/labs/polarization/config';
import { validateConfig } from '../../src/core/config/validate';
import { polarizationRunner } from '../../src/labs/polarization/runner';
import type { PolarizationConfig } from '../../src/labs/polarization/network';
import { networkFromTensors } from '../../src/labs/polarization/network';
import { traitHolders } from '../../src/labs/polarization/llm-runner';
import { CONFIRMATION_BIAS_TRAIT, SELECTIVE_EXPOSURE_TRAIT } from '../../src/core/prompts/polarization';
import { homophily, polarization } from '../../src/core/polarization/metrics';
import { episodeRng } from '../../src/core/runs/runner';
import type { Episode } from '../../src/core/runs/types';
import { fakePolarizationAgent } from '../helpers/fake-polarization-agent';
import type { PolarizationRecord } from '../../src/labs/polarization/records';
import { polarizationRecord } from '../../src/labs/polarization/records';
import { expectRecordsFit } from '../helpers/records-fit';
import { REPLY_FORMATS } from '../../src/core/prompts/formats';

function config(over: Record<string, unknown> = {}): PolarizationConfig {
  const r = validateConfig(polarizationLab, {
    seed: 4,
    agents: 16,
    epochs: 4,
    agentKind: 'llm',
    model: 'fake-agent',
    network: { generator: 'ring', degree: 4 },
    llm: { initialPostShare: 0.5 },
    ...over,
  });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value as PolarizationConfig;
}

async function runAll(c: PolarizationConfig, agent = fakePolarizationAgent()): Promise<Episode<PolarizationRecord>[]> {
  const models = { get: () => agent };
  const plan = polarizationRunner.plan(c);
  expect(plan.unavailable).toBeUndefined();
  const out: Episode<PolarizationRecord>[] = [];
  for (let index = 0; index < plan.episodes; index++) {
    out.push(
      await polarizationRunner.runEpisode(c, {
        index,
        rng: episodeRng(c.seed, index),
        signal: new AbortController().signal,
        progress: () => {},
        previous: out[index - 1],
        models,
      }),
    );
  }
  return out;
}

const rowsOf = (eps: Episode<PolarizationRecord>[]) => eps.flatMap((e) => e.records).filter((r) => r.kind === undefined);
const logsOf = (e: Episode<PolarizationRecord>) => e.records.filter((r) => r.kind === 'agent');

describe('Polarization lab: LLM agents', () => {
  it('constrained decoding: stance updates and yes/no answers carry their grammars, posts and persuasion do not', async () => {
    const seen = (decoding: 'free' | 'constrained') => {
      const agent = fakePolarizationAgent();
      const calls: { kind: string; grammar?: string }[] = [];
      const generate = agent.generate.bind(agent);
      agent.generate = async (o) => {
        const p = o.messages![0].content;
        const kind = /Reply with JSON only/.test(p) ? 'stance' : /keep talking|fit your stance/.test(p) ? 'yes-no' : 'free';
        calls.push({ kind, ...(o.grammar ? { grammar: o.grammar } : {}) });
        return generate(o);
      };
      return { agent, calls, config: config({ epochs: 2, llm: { initialPostShare: 0.5, decoding, selfRegulated: true } }) };
    };
    const free = seen('free');
    await runAll(free.config, free.agent);
    expect(free.calls.length).toBeGreaterThan(10);
    expect(free.calls.every((c) => c.grammar === undefined)).toBe(true);
    const constrained = seen('constrained');
    const eps = await runAll(constrained.config, constrained.agent);
    const byKind = (k: string) => constrained.calls.filter((c) => c.kind === k);
    expect(byKind('stance').length).toBeGreaterThan(0);
    expect(byKind('stance').every((c) => c.grammar === REPLY_FORMATS['stance-json'].grammar!())).toBe(true);
    expect(byKind('yes-no').length).toBeGreaterThan(0);
    expect(byKind('yes-no').every((c) => c.grammar === 'root ::= "Yes" | "No"')).toBe(true);
    expect(byKind('free').every((c) => c.grammar === undefined)).toBe(true);
    const result = resultOf(polarizationResults, await polarizationRunner.summarize(constrained.config, eps), 'polarization');
    expect(result?.decoding).toBe('constrained');
  });

  it('plans one episode per epoch on the named model, interventions included', () => {
    const plan = polarizationRunner.plan(config({ intervention: { kind: 'noConfirmationBias', fromEpoch: 2 } }));
    expect(plan).toMatchObject({ episodes: 4, models: ['fake-agent'] });
    expect(plan.unavailable).toBeUndefined();
  });

  it('runs epochs: receivers update, keep or drop links, write messages delivered next epoch; P and H are the metrics of the stored state', async () => {
    const c = config();
    const eps = await runAll(c);
    const rows = rowsOf(eps);
    expect(rows.map((r) => r.epoch)).toEqual([0, 1, 2, 3, 4]);
    for (const e of eps) {
      const x = Array.from(e.tensors.opinions.data as Float64Array);
      const g = networkFromTensors(e.tensors);
      const row = rowsOf([e]).at(-1)!;
      expect(row.P).toBe(polarization(x));
      expect(row.H).toBe(homophily(g, x));
      expect(g.out.every((l) => l.length === 4 && new Set(l).size === 4)).toBe(true); // rewiring keeps the out-degree, no duplicates
    }
    // the messages written in epoch t are the inbox of epoch t+1
    const state1 = eps[0].records.find((r) => r.kind === 'state')!;
    const receivers2 = new Set(logsOf(eps[1]).map((l) => l.agent));
    expect([...new Set(state1.pending.map((m) => m.to))].sort((a, b) => a - b)).toEqual([...receivers2].sort((a, b) => a - b));
    for (const l of logsOf(eps[1])) expect(l.received).toBe(state1.pending.filter((m) => m.to === l.agent).length);
    // selective exposure by the script: every dropped link pointed at someone more than one level away
    const dropped = eps.flatMap(logsOf).reduce((n, l) => n + l.dropped.length, 0);
    expect(dropped).toBe(rows.reduce((n, r) => n + r.rewires, 0));
    expect(rows.slice(1).every((r) => r.failures === 0)).toBe(true);
  });

  it('writes records that fit the lab record schema: epoch, agent, interactions and state rows', async () => {
    const eps = await runAll(config({ llm: { initialPostShare: 0.5, selfRegulated: true }, intervention: { kind: 'neutralElite', fromEpoch: 1 } }));
    expect(expectRecordsFit(polarizationRecord, eps)).toEqual(['(no kind)', 'agent', 'interactions', 'state']);
  });

  it('a resumed epoch repeats the uninterrupted one exactly', async () => {
    const c = config();
    const eps = await runAll(c);
    const again = await polarizationRunner.runEpisode(c, {
      index: 2,
      rng: episodeRng(c.seed, 2),
      signal: new AbortController().signal,
      progress: () => {},
      previous: eps[1],
      models: { get: () => fakePolarizationAgent() },
    });
    expect(again.records).toEqual(eps[2].records);
    expect(Array.from(again.tensors.outIdx.data as Int32Array)).toEqual(Array.from(eps[2].tensors.outIdx.data as Int32Array));
  });

  it('interventions act only after fromEpoch: open to persuasion, diverse views, random interactions', async () => {
    const agent = fakePolarizationAgent();
    await runAll(config({ intervention: { kind: 'noConfirmationBias', fromEpoch: 2 } }), agent);
    const updates = agent.prompts.filter((p) => /Reply with JSON only/.test(p));
    expect(updates.some((p) => /open to being persuaded/.test(p))).toBe(true);
    expect(updates.some((p) => !/open to being persuaded/.test(p))).toBe(true);
    const diverse = await runAll(config({ intervention: { kind: 'noSelectiveExposure', fromEpoch: 0 } }));
    expect(rowsOf(diverse).every((r) => r.rewires === 0)).toBe(true); // the script keeps everyone it is told to like
    const random = await runAll(config({ intervention: { kind: 'randomInteractions', fromEpoch: 1 } }));
    const e2 = random[1];
    const row = rowsOf([e2]).at(-1)!;
    expect(row.rewires).toBe(logsOf(e2).length * 4); // every link of every updating agent is cut and rewired
  });

  it('neutral elite signal: leaders become neutral and their messages are marked; moderately opposing: links go to moderates of the other side', async () => {
    const agent = fakePolarizationAgent();
    const eps = await runAll(config({ intervention: { kind: 'neutralElite', fromEpoch: 1 }, llm: { initialPostShare: 0.5, eliteShare: 0.25 } }), agent);
    const state = eps[3].records.find((r) => r.kind === 'state')!;
    expect(state.elites).toHaveLength(4);
    const x = Array.from(eps[3].tensors.opinions.data as Float64Array);
    for (const e of state.elites) expect(x[e]).toBe(0);
    expect(agent.prompts.some((p) => /\(from a persuasive leader\)/.test(p))).toBe(true);
    const mod = await runAll(config({ intervention: { kind: 'moderateOpposing', fromEpoch: 1 } }));
    for (const e of mod.slice(1)) {
      const before = (e.records.find((r) => r.kind === 'interactions') as unknown as { before: number[] }).before;
      const g = networkFromTensors(e.tensors);
      for (const l of logsOf(e)) {
        if (l.after === 0) continue;
        // whatever was kept or rewired is a moderate of the other side at the time (or no such candidate was left)
        for (const j of l.dropped) expect(Math.abs(before[j]) === 1 && Math.sign(before[j]) === -Math.sign(l.after)).toBe(false);
        expect(g.out[l.agent]).toHaveLength(4);
      }
    }
  });

  it('summarizes P(t), H(t), the echo-chamber table and the counts', async () => {
    const c = config();
    const eps = await runAll(c);
    const v = resultOf(polarizationResults, await polarizationRunner.summarize(c, eps), 'polarization')!;
    expect(v.series).toHaveLength(5);
    expect(v.echo!.windows).toBe(1);
    expect(v.calls).toBe(rowsOf(eps).reduce((n, x) => n + (x.calls ?? 0), 0));
    expect(v.messages).toBeGreaterThan(0);
  });

  it('self-regulated: posts that fail the check are regenerated and then withheld, changes that fail it are retried and then refused', async () => {
    const agent = fakePolarizationAgent();
    const c = config({ llm: { initialPostShare: 1, selfRegulated: true } });
    const eps = await runAll(c, agent);
    const x0 = Array.from(
      (await runAll(config({ epochs: 1, llm: { initialPostShare: 1 } })))[0].records.find((r) => r.kind === 'interactions')!.before as number[],
    );
    const state0 = eps[0].records.find((r) => r.kind === 'state')!;
    // only agents at -1..+1 had their post accepted: the radical ones' posts never say "strongly"
    const posted = new Set((eps[0].records.find((r) => r.kind === 'interactions') as unknown as { pairs: [number, number][] }).pairs.map(([, from]) => from));
    for (const i of posted) expect(Math.abs(x0[i])).toBeLessThan(2);
    expect(agent.prompts.filter((p) => /Write a post/.test(p)).length).toBe(
      x0.filter((v) => Math.abs(v) < 2).length + 3 * x0.filter((v) => Math.abs(v) === 2).length,
    );
    // a change after a single message never passes the check: it is asked again, then refused, and counted
    for (const e of eps) for (const l of logsOf(e)) if (l.after !== l.before) expect(l.received).toBeGreaterThan(1);
    const rows = rowsOf(eps).slice(1);
    expect(rows.every((r) => typeof r.checked === 'number' && r.inconsistent! <= r.checked!)).toBe(true);
    expect(rows.reduce((n, r) => n + r.inconsistent!, 0)).toBeGreaterThan(0); // some agents tried to move after one message
    expect(state0.pending.length).toBeGreaterThan(0);
  });

  it('mechanism experiments: trait holders get their trait in every epoch; leaders can be moderate, radical or keep their stance', async () => {
    const agent = fakePolarizationAgent();
    const c = config({ llm: { initialPostShare: 0.5, confirmationBiasShare: 0.5, selectiveExposureShare: 0.25 } });
    await runAll(c, agent);
    const cb = traitHolders(c, 'confirmationBias', 0.5);
    const se = traitHolders(c, 'selectiveExposure', 0.25);
    expect(cb.size).toBeGreaterThan(0);
    expect(cb.size).toBeLessThan(16);
    const updates = agent.prompts.filter((p) => /Reply with JSON only/.test(p));
    expect(updates.some((p) => p.includes(CONFIRMATION_BIAS_TRAIT))).toBe(true);
    expect(updates.some((p) => !p.includes(CONFIRMATION_BIAS_TRAIT))).toBe(true);
    expect(agent.prompts.some((p) => p.includes(SELECTIVE_EXPOSURE_TRAIT))).toBe(se.size > 0);
    // the same draw every time
    expect([...traitHolders(c, 'confirmationBias', 0.5)]).toEqual([...cb]);
    for (const kind of ['moderate', 'radical', 'original'] as const) {
      const cc = config({ intervention: { kind: 'neutralElite', fromEpoch: 1 }, llm: { initialPostShare: 0.5, eliteShare: 0.25, eliteStance: kind } });
      const eps = await runAll(cc);
      const state = eps[3].records.find((r) => r.kind === 'state')!;
      const x = Array.from(eps[3].tensors.opinions.data as Float64Array);
      const start = (eps[1].records.find((r) => r.kind === 'interactions') as unknown as { before: number[] }).before;
      for (const e of state.elites) {
        if (kind === 'moderate') expect(Math.abs(x[e])).toBe(1);
        if (kind === 'radical') expect(Math.abs(x[e])).toBe(2);
        if (kind === 'original') expect(x[e]).toBe(start[e]);
      }
    }
  });
});
