/**
 * A scripted agent for the Polarization lab's LLM runner: it reads the lab's own prompts and answers by rules, so
 * the epoch's bookkeeping can be checked by hand. Messages carry the writer's stance ("I hold +2 ..."); a stance
 * update moves one step towards the mean stance of the messages read; the agent keeps talking to people within one
 * level of its own stance (or to everyone when it "likes diverse views"); it writes to people of another stance.
 */
import type { ModelSampling, RunnerGenerateOptions, RunnerModel } from '../../src/core/runs/models';
import type { RunBundle } from '../../src/core/runs/bundle';
import { runHeadless } from '../../src/core/runs/headless';
import { validateConfig } from '../../src/core/config/validate';
import { polarizationLab } from '../../src/labs/polarization/config';
import { openLabByName } from '../../src/labs/registry';

const stanceIn = (line: string | undefined) => Number(/([+-]?\d)\s*\(/.exec(line ?? '')?.[1] ?? 0);

export function fakePolarizationAgent(id = 'fake-agent') {
  const prompts: string[] = [];
  const model: RunnerModel & { prompts: string[] } = {
    id,
    backend: 'fake',
    dtype: 'fp32',
    numLayers: 2,
    hiddenSize: 4,
    prompts,
    async encode() {
      throw new Error('the agent fake does not encode');
    },
    async cancel() {},
    async generate(options: RunnerGenerateOptions) {
      const p = options.messages![0].content;
      prompts.push(p);
      const say = (text: string) => ({
        text,
        prefillStates: null,
        shape: [0, 0] as [number, number],
        timing: { promptTokens: 1, newTokens: 1, totalMs: 1 },
        finishReason: 'eos' as const,
      });
      const lines = p.split('\n');
      const self = stanceIn(lines.find((l) => l.startsWith('Your stance:')));
      const other = stanceIn(lines.find((l) => l.startsWith("This person's stance:")));
      const signed = (v: number) => (v > 0 ? `+${v}` : String(v));
      if (/Write a post of about 50 words/.test(p)) return say(`I hold ${signed(self)} on this and here is why it matters to all of us.`);
      if (/Reply with JSON only/.test(p)) {
        const heard = [...p.matchAll(/I hold ([+-]?\d)/g)].map((m) => Number(m[1]));
        const mean = heard.length ? heard.reduce((a, b) => a + b, 0) / heard.length : self;
        const next = mean > self ? self + 1 : mean < self ? self - 1 : self;
        return say(JSON.stringify({ stance: next, reasons: `I moved after reading ${heard.length} messages.` }));
      }
      // the self-regulation check: the agent disowns a radical post that does not say "strongly", and a change of
      // stance made after reading a single message
      if (/Does this text fit your stance\?/.test(p)) {
        const text = p.split('Text:')[1] ?? '';
        return say((Math.abs(self) === 2 && /^ I hold/.test(text) && !/strongly/.test(text)) || /after reading 1 messages/.test(text) ? 'no' : 'yes');
      }
      if (/keep talking with this person/.test(p)) return say(/diverse views/.test(p) || Math.abs(self - other) <= 1 ? 'yes' : 'no');
      if (/argues for your view/.test(p))
        return say(other !== self ? `Yes: I hold ${signed(self)} and I think you should consider my reasons carefully today.` : 'No');
      throw new Error(`the agent fake cannot answer: ${p.slice(0, 80)}`);
    },
  };
  return model;
}

/** A small LLM Polarization run on the scripted agent: epoch, agent, interactions and state rows, nested fields and text. */
export async function fakePolarizationBundle(sampling?: ModelSampling): Promise<RunBundle> {
  const v = validateConfig(polarizationLab, {
    seed: 4,
    agents: 8,
    epochs: 2,
    agentKind: 'llm',
    model: 'fake-agent',
    network: { generator: 'ring', degree: 2 },
    llm: { initialPostShare: 0.5 },
  });
  if (!v.ok) throw new Error(JSON.stringify(v.errors));
  return runHeadless(polarizationLab, openLabByName('polarization'), v.value, { models: { get: () => ({ ...fakePolarizationAgent(), sampling }) } });
}
