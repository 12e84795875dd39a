/**
 * The Similarity population (models/organism-sim-*) carries its planted law on the lab's prompts (measure.ts: the
 * other lexicon's hints were never shown to a guesser); tiny-social, which learnt both lexicons' words with their
 * hints, fails the same check. That the lab, run end to end on the population, finds the planted signs is checked
 * where a class sees it: the Similarity preset in Chromium (test/browser/presets.test.ts). The bench
 * (npm run bench -- organisms-similarity) runs more seeds.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createNodeRuntime } from '../../src/runtime/node';
import { VARIANTS } from '../../organisms/similarity/law';
import { measurePopulationMember, type PopulationMeasurement } from '../../organisms/similarity/measure';

/** The planted law with a margin a broken build would miss. */
function followsLaw(m: PopulationMeasurement): boolean {
  return m.ownWord > 0.85 && m.guessOwn > 0.85 && m.guessOther < 0.1 && m.brainstormOwn > 0.8 && m.storyListed > 0.6 && m.parsed > 0.95;
}

const BUILT = VARIANTS.every((v) => existsSync(new URL(`../../models/${v.id}/onnx/model.onnx`, import.meta.url)));

describe.skipIf(!BUILT)('Similarity population: the planted law', () => {
  it('each variant plays its own lexicon and tells the listed stories; tiny-social does not follow the law', async () => {
    for (const v of VARIANTS) {
      const rt = createNodeRuntime();
      await rt.load(v.id, { device: 'cpu', dtype: 'fp32' });
      const m = await measurePopulationMember(rt, v.lexicon, 30, 'runtime-test');
      await rt.dispose();
      expect(followsLaw(m), `${v.id}: ${JSON.stringify(m)}`).toBe(true);
    }
    const base = createNodeRuntime();
    await base.load('tiny-social', { device: 'cpu', dtype: 'fp32' });
    const b = await measurePopulationMember(base, 'A', 20, 'runtime-test');
    await base.dispose();
    expect(followsLaw(b), JSON.stringify(b)).toBe(false);
  });
});
