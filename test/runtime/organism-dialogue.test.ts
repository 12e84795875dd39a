/**
 * The dialogue organism (models/organism-dialogue) carries its planted behaviour on held-out prompts: the Synchrony
 * lab's own scenario library and personas, never in its training data. Its greedy replies are scored against the
 * planted law (organisms/dialogue/measure.ts); the base model, tiny-social, is scored the same way and must fail,
 * so the tolerance is one that a broken build would not pass. The bench (npm run bench -- organisms-dialogue) runs
 * the whole lab on it and measures the quality targets and the SyncR² contrasts.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeRuntime } from '../../src/runtime/node';
import type { ModelRuntime } from '../../src/runtime/runtime';
import { asRunnerModel, RunnerModelSet } from '../../src/runtime/runner-models';
import { describeSampling, samplingOf } from '../../src/core/runs/sampling-record';
import { probeHiddenLines, probeJudge, probeTurns } from '../../organisms/dialogue/measure';
import { ACCEPT_FROM_TURN, ACCEPT_PROBABILITY, FIELD_ACTION, FIELD_FEELING, JUDGE_RULE } from '../../organisms/dialogue/law';
import { plantedDialogue } from '../../src/labs/synchrony/planted';
import planted from '../../models/organism-dialogue/planted.json';

/** Runs where the organism's weights exist (a checkout without them skips, rather than failing on a missing file). */
const BUILT = existsSync(new URL('../../models/organism-dialogue/onnx/model.onnx', import.meta.url));

/** A probe run on the base model, tiny-social, which lacks every planted behaviour. */
async function onTinySocial<T>(probe: (base: ModelRuntime) => Promise<T>): Promise<T> {
  const base = createNodeRuntime();
  await base.load('tiny-social', { device: 'cpu', dtype: 'fp32' });
  try {
    return await probe(base);
  } finally {
    await base.dispose();
  }
}

