/**
 * A run records the sampling each model asked for itself (its generation_config.json's top-k, top-p, min-p, prompt
 * boost and repetition penalty), since a link replays at the model's own: the record says what an older run got if the
 * model's file has changed since.
 */
import { describe, expect, it } from 'vitest';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import type { RunnerModel } from '../../src/core/runs/models';
import { describeSampling, resumedSampling, samplingOf } from '../../src/core/runs/sampling-record';
import { readBundle, writeBundle } from '../../src/core/runs/bundle';
import { LAB_MODULES } from '../../src/labs/registry';
import { fakePolarizationAgent, fakePolarizationBundle } from '../helpers/fake-polarization-agent';

function withRun(bytes: Uint8Array, fields: Record<string, unknown>): Uint8Array {
  const files = unzipSync(bytes);
  files['run.json'] = strToU8(JSON.stringify({ ...JSON.parse(strFromU8(files['run.json'])), ...fields }));
  return zipSync(files);
}

describe("a run's record of its models' own sampling", () => {
  const model = (id: string, sampling?: RunnerModel['sampling']): RunnerModel => ({ ...fakePolarizationAgent(), id, sampling });

  it('names each model once, and leaves out hosts that do not say', () => {
    const byId: Record<string, RunnerModel> = {
      a: model('a', { topP: 1, minP: 0.2 }),
      b: model('b'),
      c: model('c', { topP: 0.8, minP: 0, topK: 20 }),
    };
    const got = samplingOf(['a', 'b', 'a', 'c'], { get: (id) => byId[id] });
    expect(got).toEqual([
      { model: 'a', topP: 1, minP: 0.2, topK: 0 },
      { model: 'c', topP: 0.8, minP: 0, topK: 20 },
    ]);
    expect(describeSampling(got)).toBe('a at min-p 0.2; c at top-k 20 and top-p 0.8');
    expect(describeSampling([{ model: 'x', topP: 0.8, minP: 0.05 }])).toBe('x at top-p 0.8 and min-p 0.05');
    // A model that cuts nothing needs no words.
    expect(describeSampling([{ model: 'x', topP: 1, minP: 0, topK: 0 }])).toBe('');
  });

  it('keeps a prompt boost or repetition penalty where a model asks for one, and only there', () => {
    const byId: Record<string, RunnerModel> = {
      a: model('a', { topP: 1, minP: 0.2, promptBoost: 1.2 }),
      b: model('b', { topP: 1, minP: 0, promptBoost: 1 }),
    };
    const got = samplingOf(['a', 'b'], { get: (id) => byId[id] });
    expect(got).toEqual([
      { model: 'a', topP: 1, minP: 0.2, topK: 0, promptBoost: 1.2 },
      { model: 'b', topP: 1, minP: 0, topK: 0 },
    ]);
    expect(describeSampling(got)).toBe('a at prompt boost 1.2 and min-p 0.2');
    // A boost that changes between a run's first episodes and its resume is a change of sampling.
    const [a] = got;
    const { promptBoost: _dropped, ...unboosted } = a;
    expect(resumedSampling([a], [unboosted], 4)).toEqual([a, { ...unboosted, fromEpisode: 4 }]);
    expect(resumedSampling([a], [a], 4)).toEqual([a]);
    // Qwen2.5's larger instruct models: top-k 20, top-p 0.8 and a repetition penalty of 1.05.
    const qwen = samplingOf(['q'], { get: () => model('q', { topP: 0.8, minP: 0, topK: 20, repetitionPenalty: 1.05 }) });
    expect(qwen).toEqual([{ model: 'q', topP: 0.8, minP: 0, topK: 20, repetitionPenalty: 1.05 }]);
    expect(describeSampling(qwen)).toBe('q at repetition penalty 1.05, top-k 20 and top-p 0.8');
    expect(resumedSampling(qwen, [{ ...qwen[0], repetitionPenalty: undefined }], 2)).toHaveLength(2);
  });

  it('keeps the banned token sequences where a model bans some, and a changed list is a change of sampling', () => {
    const banned = [[567], [12, 40]];
    const got = samplingOf(['a', 'b'], { get: (id) => model(id, { topP: 1, minP: 0.2, banned: id === 'a' ? banned : [] }) });
    expect(got).toEqual([
      { model: 'a', topP: 1, minP: 0.2, topK: 0, banned },
      { model: 'b', topP: 1, minP: 0.2, topK: 0 },
    ]);
    expect(describeSampling(got)).toBe('a at min-p 0.2, with 2 token sequences banned; b at min-p 0.2');
    expect(resumedSampling(got, got, 3)).toEqual(got);
    expect(resumedSampling(got, [{ ...got[0], banned: [[567]] }, got[1]], 3)).toHaveLength(3);
  });

  it('a resumed run keeps its record, and adds what changed from the episode it changed at', () => {
    const a = { model: 'a', topP: 1, minP: 0.2, topK: 0 };
    const b = { model: 'b', topP: 0.8, minP: 0, topK: 20 };
    expect(resumedSampling(undefined, [a, b], 0)).toEqual([a, b]);
    expect(resumedSampling([a, b], [a, b], 5)).toEqual([a, b]);
    const aNow = { ...a, minP: 0 };
    const changed = resumedSampling([a, b], [aNow, b], 5);
    expect(changed).toEqual([a, b, { ...aNow, fromEpisode: 5 }]);
    expect(describeSampling(changed)).toBe('a at min-p 0.2; b at top-k 20 and top-p 0.8; a at no cut from episode 6');
    // Resumed again with the latest setting: nothing to add; back to the first: it is added again, from its episode.
    expect(resumedSampling(changed, [aNow, b], 8)).toEqual(changed);
    expect(resumedSampling(changed, [a, b], 8)).toEqual([...changed, { ...a, fromEpisode: 8 }]);
    // A run stored before records were kept: what its first episodes got is not known, so only the rest is recorded.
    expect(resumedSampling(undefined, [a], 3)).toEqual([{ ...a, fromEpisode: 3 }]);
    // A resume cut off before its first episode, then resumed at the same point on the first setting: the entry of the
    // episodes never kept goes, and nothing is added twice.
    expect(resumedSampling(changed, [a, b], 5)).toEqual([a, b]);
    // A damaged record's episodes run again from episode 3: the entry from 5 on describes nothing kept.
    expect(resumedSampling(changed, [aNow, b], 3)).toEqual([a, b, { ...aNow, fromEpisode: 3 }]);
    // A model with no cut at first, then a cut, reads apart from one whose first episodes are not known.
    expect(describeSampling([{ ...aNow }, b, { ...a, fromEpisode: 4 }])).toBe('a at no cut; b at top-k 20 and top-p 0.8; a at min-p 0.2 from episode 5');
  });

  it('travels in run.json of a bundle and back', async () => {
    const bundle = await fakePolarizationBundle({ topP: 0.9, minP: 0.1 });
    const want = [{ model: 'fake-agent', topP: 0.9, minP: 0.1, topK: 0 }];
    expect(bundle.meta.sampling).toEqual(want);
    const bytes = writeBundle(bundle);
    expect(JSON.parse(strFromU8(unzipSync(bytes)['run.json'])).sampling).toEqual(want);
    expect(readBundle(bytes, LAB_MODULES).meta.sampling).toEqual(want);
    // One written before top-k was kept reads as no cut.
    expect(readBundle(withRun(bytes, { sampling: [{ model: 'fake-agent', topP: 0.9, minP: 0.1 }] }), LAB_MODULES).meta.sampling).toEqual(want);
    // A prompt boost travels; one of 1 (no boost) reads as none.
    const boosted = [{ ...want[0], promptBoost: 1.2 }];
    expect(readBundle(withRun(bytes, { sampling: boosted }), LAB_MODULES).meta.sampling).toEqual(boosted);
    expect(readBundle(withRun(bytes, { sampling: [{ ...want[0], promptBoost: 1 }] }), LAB_MODULES).meta.sampling).toEqual(want);
    // So do banned sequences; an empty list reads as none.
    const banning = [{ ...want[0], banned: [[3], [4, 5]] }];
    expect(readBundle(withRun(bytes, { sampling: banning }), LAB_MODULES).meta.sampling).toEqual(banning);
    expect(readBundle(withRun(bytes, { sampling: [{ ...want[0], banned: [] }] }), LAB_MODULES).meta.sampling).toEqual(want);
    // A bundle written before the field was kept reads without it.
    expect(readBundle(withRun(bytes, { sampling: undefined }), LAB_MODULES).meta.sampling).toBeUndefined();
  });

  it('refuses a hostile or impossible record instead of carrying it', async () => {
    const bytes = writeBundle(await fakePolarizationBundle({ topP: 1, minP: 0.2 }));
    expect(() => readBundle(withRun(bytes, { sampling: [{ model: 'm', topP: 5, minP: 0 }] }), LAB_MODULES)).toThrow(/run\.json: sampling\[0\]\.topP/);
    expect(() => readBundle(withRun(bytes, { sampling: [{ model: { x: 1 }, topP: 1, minP: 0 }] }), LAB_MODULES)).toThrow(/run\.json: sampling\[0\]\.model/);
    expect(() => readBundle(withRun(bytes, { sampling: 'min-p 0.2' }), LAB_MODULES)).toThrow(/run\.json: sampling/);
    expect(() => readBundle(withRun(bytes, { sampling: [{ model: 'm', topP: 1, minP: 0, topK: 2.5 }] }), LAB_MODULES)).toThrow(
      /run\.json: sampling\[0\]\.topK/,
    );
    expect(() => readBundle(withRun(bytes, { sampling: [{ model: 'm', topP: 1, minP: 0, topK: 1e12 }] }), LAB_MODULES)).toThrow(
      /run\.json: sampling\[0\]\.topK/,
    );
    for (const key of ['promptBoost', 'repetitionPenalty'])
      for (const bad of [0, -1, 1e6, '1.2'])
        expect(() => readBundle(withRun(bytes, { sampling: [{ model: 'm', topP: 1, minP: 0, [key]: bad }] }), LAB_MODULES)).toThrow(
          new RegExp(`run\\.json: sampling\\[0\\]\\.${key}`),
        );
    for (const bad of [[[]], [[-1]], [[1.5]], [['3']], 'x'])
      expect(() => readBundle(withRun(bytes, { sampling: [{ model: 'm', topP: 1, minP: 0, banned: bad }] }), LAB_MODULES)).toThrow(
        /run\.json: sampling\[0\]\.banned/,
      );
    // Markup is refused, as everywhere in run.json.
    expect(() => readBundle(withRun(bytes, { sampling: [{ model: '<img src=x onerror=alert(1)>', topP: 1, minP: 0 }] }), LAB_MODULES)).toThrow(/run\.json/);
    // Fields beyond the record's are not carried into the stored run.
    const extra = readBundle(withRun(bytes, { sampling: [{ model: 'm', topP: 1, minP: 0.2, note: '=HYPERLINK("x")' }] }), LAB_MODULES);
    expect(extra.meta.sampling).toEqual([{ model: 'm', topP: 1, minP: 0.2, topK: 0 }]);
  });
});
