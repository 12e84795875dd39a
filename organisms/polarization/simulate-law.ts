/**
 * What the planted law predicts for each intervention: the Polarization lab's own runner on the law itself
 * (law-model.ts) instead of the trained organism, with the bench's setup (recovery.ts POLARIZATION_SETUP) and more
 * seeds. Seconds, not minutes, so it can use many.
 *
 *   npx tsx organisms/polarization/simulate-law.ts [--seeds 30] [--topic gunControl] [--organism update,rewire]
 *
 * --organism lets the trained organism (models/organism-polarization, Node CPU fp32) answer the listed prompt
 * formats and the law the rest: which part of the organism keeps an intervention from acting (minutes, not seconds).
 */
import { option } from '../args';
import { createNodeRuntime } from '../../src/runtime/node';
import { asRunnerModel } from '../../src/runtime/runner-models';
import type { RunnerModel, RunnerModels } from '../../src/core/runs/models';
import { formatOf, lawModel, lawModels, promptText, PROMPT_FORMATS, type PromptFormat } from './law-model';
import { POLARIZATION_SETUP, runInterventions } from './recovery';

const MODEL = 'organism-polarization';

/** The organism for the listed formats, the law for the others. */
async function hybridModels(formats: readonly PromptFormat[]): Promise<RunnerModels> {
  const rt = createNodeRuntime();
  const organism = asRunnerModel(MODEL, rt, await rt.load(MODEL, { device: 'cpu', dtype: 'fp32' }));
  const law = lawModel(MODEL);
  const hybrid: RunnerModel = {
    ...organism,
    generate: (options) => (formats.includes(formatOf(promptText(options))) ? organism.generate(options) : law.generate(options)),
  };
  return { get: () => hybrid };
}

const formats = option('--organism', '')
  .split(',')
  .filter(Boolean)
  .map((f) => {
    const known = PROMPT_FORMATS.find((k) => k === f);
    if (!known) throw new Error(`--organism: "${f}" is not one of ${PROMPT_FORMATS.join(', ')}`);
    return known;
  });
const seeds = Array.from({ length: Number(option('--seeds', '30')) }, (_, i) => i + 1);
const models = formats.length ? await hybridModels(formats) : lawModels();
const rows = await runInterventions({ ...POLARIZATION_SETUP, seeds, topic: option('--topic', POLARIZATION_SETUP.topic) }, models);
console.log(`| intervention | P (final) | P − P(none) | in SEs | H (final) |\n|---|---|---|---|---|`);
for (const c of rows) {
  const d = c.delta === null || c.deltaSe === null ? '–' : `${c.delta.toFixed(2)} ± ${c.deltaSe.toFixed(2)}`;
  const z = c.delta === null || c.deltaSe === null ? '–' : (c.delta / c.deltaSe).toFixed(1);
  console.log(`| ${c.intervention} | ${c.P.toFixed(2)} ± ${c.se.toFixed(2)} | ${d} | ${z} | ${c.H.toFixed(2)} |`);
}
