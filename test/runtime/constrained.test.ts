/**
 * Constrained decoding (XGrammar through the runtime's logits processors), on the embedded model in Node: every
 * reply follows its grammar, greedy or sampled, and ends where the grammar ends. Without the grammar the same prompts
 * give free text that does not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeRuntime } from '../../src/runtime/node';
import { grammarAccepts } from '../../src/runtime/grammar';
import { GRAMMARS } from '../../src/core/prompts/grammars';
import type { ModelRuntime } from '../../src/runtime/runtime';
import { parseJsonObject } from '../../src/core/prompts/shared';
import { constrainedReply, REPLY_FORMAT_NAMES, REPLY_FORMATS, type FormatParams } from '../../src/core/prompts/formats';
import { standinFolders, STANDIN_ARCHS } from '../helpers/standins';
import { validateConfig } from '../../src/core/config';
import { opinionsLab } from '../../src/labs/opinions/config';
import { opinionsRunner } from '../../src/labs/opinions/runner';
import { runHeadless } from '../../src/core/runs/headless';
import { asRunnerModel, RunnerModelSet } from '../../src/runtime/runner-models';
import { resultOf } from '../../src/core/runs/results';
import { opinionsResults } from '../../src/labs/opinions/results';

const communityOf = (results: Parameters<typeof resultOf>[1]) => resultOf(opinionsResults, results, 'community');

/** The params a format's parser is given in the lab, for the formats that take any. */
const PARAMS: FormatParams = { letter: 'b', wealth: 40, word: 'bread' };
const STRUCTURED = REPLY_FORMAT_NAMES.filter((n) => REPLY_FORMATS[n].grammar);

/**
 * Every structured format's grammar, on one model: each reply parses, greedy and sampled, on varied prompts, under
 * exactly the budget the labs give it (constrainedReply: the grammar's longest reply at one character a token, which
 * a random-weight stand-in may spell). A reply cut short by the budget is the one way a constrained reply can still
 * fail to parse, so this also checks GRAMMAR_MAX_CHARS.
 */
async function everyFormatParses(rt: ModelRuntime): Promise<string[]> {
  const refused: string[] = [];
  for (const name of STRUCTURED) {
    const f = REPLY_FORMATS[name];
    const { grammar, minTokens } = constrainedReply(name, PARAMS)!;
    for (const [k, content] of PROMPTS.entries()) {
      const temperature = k % 2 ? 0.9 : 0;
      const r = await rt.generate({ messages: [{ role: 'user', content }], grammar, temperature, seed: k, maxNewTokens: minTokens });
      const parsed = f.parse(r.text, PARAMS);
      if (!parsed.ok) refused.push(`${name}: ${JSON.stringify(r.text)} (${parsed.reason})`);
    }
  }
  return refused;
}

const PROMPTS = [
  'Do you agree that cities should have more bike lanes? Answer Yes or No.',
  'Is the sky green? Answer Yes or No.',
  'Rate the negotiation from 0 to 10.',
  'Hello there, how are you?',
];

describe('constrained decoding on tiny-social (Node, cpu)', () => {
  let rt: ModelRuntime;
  beforeAll(async () => {
    rt = createNodeRuntime();
    await rt.load('tiny-social', { device: 'cpu', dtype: 'fp32' });
  });
  afterAll(() => rt?.dispose());

  it('a yes/no grammar gives "Yes." or "No." for every prompt, greedy and sampled', async () => {
    const grammar = 'root ::= ("Yes" | "No") "."';
    const free: string[] = [];
    for (const content of PROMPTS) {
      for (const temperature of [0, 0.9]) {
        const r = await rt.generate({ messages: [{ role: 'user', content }], grammar, temperature, seed: 7, maxNewTokens: 16 });
        expect(r.text, content).toMatch(/^(Yes|No)\.$/);
        expect(r.finishReason).toBe('eos');
      }
      free.push((await rt.generate({ messages: [{ role: 'user', content }], maxNewTokens: 16 })).text);
    }
    // The toy model left to itself does not answer this way, so the grammar is what made the replies fit.
    expect(free.filter((t) => /^(Yes|No)\.$/.test(t)).length).toBeLessThan(PROMPTS.length);
  });

  it('a JSON grammar gives an object that the lab’s JSON reader parses, with its number in range', async () => {
    const grammar = String.raw`root ::= "{\"score\": " ([0-9] | "10") ", \"reason\": \"" [a-zA-Z ]{1,40} "\"}"`;
    for (const content of PROMPTS) {
      const r = await rt.generate({ messages: [{ role: 'user', content }], grammar, temperature: 0.7, seed: 3, maxNewTokens: 64 });
      const parsed = parseJsonObject(r.text);
      expect(parsed.ok, r.text).toBe(true);
      if (parsed.ok) {
        expect(parsed.value.score).toBeGreaterThanOrEqual(0);
        expect(parsed.value.score).toBeLessThanOrEqual(10);
        expect(typeof parsed.value.reason).toBe('string');
      }
    }
  });

  it('a grammar XGrammar cannot read is refused with its error, and the model still answers after it', async () => {
    await expect(rt.generate({ prompt: 'Hi', grammar: 'root ::= (' })).rejects.toThrow();
    expect((await rt.generate({ prompt: 'Hi', maxNewTokens: 4 })).tokens.length).toBeGreaterThan(0);
  });

  it('every structured format has a grammar, and every reply under it parses with the format', async () => {
    expect(STRUCTURED).toEqual([
      'vote-subjective',
      'vote-objective',
      'stance-json',
      'yes-no',
      'word',
      'hint',
      'guess',
      'contribution',
      'demand',
      'number',
      'judge-json',
    ]);
    expect(await everyFormatParses(rt)).toEqual([]);
  });
});

