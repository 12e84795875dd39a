/**
 * A stand-in player for the Similarity games: it reads the lab's own game prompts and answers by fixed rules, so
 * that the arithmetic of every game can be checked by hand. Models of one `world` share a word list (so a guesser
 * of the same world decodes the thinker's hint); `give`, `demand` and `pick` set the numeric moves; the first
 * `garbage` replies of each move are unparseable. It brainstorms and writes haiku for the novelty tasks, and scores
 * text by word overlap with the context.
 */
import type { RunnerGenerateOptions, RunnerModel } from '../../src/core/runs/models';

export interface FakeGameModelOptions {
  id: string;
  world: string;
  give?: number;
  demand?: number;
  pick?: number;
  garbage?: number;
}

export function fakeGameModel(o: FakeGameModelOptions) {
  const calls: RunnerGenerateOptions[] = [];
  const tries = new Map<string, number>();
  const wordFor = (letter: string) => `${letter}${o.world === 'shared' ? 'ardvark' : 'zzle'}`;
  const model: RunnerModel & { calls: typeof calls } = {
    id: o.id,
    backend: 'fake',
    dtype: 'fp32',
    numLayers: 2,
    hiddenSize: 4,
    calls,
    async encode() {
      throw new Error('the game fake does not encode');
    },
    async cancel() {},
    /** Each word of `text` scores -1 nat when the context holds it, else -2; no context: the first word is left out. */
    async scoreText(context: string, text: string) {
      const words = text.toLowerCase().split(/\s+/).filter(Boolean);
      const ctx = new Set(context.toLowerCase().split(/\s+/).filter(Boolean));
      const logProbs = words.map((w) => (ctx.has(w) ? -1 : -2)).slice(context ? 0 : 1);
      return { tokens: words.map((_, i) => i).slice(context ? 0 : 1), logProbs, total: logProbs.reduce((a, b) => a + b, 0) };
    },
    async generate(options) {
      calls.push(options);
      const prompt = options.messages!.map((m) => m.content).join('\n');
      const n = tries.get(prompt) ?? 0;
      tries.set(prompt, n + 1);
      const say = (text: string) => ({
        text,
        prefillStates: null,
        shape: [0, 0] as [number, number],
        timing: { promptTokens: 1, newTokens: 1, totalMs: 1 },
        finishReason: 'eos' as const,
      });
      if (n < (o.garbage ?? 0)) return say('I would rather talk about the weather today, honestly, and at length.');
      let m: RegExpExecArray | null;
      if ((m = /^Think of a common English word that starts with the letter (\w)/.exec(prompt))) return say(wordFor(m[1]));
      if ((m = /^Your secret word is "(\w+)"/.exec(prompt))) return say(`${m[1]}ish`);
      if ((m = /starts with the letter (\w)\. Their hint is "(\w+)"/.exec(prompt))) {
        const decoded = m[2].replace(/ish$/, '');
        return say(decoded.endsWith(wordFor(m[1]).slice(1)) ? decoded : wordFor(m[1]));
      }
      if ((m = /You have \$(\d+(?:\.\d+)?)/.exec(prompt))) return say(`Reason: fair is fair.\nContribution: ${((o.give ?? 0.5) * Number(m[1])).toFixed(2)}`);
      if (/^Split the dollar/.test(prompt)) return say(String(o.demand ?? 0.5));
      if (/^Number game/.test(prompt)) return say(String(o.pick ?? 33));
      if (/^Brainstorm ideas/.test(prompt)) return say(`- ${o.world} whale\n- walnut shade\n- deep sea`);
      if (/^Ideas:/.test(prompt)) {
        const first = /^- (.*)$/m.exec(prompt)?.[1] ?? 'nothing';
        // three lines: a haiku; which of two wordings depends on the draw, so uniqueness has something to count
        return say(`${first} rising\n${Number(options.seed) % 2 ? 'old roots hold the hill' : 'tide under the moon'}\nthe sea hums`);
      }
      throw new Error(`the game fake cannot answer: ${prompt.slice(0, 80)}`);
    },
  };
  return model;
}
