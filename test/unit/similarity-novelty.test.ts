import { describe, expect, it } from 'vitest';
import { similarityLab, type SimilarityConfig } from '../../src/labs/similarity/config';
import { validateConfig } from '../../src/core/config/validate';
import { conditionalEntropy, playNovelty, uniqueness, uniquenessByCosine } from '../../src/labs/similarity/novelty';
import { noveltyQueue, similarityRunner } from '../../src/labs/similarity/runner';
import { summarizeNovelty } from '../../src/labs/similarity/novelty-analysis';
import type { RunnerModel } from '../../src/core/runs/models';
import { fakeGameModel } from '../helpers/fake-game-model';
import { similarityRecord } from '../../src/labs/similarity/records';
import { expectRecordsFit } from '../helpers/records-fit';

function config(over: Record<string, unknown> = {}): SimilarityConfig {
  const r = validateConfig(similarityLab, { seed: 3, ...over });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value as SimilarityConfig;
}

describe('Similarity novelty tasks', () => {
  it('uniqueness partitions greedily by unigram overlap (2 × shared ≥ the larger word count)', () => {
    const r = uniqueness(['the whale sings', 'The whale sings loudly', 'a walnut tree grows', 'walnut tree grows tall', 'sea']);
    expect(r.classOf).toEqual([0, 0, 1, 1, 2]);
    expect(r.classes).toBe(3);
    expect(uniqueness([]).classes).toBe(0);
    // 1 shared word of 3: not equal
    expect(uniqueness(['a b c', 'a x y']).classes).toBe(2);
  });

  it('MI compares the same tokens with and without the solo text as context, in bits', async () => {
    const m = fakeGameModel({ id: 'x', world: 's' });
    const h = await conditionalEntropy(m, 'deep sea whale', 'the deep whale');
    // without context: "sea" and "whale" at -2 nats each; with it: "sea" -2, "whale" -1 (the first word is left out)
    expect(h.tokens).toBe(2);
    expect(h.hY).toBeCloseTo(2 / Math.LN2, 12);
    expect(h.hYgivenS).toBeCloseTo(1.5 / Math.LN2, 12);
    const mute = { ...m, scoreText: undefined } as RunnerModel;
    await expect(conditionalEntropy(mute, 'a b', 'c')).rejects.toThrow(/cannot score text/);
  });

  it('plays rounds: both brainstorm, joint texts see both brainstorms, solo texts only their own; MI per joint text', async () => {
    const a = fakeGameModel({ id: 'a', world: 'north' });
    const b = fakeGameModel({ id: 'b', world: 'south' });
    const rec = await playNovelty({
      task: 'haiku',
      a,
      b,
      repeat: 0,
      rounds: 4,
      temperature: 0.7,
      seedKey: 't',
      signal: new AbortController().signal,
      progress: () => {},
    });
    expect(rec.rounds).toHaveLength(4);
    const jointPrompt = a.calls.find((c) => /^Ideas:/.test(c.messages![0].content) && /south whale/.test(c.messages![0].content))!;
    expect(jointPrompt.messages![0].content).toMatch(/north whale[\s\S]*south whale/);
    const soloPrompts = a.calls.filter((c) => /^Ideas:/.test(c.messages![0].content) && !/south/.test(c.messages![0].content));
    expect(soloPrompts).toHaveLength(4);
    expect(rec.rounds[0].joint[0].text).toMatch(/^north whale rising\n/);
    expect(rec.mi).toHaveLength(8);
    for (const m of rec.mi) expect(m.mi).toBeCloseTo(m.hY - m.hYgivenS, 12);
    expect(rec.mi.every((m) => m.mi > 0)).toBe(true); // a solo text shares words with the joint one
    const again = await playNovelty({
      task: 'haiku',
      a: fakeGameModel({ id: 'a', world: 'north' }),
      b: fakeGameModel({ id: 'b', world: 'south' }),
      repeat: 0,
      rounds: 4,
      temperature: 0.7,
      seedKey: 't',
      signal: new AbortController().signal,
      progress: () => {},
    });
    expect(again).toEqual(rec);
  });

  it('queues each task × unordered pair (self too) × repeat after the games, and summarizes uniqueness and MI per side', async () => {
    const cfg = config({
      models: ['a', 'b'],
      probes: { set: 'custom', count: 4, custom: ['one.', 'two.', 'three.', 'four.'] },
      novelty: ['haiku', 'vacation'],
      noveltyRounds: 3,
    });
    expect(noveltyQueue(cfg).map((q) => `${q.task}:${q.a}|${q.b}`)).toEqual([
      'haiku:a|a',
      'haiku:a|b',
      'haiku:b|b',
      'vacation:a|a',
      'vacation:a|b',
      'vacation:b|b',
    ]);
    expect(similarityRunner.plan(cfg).episodes).toBe(2 + 6);
    const a = fakeGameModel({ id: 'a', world: 'north' });
    const b = fakeGameModel({ id: 'b', world: 'south' });
    const rec = await playNovelty({
      task: 'haiku',
      a,
      b,
      repeat: 0,
      rounds: 6,
      temperature: 0.7,
      seedKey: 'u',
      signal: new AbortController().signal,
      progress: () => {},
    });
    // The runner stores this record as the episode's one row: it fits the lab record schema.
    expect(expectRecordsFit(similarityRecord, [{ index: 5, records: [rec], tensors: {} }])).toEqual(['novelty']);
    const s = summarizeNovelty([{ index: 5, records: [rec], tensors: {} }], [], 'linear')!;
    const joint0 = rec.rounds.map((r) => r.joint[0].text!);
    expect(s.pairs[0].uniqueJoint[0]).toBe(uniqueness(joint0).classes);
    expect(s.pairs[0].mi[1]).toBeCloseTo(rec.mi.filter((m) => m.side === 1).reduce((t, m) => t + m.mi, 0) / 6, 12);
    expect(s.rows.filter((r) => r.game === 'haiku.uniqueness').map((r) => [r.focal, r.partner])).toEqual([
      ['a', 'b'],
      ['b', 'a'],
    ]);
    expect(s.rows.every((r) => r.sim === null)).toBe(true); // no CKA pairs given
    expect(s.regressions.map((r) => r.game)).toEqual(['haiku.uniqueness', 'haiku.mi']);
  });

  it('with the embedding rule, stores each side’s cosines and calibration, and counts classes by them', async () => {
    // Bag-of-words states: texts that share words point the same way, so paraphrases score high.
    const withStates = (id: string, world: string): RunnerModel => {
      const m = fakeGameModel({ id, world });
      const H = 32;
      return {
        ...m,
        numLayers: 2,
        hiddenSize: H,
        async encode(prompts: string[]) {
          const data = new Float32Array(prompts.length * 3 * H);
          prompts.forEach((p, i) => {
            for (const w of p.toLowerCase().match(/[a-z]+/g) ?? []) {
              let h = 0;
              for (const ch of w) h = (h * 31 + ch.charCodeAt(0)) % H;
              for (let l = 0; l < 3; l++) data[(i * 3 + l) * H + h] += 1;
            }
          });
          return { data, shape: [prompts.length, 3, H] as [number, number, number], lengths: prompts.map(() => 1) };
        },
      };
    };
    const rec = await playNovelty({
      task: 'haiku',
      a: withStates('ea', 'north'),
      b: withStates('eb', 'south'),
      repeat: 0,
      rounds: 5,
      temperature: 0.7,
      seedKey: 'e',
      signal: new AbortController().signal,
      progress: () => {},
      embeddingLayer: 0.5,
    });
    expect(expectRecordsFit(similarityRecord, [{ index: 0, records: [rec], tensors: {} }])).toEqual(['novelty']);
    const emb = rec.embedding!;
    expect(emb.sides.map((s) => [s.model, s.layer])).toEqual([
      ['ea', 1],
      ['eb', 1],
    ]);
    const n = rec.rounds.filter((r) => r.joint[0].text !== null).length;
    expect(emb.sides[0].joint).toHaveLength((n * (n - 1)) / 2);
    expect(emb.sides[0].balancedAccuracy).toBeGreaterThan(0.5);
    const s = summarizeNovelty([{ index: 0, records: [rec], tensors: {} }], [], 'linear')!;
    expect(s.equivalence).toMatch(/^embeddings: .*ea, layer 1: cosine ≥/);
    expect(s.pairs[0].uniqueJoint[0]).toBe(uniquenessByCosine(n, emb.sides[0].joint, emb.sides[0].threshold).classes);
    // Identical texts are one class, whatever the threshold below 1.
    expect(uniquenessByCosine(3, [1, 0.2, 0.2], 0.9)).toEqual({ classes: 2, classOf: [0, 0, 1] });
  });
});