describe('the grammars say what their parsers read (XGrammar checks whole texts)', () => {
  it('hint: any lowercase word but the secret one and its plurals', async () => {
    const hint = GRAMMARS.hint('Boxes');
    for (const refused of ['boxes', 'boxeses', 'boxess', 'box', 'boxe', 'b', 'Toast', 'two words', 'x'.repeat(16)]) {
      expect(await grammarAccepts(hint, refused), refused).toBe(false);
    }
    for (const allowed of ['bo', 'boxer', 'boxesx', 'toast', 'crate', 'boxy', 'x'.repeat(15)]) {
      expect(await grammarAccepts(hint, allowed), allowed).toBe(true);
    }
  });
  it('word: one word that starts with the letter; number: 0 to 100; judge-json: every dimension, scores in range', async () => {
    expect(await grammarAccepts(GRAMMARS.word('b'), 'Bread')).toBe(true);
    expect(await grammarAccepts(GRAMMARS.word('b'), 'toast')).toBe(false);
    expect(await grammarAccepts(GRAMMARS.number(), '100')).toBe(true);
    expect(await grammarAccepts(GRAMMARS.number(), '101')).toBe(false);
    const judge = (score: number) =>
      `{${['believability', 'relationship', 'knowledge', 'secret', 'social_rules', 'financial_and_material_benefits', 'goal']
        .map((d) => `"${d}": {"score": ${d === 'secret' ? score : 0}, "reason": "ok"}`)
        .join(', ')}}`;
    expect(await grammarAccepts(GRAMMARS.judgeJson(), judge(-3))).toBe(true);
    expect(await grammarAccepts(GRAMMARS.judgeJson(), judge(3))).toBe(false); // secret is −10..0
  });
});

describe('constrained decoding on the architecture stand-ins (Node, cpu)', () => {
  const folders = standinFolders();
  afterAll(() => folders.cleanup());

  it('an Opinions community of a model that does not speak the vote format: free votes are lost, constrained ones all count', async () => {
    // The llama stand-in (random weights) stands in the community under the config's model id.
    const rt = createNodeRuntime();
    try {
      const info = await rt.load(folders.dir('llama'), { device: 'cpu', dtype: 'fp32' });
      const models = new RunnerModelSet();
      models.add(asRunnerModel('tiny-social', rt, info));
      const rates: Partial<Record<'free' | 'constrained', NonNullable<ReturnType<typeof communityOf>>>> = {};
      for (const decoding of ['free', 'constrained'] as const) {
        const v = validateConfig(opinionsLab, {
          mode: 'community',
          seed: 3,
          custom: { nodes: 4, edges: '0+1,1+2,2-3,3+0' },
          community: { model: 'tiny-social', rounds: 1, votesPerRound: 2, questionId: 's05', decoding, messageAttempts: 1 },
        });
        if (!v.ok) throw new Error(JSON.stringify(v.errors));
        const bundle = await runHeadless(opinionsLab, opinionsRunner, v.value, { models });
        rates[decoding] = communityOf(bundle.results)!;
      }
      console.log(`stand-in community: vote parse rate free ${rates.free!.voteParseRate}, constrained ${rates.constrained!.voteParseRate}`);
      expect(rates.free!.decoding).toBe('free');
      expect(rates.free!.voteParseRate).toBeLessThan(0.5);
      expect(rates.constrained!.decoding).toBe('constrained');
      expect(rates.constrained!.voteParseRate).toBe(1);
    } finally {
      await rt.dispose();
    }
  });

  it.each(STANDIN_ARCHS.map((a) => [a]))('%s: every reply under every structured format parses', async (arch) => {
    // A stand-in is random weights (test/fixtures/make_arch_standins.py) with tiny-social's tokenizer.
    const rt = createNodeRuntime();
    try {
      await rt.load(folders.dir(arch), { device: 'cpu', dtype: 'fp32' });
      expect(await everyFormatParses(rt)).toEqual([]);
    } finally {
      await rt.dispose();
    }
  });
});