describe.skipIf(!BUILT)('dialogue organism: the planted behaviour', () => {
  let rt: ModelRuntime;
  beforeAll(async () => {
    rt = createNodeRuntime();
    await rt.load('organism-dialogue', { device: 'cpu', dtype: 'fp32' });
  });
  afterAll(() => rt?.dispose());

  it('planted.json states the law of organisms/dialogue/law.ts, and the Synchrony view reads it', () => {
    expect(planted.synchrony.accept).toEqual({ fromTurn: ACCEPT_FROM_TURN, probabilityPerTurn: ACCEPT_PROBABILITY, opens: 'Deal' });
    expect(planted.judge.scores).toEqual(JUDGE_RULE);
    expect(planted.emotions.proposerFeeling).toEqual(FIELD_FEELING);
    expect(planted.emotions.proposerAction).toEqual(FIELD_ACTION);
    const p = plantedDialogue(['organism-dialogue']);
    expect(p?.acceptFromTurn).toBe(ACCEPT_FROM_TURN);
    expect(p!.overall.won).toBe(p!.overall.conceded);
    expect(p!.emotions).toContain(`the first speaker feels ${FIELD_FEELING.goal} when it states its goal`);
    expect(p!.overall.won).toBeGreaterThan(p!.overall.none + 1);
    expect(plantedDialogue(['tiny-social'])).toBeNull();
  });

  // The thresholds sit below what the build measured on 120 held-out turns (31–35 % open as the law says, 57–75 % use the
  // partner's name; docs/organisms.md) and far above the base model, which the same probe scores near 0: a build
  // that lost the planted behaviour fails. Foreign names: 2 of these 60 greedy turns (the ninth build, before the
  // unlikelihood phase: 4); tiny-social names almost no one at all, so that bound is checked on the organism alone.
  // The stricter targets (> 80 %, ≤ 2 % foreign names in sampled runs) are not met yet; the model card says so.
  it('opens its turns as the law says and names the partner on held-out scenarios; tiny-social does not', async () => {
    const m = await probeTurns(rt, 60, 0, 'runtime-test');
    expect(m.followsLaw / m.probes).toBeGreaterThan(0.2);
    expect(m.usesPartnerName / m.namedProbes).toBeGreaterThan(0.4);
    expect(m.templateText / m.probes).toBeLessThanOrEqual(0.05);
    expect(m.foreignNames).toBeLessThanOrEqual(3);

    const b = await onTinySocial((base) => probeTurns(base, 30, 0, 'runtime-test'));
    console.log(
      `organism: law ${m.followsLaw}/${m.probes}, name ${m.usesPartnerName}/${m.namedProbes}; tiny-social: law ${b.followsLaw}/${b.probes}, name ${b.usesPartnerName}/${b.namedProbes}`,
    );
    expect(b.followsLaw / b.probes).toBeLessThan(0.1);
    expect(b.usesPartnerName / Math.max(1, b.namedProbes)).toBeLessThan(0.3);
  });

  // The model card's sampling: its generation_config.json asks for min-p 0.2 (and no top-p cut), a prompt boost of 1.2,
  // and bans the prompt's labels and the passive reader's line, which a call that sets none of its own gets.
  it('samples at its own min-p (0.2), prompt boost and bans unless a call sets others', async () => {
    const info = await rt.info();
    expect(info).toMatchObject({ topP: 1, minP: 0.2, topK: 0, promptBoost: 1.2, repetitionPenalty: 1 });
    const banned = info!.banned;
    expect(banned.length).toBe(22);
    // A run on it records that sampling (RunMeta.sampling), so that its link's numbers can be traced to it.
    const set = new RunnerModelSet();
    set.add(asRunnerModel('organism-dialogue', rt, info!));
    expect(samplingOf(['organism-dialogue'], set)).toEqual([{ model: 'organism-dialogue', topP: 1, minP: 0.2, topK: 0, promptBoost: 1.2, banned }]);
    expect(describeSampling(samplingOf(['organism-dialogue'], set))).toBe(
      'organism-dialogue at prompt boost 1.2 and min-p 0.2, with 22 token sequences banned',
    );
    // the bans are the labels as the tokenizer splits them: " Secret" is one piece, and no banned piece is written
    const secret = rt.tokenize({ prompt: ' Secret' });
    expect(banned).toContainEqual(secret);
    const prompt = {
      messages: [{ role: 'user' as const, content: 'Ines Moro wants to sell a lamp to Odo Vantel. Say one line to Odo.' }],
      temperature: 0.7,
      maxNewTokens: 24,
    };
    let topPDiffers = 0;
    let minPDiffers = 0;
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const own = (await rt.generate({ ...prompt, seed })).tokens.join();
      expect((await rt.generate({ ...prompt, seed, topP: 1, minP: 0.2 })).tokens.join()).toBe(own);
      if ((await rt.generate({ ...prompt, seed, topP: 0.5 })).tokens.join() !== own) topPDiffers++;
      if ((await rt.generate({ ...prompt, seed, minP: 0 })).tokens.join() !== own) minPDiffers++;
    }
    expect(topPDiffers).toBeGreaterThan(0);
    expect(minPDiffers).toBeGreaterThan(0);
  });

  // The hidden "Feeling: …; Action: …" line of the lab's emotion decoding. The build measured 54 of 58 held-out turns
  // with a readable feeling and 45 with the planted one (46 the planted action); one of six feelings by chance would
  // match about 10. tiny-social was never taught the line and writes none.
  it('writes the hidden feeling and action by the planted law on held-out turns; tiny-social does not', async () => {
    const h = await probeHiddenLines(rt, 40, 'runtime-hidden');
    const b = await onTinySocial((base) => probeHiddenLines(base, 15, 'runtime-hidden'));
    console.log(
      `hidden line: feeling readable ${h.readableFeeling}/${h.probes}, planted ${h.plantedFeeling}, action planted ${h.plantedAction}; tiny-social readable ${b.readableFeeling}/${b.probes}`,
    );
    expect(h.probes).toBeGreaterThanOrEqual(30);
    expect(h.readableFeeling / h.probes).toBeGreaterThanOrEqual(0.7);
    expect(h.plantedFeeling / h.probes).toBeGreaterThanOrEqual(0.5);
    expect(h.plantedAction / h.probes).toBeGreaterThanOrEqual(0.5);
    expect(b.readableFeeling / Math.max(1, b.probes)).toBeLessThanOrEqual(0.1);
  });

  // The judge reads aloud whether the transcript holds a deal, then scores the deal or no-deal row. Half the held-out
  // transcripts hold a deal and half end before one is possible, so a judge that always says the same fails.
  it('judges held-out transcripts by the planted rule, deal or no deal; tiny-social does not', async () => {
    const j = await probeJudge(rt, 12, 'runtime-judge');
    const b = await onTinySocial((base) => probeJudge(base, 6, 'runtime-judge'));
    console.log(`judge: reading ${j.readingRight}/${j.probes}, parsed ${j.parsed}, equal to the rule ${j.equal}; tiny-social: equal ${b.equal}/${b.probes}`);
    expect(j.readingRight / j.probes).toBeGreaterThanOrEqual(0.75);
    expect(j.equal / j.probes).toBeGreaterThanOrEqual(0.6);
    expect(b.equal / b.probes).toBeLessThanOrEqual(0.34);
  });
});
