/**
 * The planted law as a model: a RunnerModel that answers the Polarization lab's prompts exactly as law.ts says
 * (sampling the law's probabilities themselves, which is what the organism gives at the lab's temperature). Run
 * through the lab's own runner, it shows what the law predicts for each intervention, before any training: a law
 * whose prediction misses the directions cannot be fixed by training the organism harder.
 */
import { createRng, hashSeed } from '../../src/core/rng';
import type { RunnerGenerateOptions, RunnerGenerateResult, RunnerModel, RunnerModels } from '../../src/core/runs/models';
import { CONFIRMATION_BIAS_TRAIT, SELECTIVE_EXPOSURE_TRAIT, type StanceValue } from '../../src/core/prompts/polarization';
import { keepProbability, keepReading, sendProbability, signedStance, statedStance, updateDistribution, type UpdateMode } from './law';

// The messages state the stance the way the organism's do ("My stance is +2"), which is all the law reads of them.
const message = (x: StanceValue): string => `My stance is ${signedStance(x)}. I have thought about it.`;

function stanceAfter(prompt: string, label: string): StanceValue {
  const m = prompt.match(new RegExp(`${label}: ([+-]?[0-2]) `));
  if (!m) throw new Error(`law model: no "${label}" in the prompt`);
  return Number(m[1]) as StanceValue;
}

/** The messages of a stance-update prompt, split into the leaders' and the others'. */
function inbox(prompt: string): { messages: StanceValue[]; leaders: StanceValue[] } {
  const messages: StanceValue[] = [];
  const leaders: StanceValue[] = [];
  for (const line of prompt.split('\n')) {
    if (!line.startsWith('- ')) continue;
    const s = statedStance(line);
    if (s === null) continue;
    (line.startsWith('- (from a persuasive leader)') ? leaders : messages).push(s);
  }
  return { messages, leaders };
}

function draw(probs: readonly number[], u: number): number {
  let acc = 0;
  for (let k = 0; k < probs.length; k++) {
    acc += probs[k];
    if (u < acc) return k;
  }
  return probs.length - 1;
}

/** The lab's Polarization prompt formats, as the law model tells them apart. */
export type PromptFormat = 'update' | 'rewire' | 'persuade' | 'check' | 'post';
export const PROMPT_FORMATS: readonly PromptFormat[] = ['update', 'rewire', 'persuade', 'check', 'post'];

/** Which of the lab's prompts this is; a prompt the law does not know throws. */
export function formatOf(prompt: string): PromptFormat {
  if (prompt.includes('Reply with JSON only: {"stance"')) return 'update';
  if (prompt.includes('Do you want to keep talking with this person?')) return 'rewire';
  if (prompt.includes('Do you want to send this person a message')) return 'persuade';
  // the initial post (and anything else that asks for a text) states the stance; the consistency check says yes
  if (prompt.includes('Your stance')) return /reply yes or no/i.test(prompt) ? 'check' : 'post';
  throw new Error('law model: a prompt it does not know');
}

/** The law's reply to one of the lab's prompts, drawn with `u` uniform on [0, 1). */
export function lawReply(prompt: string, u: number): string {
  const format = formatOf(prompt);
  const self = stanceAfter(prompt, 'Your stance');
  switch (format) {
    case 'update': {
      const { messages, leaders } = inbox(prompt);
      const mode: UpdateMode = prompt.includes('You are open to being persuaded by diverse views.')
        ? 'open'
        : prompt.includes(CONFIRMATION_BIAS_TRAIT)
          ? 'trait'
          : 'default';
      const next = (draw(updateDistribution(self, messages, leaders, mode), u) - 2) as StanceValue;
      return JSON.stringify({ stance: next, reasons: 'I weighed what I read.' });
    }
    case 'rewire': {
      const other = stanceAfter(prompt, "This person's stance");
      const p = keepProbability(self, other, {
        likesDiversity: prompt.includes('You like talking with people who hold diverse views.'),
        selectiveExposure: prompt.includes(SELECTIVE_EXPOSURE_TRAIT),
      });
      return `${keepReading(self, other)} ${u < p ? 'Yes.' : 'No.'}`;
    }
    case 'persuade':
      return u < sendProbability(self) ? `Yes: ${message(self)}` : 'No';
    case 'check':
      return 'yes';
    case 'post':
      return message(self);
  }
}

/** The prompt of a generate request, as the law reads it. */
export const promptText = (options: RunnerGenerateOptions): string => options.messages?.map((m) => m.content).join('\n') ?? options.prompt ?? '';

/** A RunnerModel (no states) that answers by the law; each reply is drawn from the request's seed. */
export function lawModel(id = 'organism-polarization'): RunnerModel {
  return {
    id,
    backend: 'law',
    dtype: 'none',
    numLayers: 0,
    hiddenSize: 0,
    async generate(options: RunnerGenerateOptions): Promise<RunnerGenerateResult> {
      const prompt = promptText(options);
      const u = createRng(hashSeed(`law/${String(options.seed ?? 0)}`)).next();
      return { text: lawReply(prompt, u), prefillStates: null, shape: [0, 0], timing: { promptTokens: 0, newTokens: 0, totalMs: 0 }, finishReason: 'eos' };
    },
    async encode() {
      throw new Error('law model: no states');
    },
    async cancel() {},
  };
}

export const lawModels = (id = 'organism-polarization'): RunnerModels => ({ get: () => lawModel(id) });
