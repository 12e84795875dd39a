/**
 * K samples from one prefill (src/runtime/samples.ts), on the embedded models in Node: sample k is, token for token,
 * the reply that a lone generate() with seed k gives, with stop strings, end of sequence, greedy decoding, a grammar
 * (one call per seed) and a context that is nearly full.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeRuntime } from '../../src/runtime/node';
import type { ModelRuntime } from '../../src/runtime/runtime';
import type { GenerateOptions, GenerateResult } from '../../src/runtime/types';
import { buildInboxVotePrompt, buildInitialVotePrompt } from '../../src/core/prompts/opinions';
import { REPLY_FORMATS } from '../../src/core/prompts/formats';

const persona = 'You are a 41-year-old moderate ferry mechanic from Tromsø who is not religious. You are blunt.';
const question = { kind: 'subjective' as const, statement: 'Cities should close their centres to private cars on weekends.' };
const SEEDS = Array.from({ length: 8 }, (_, k) => `samples-test/a3/v${k}`);

async function lone(rt: ModelRuntime, o: GenerateOptions, seeds: readonly string[]): Promise<GenerateResult[]> {
  const out: GenerateResult[] = [];
  for (const seed of seeds) out.push(await rt.generate({ ...o, seed }));
  return out;
}
const view = (rs: GenerateResult[]) => rs.map((r) => ({ text: r.text, tokens: r.tokens, finish: r.finishReason }));

describe.each(['organism-opinions', 'tiny-social'])('%s: K samples from one prefill', (model) => {
  let rt: ModelRuntime;
  beforeAll(async () => {
    rt = createNodeRuntime();
    await rt.load(model, { device: 'cpu', dtype: 'fp32' });
  }, 60_000);
  afterAll(async () => rt?.dispose());

  it('gives each seed the reply a lone call gives it: votes at the lab temperature, with a stop string', async () => {
    const vote = { messages: buildInitialVotePrompt(persona, question), temperature: 0.7, maxNewTokens: 6, stop: ['\n'] };
    const batched = await rt.generateSamples(vote, SEEDS);
    expect(view(batched)).toEqual(view(await lone(rt, vote, SEEDS)));
    // One prefill and one batched decode: every sample reports the same shared time (lone calls each have their own).
    expect(new Set(batched.map((r) => r.timing.totalMs)).size).toBe(1);
  });

  it('matches lone calls on longer replies, where rows end at different steps', async () => {
    const o = {
      messages: buildInboxVotePrompt(persona, question, ['I agree: the air is cleaner.'], ['I disagree: shops lose customers.']),
      temperature: 1.2,
      maxNewTokens: 24,
    };
    const batched = await rt.generateSamples(o, SEEDS);
    expect(view(batched)).toEqual(view(await lone(rt, o, SEEDS)));
    // The seeds give different replies (otherwise the comparison would prove little).
    expect(new Set(batched.map((r) => r.text)).size).toBeGreaterThan(1);
  });

  it('is one reply copied when greedy, and one call per seed under a grammar', async () => {
    const greedy = { messages: buildInitialVotePrompt(persona, question), temperature: 0, maxNewTokens: 6 };
    const g = await rt.generateSamples(greedy, SEEDS.slice(0, 3));
    expect(view(g)).toEqual(view(await lone(rt, greedy, SEEDS.slice(0, 3))));
    const grammar = REPLY_FORMATS['vote-subjective'].grammar!();
    const constrained = { ...greedy, temperature: 0.7, grammar };
    expect(view(await rt.generateSamples(constrained, SEEDS.slice(0, 3)))).toEqual(view(await lone(rt, constrained, SEEDS.slice(0, 3))));
  });

  it('cuts every reply to the context left, as a lone call does', async () => {
    const info = (await rt.info())!;
    const filler = 'The ferry leaves at dawn and the harbour is cold. '.repeat(400);
    const ids = rt.tokenize({ prompt: filler });
    const prompt = rt.decodeTokens(ids.slice(0, info.contextLength! - 3));
    const o = { prompt, temperature: 0.9, maxNewTokens: 16 };
    const batched = await rt.generateSamples(o, SEEDS.slice(0, 4));
    expect(batched.every((r) => r.tokens.length <= 3)).toBe(true);
    expect(view(batched)).toEqual(view(await lone(rt, o, SEEDS.slice(0, 4))));
  });
});
