/**
 * Replies decoded together (src/runtime/samples.ts), on the embedded models in Node. The reply to a prompt with seed
 * k is, token for token, the reply that a lone generate() with seed k gives: K samples of one prompt from one prefill,
 * and several prompts of different lengths (left padding) with one or K seeds each; with stop strings, end of
 * sequence, different budgets, greedy decoding, a grammar (one call per reply) and a context that is nearly full.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeRuntime } from '../../src/runtime/node';
import type { ModelRuntime } from '../../src/runtime/runtime';
import type { GenerateOptions, GenerateResult, SampleRequest } from '../../src/runtime/types';
import { buildInboxVotePrompt, buildInitialVotePrompt, buildStanceMessagePrompt } from '../../src/core/prompts/opinions';
import { REPLY_FORMATS } from '../../src/core/prompts/formats';

const persona = 'You are a 41-year-old moderate ferry mechanic from Tromsø who is not religious. You are blunt.';
const PERSONAS = [
  persona,
  'You are a 67-year-old retired judge from Valparaíso. You are patient, careful with words, and a lifelong birdwatcher.',
  'You are a student.',
  'You are a 29-year-old nurse from Accra who works night shifts and volunteers at a food bank on Sundays. You are warm.',
];
const question = { kind: 'subjective' as const, statement: 'Cities should close their centres to private cars on weekends.' };
const SEEDS = Array.from({ length: 8 }, (_, k) => `samples-test/a3/v${k}`);

/** What generate() gives each request and seed, one call at a time. */
async function lone(rt: ModelRuntime, requests: readonly SampleRequest[]): Promise<GenerateResult[][]> {
  const out: GenerateResult[][] = [];
  for (const { options, seeds } of requests) {
    const replies: GenerateResult[] = [];
    for (const seed of seeds) replies.push(await rt.generate({ ...options, seed }));
    out.push(replies);
  }
  return out;
}
const view = (rs: GenerateResult[][]) => rs.map((r) => r.map((x) => ({ text: x.text, tokens: x.tokens, finish: x.finishReason })));
/** Both ways, compared reply by reply; returns the batched replies. */
async function same(rt: ModelRuntime, requests: SampleRequest[]): Promise<GenerateResult[][]> {
  const batched = await rt.generateSamples(requests);
  expect(view(batched)).toEqual(view(await lone(rt, requests)));
  return batched;
}
const one = (options: GenerateOptions, seeds: readonly string[]): SampleRequest[] => [{ options, seeds }];

describe.each(['organism-opinions', 'tiny-social'])('%s: replies decoded together', (model) => {
  let rt: ModelRuntime;
  beforeAll(async () => {
    rt = createNodeRuntime();
    await rt.load(model, { device: 'cpu', dtype: 'fp32' });
  }, 60_000);
  afterAll(async () => rt?.dispose());

  it('K samples of one prompt: votes at the lab temperature, with a stop string', async () => {
    const vote = { messages: buildInitialVotePrompt(persona, question), temperature: 0.7, maxNewTokens: 6, stop: ['\n'] };
    const [batched] = await same(rt, one(vote, SEEDS));
    // One prefill and one batched decode: every sample reports the same shared time (lone calls each have their own).
    expect(new Set(batched.map((r) => r.timing.totalMs)).size).toBe(1);
  });

  it('K samples of one prompt on longer replies, where rows end at different steps', async () => {
    const o = {
      messages: buildInboxVotePrompt(persona, question, ['I agree: the air is cleaner.'], ['I disagree: shops lose customers.']),
      temperature: 1.2,
      maxNewTokens: 24,
    };
    const [batched] = await same(rt, one(o, SEEDS));
    // The seeds give different replies (otherwise the comparison would prove little).
    expect(new Set(batched.map((r) => r.text)).size).toBeGreaterThan(1);
    // With both penalties: the seeds share the prompt's first logits, and each must penalise its own copy once.
    const [penalised] = await same(rt, one({ ...o, promptBoost: 1.3, repetitionPenalty: 1.5 }, SEEDS));
    expect(penalised.map((r) => r.text)).not.toEqual(batched.map((r) => r.text));
    // With banned sequences: the first seed's opening pair (its second token checked against the first, which the
    // batch draws on its own) and its fourth token, nowhere in any seed's reply.
    const t = batched[0].tokens;
    const bans = [[t[0], t[1]], [t[3]]];
    const [banning] = await same(rt, one({ ...o, banned: bans }, SEEDS));
    for (const r of banning) {
      expect(r.tokens).not.toContain(t[3]);
      r.tokens.forEach((x, i) => expect([x, r.tokens[i + 1]]).not.toEqual(bans[0]));
    }
  });

  it('several prompts of different lengths, one seed each: messages with a stop string', async () => {
    const requests = PERSONAS.flatMap((p, i) =>
      (['Agree', 'Disagree'] as const).map((stance, k) => ({
        options: { messages: buildStanceMessagePrompt(p, question, stance), temperature: 0.7, maxNewTokens: 40, stop: ['\n'] },
        seeds: [`samples-test/a${i}/m${k}`],
      })),
    );
    // The prompts differ in length, so every row but the longest is padded.
    expect(new Set(requests.map((r) => rt.tokenize(r.options).length)).size).toBeGreaterThan(2);
    const batched = await same(rt, requests);
    expect(new Set(batched.map(([r]) => r.text)).size).toBeGreaterThan(2);
    expect(new Set(batched.map(([r]) => r.timing.totalMs)).size).toBe(1);
    // With a prompt boost and a repetition penalty each row counts its own prompt and reply so far, not the padding
    // nor the other rows': still the lone calls' replies, and not the plain ones.
    for (const extra of [{ promptBoost: 1.5 }, { repetitionPenalty: 1.5 }]) {
      const changed = await same(
        rt,
        requests.map((r) => ({ ...r, options: { ...r.options, ...extra } })),
      );
      expect(changed.map(([r]) => r.text)).not.toEqual(batched.map(([r]) => r.text));
    }
  });

  it('several prompts with K seeds each, their own budgets and stops, and each prompt its own prefill states', async () => {
    const requests: SampleRequest[] = PERSONAS.map((p, i) => ({
      options: {
        messages: buildInboxVotePrompt(p, question, ['I agree: the air is cleaner.'], i % 2 ? [] : ['I disagree: shops lose customers.']),
        temperature: 1.2,
        maxNewTokens: 4 + 7 * i,
        ...(i === 1 ? { stop: ['e'] } : {}),
      },
      seeds: SEEDS.slice(0, 2 + i),
    }));
    const batched = await same(rt, requests);
    const alone = await lone(rt, requests);
    batched.forEach((replies, i) => {
      expect(replies.length).toBe(2 + i);
      for (const r of replies) expect(r.tokens.length).toBeLessThanOrEqual(4 + 7 * i);
      const [a, b] = [replies[0].prefillStates!, alone[i][0].prefillStates!];
      expect(a.length).toBe(b.length);
      expect(Math.max(...a.map((x, j) => Math.abs(x - b[j])))).toBeLessThan(1e-3);
    });
  });

  it('is one reply copied when greedy, and one call per reply under a grammar', async () => {
    const greedy = { messages: buildInitialVotePrompt(persona, question), temperature: 0, maxNewTokens: 6 };
    await same(rt, one(greedy, SEEDS.slice(0, 3)));
    await same(
      rt,
      PERSONAS.map((p) => ({ options: { ...greedy, messages: buildStanceMessagePrompt(p, question, 'Agree'), maxNewTokens: 12 }, seeds: ['g'] })),
    );
    const grammar = REPLY_FORMATS['vote-subjective'].grammar!();
    const constrained = { ...greedy, temperature: 0.7, grammar };
    await same(rt, one(constrained, SEEDS.slice(0, 3)));
    await same(rt, [
      { options: constrained, seeds: SEEDS.slice(0, 2) },
      { options: { ...constrained, messages: buildInitialVotePrompt(PERSONAS[1], question) }, seeds: SEEDS.slice(2, 3) },
    ]);
  });

  it('cuts every reply to the context left, as a lone call does, and refuses a prompt that fills it', async () => {
    const info = (await rt.info())!;
    const filler = 'The ferry leaves at dawn and the harbour is cold. '.repeat(400);
    const ids = rt.tokenize({ prompt: filler });
    const nearlyFull = rt.decodeTokens(ids.slice(0, info.contextLength! - 3));
    const [batched] = await same(rt, one({ prompt: nearlyFull, temperature: 0.9, maxNewTokens: 16 }, SEEDS.slice(0, 4)));
    expect(batched.every((r) => r.tokens.length <= 3)).toBe(true);
    // Beside a short prompt, the nearly full one is answered on its own, with the same cut.
    await same(rt, [
      { options: { prompt: 'Hello', temperature: 0.9, maxNewTokens: 16 }, seeds: SEEDS.slice(0, 2) },
      { options: { prompt: nearlyFull, temperature: 0.9, maxNewTokens: 16 }, seeds: SEEDS.slice(0, 2) },
    ]);
    const tooLong = rt.decodeTokens(ids.slice(0, info.contextLength! + 5));
    await expect(
      rt.generateSamples([
        { options: { prompt: 'Hello', maxNewTokens: 4, temperature: 0.7 }, seeds: ['a'] },
        { options: { prompt: tooLong, maxNewTokens: 4, temperature: 0.7 }, seeds: ['b'] },
      ]),
    ).rejects.toThrow(/reads at most/);
  });
});
