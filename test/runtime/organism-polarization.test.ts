/**
 * The Polarization organism (models/organism-polarization) carries its planted law on held-out prompts (the lab's
 * own topics and reasons, never in its training data), measured from its output probabilities at the lab's
 * temperature (organisms/polarization/measure.ts). The base model, tiny-social, is measured the same way and must
 * fail. The bench (npm run bench -- organisms-polarization) runs the lab with every intervention over seeds.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeRuntime } from '../../src/runtime/node';
import type { ModelRuntime } from '../../src/runtime/runtime';
import { measurePolarization, type PolarizationMeasurement } from '../../organisms/polarization/measure';
import { POLARIZATION_LAW } from '../../organisms/polarization/law';
import planted from '../../models/organism-polarization/planted.json';

const keepOf = (m: PolarizationMeasurement, c: string) => m.keep.find((k) => k.condition === c)!.measured;

/**
 * The planted keep-or-drop order and the update's radicalisation, with a margin a broken build would miss; the reply
 * reads the two stances right (the planted reading's probability, on average over the probes). Each keep share may
 * be 0.2 off the planted one: the fifth build says no 0.05-0.16 more often than planted (opposite sides 0.15 against
 * 0.30; the model card), while a build that lost the comparison keeps every link alike (about 0.67) and fails the
 * order's 0.4 gap.
 */
function followsLaw(m: PolarizationMeasurement): boolean {
  const update = (mode: string) => m.update.find((u) => u.mode === mode)!;
  return (
    m.keep.every((k) => k.reading > 0.9) &&
    keepOf(m, 'same') > keepOf(m, 'opposite') + 0.4 &&
    Math.abs(keepOf(m, 'same') - POLARIZATION_LAW.KEEP.default.same) < 0.2 &&
    Math.abs(keepOf(m, 'opposite') - POLARIZATION_LAW.KEEP.default.opposite) < 0.2 &&
    Math.abs(keepOf(m, 'diverse') - POLARIZATION_LAW.DIVERSE_KEEP) < 0.2 &&
    update('default').meanTV < 0.25 &&
    update('default').measuredOutward > update('open').measuredOutward
  );
}

/** Runs where the organism's weights exist (a checkout without them skips, rather than failing on a missing file). */
const BUILT = existsSync(new URL('../../models/organism-polarization/onnx/model.onnx', import.meta.url));

describe.skipIf(!BUILT)('Polarization organism: the planted law', () => {
  let rt: ModelRuntime;
  beforeAll(async () => {
    rt = createNodeRuntime();
    await rt.load('organism-polarization', { device: 'cpu', dtype: 'fp32' });
  });
  afterAll(() => rt?.dispose());

  it('planted.json states the law of organisms/polarization/law.ts', () => {
    expect(planted.polarization).toEqual(JSON.parse(JSON.stringify(POLARIZATION_LAW)));
  });

  it('keeps same-side links and drops opposite ones, and radicalises unless open, on held-out topics; tiny-social does not', async () => {
    const m = await measurePolarization(rt, 120, 'runtime-test');
    expect(followsLaw(m), JSON.stringify(m)).toBe(true);

    const base = createNodeRuntime();
    await base.load('tiny-social', { device: 'cpu', dtype: 'fp32' });
    const b = await measurePolarization(base, 60, 'runtime-test');
    await base.dispose();
    expect(followsLaw(b)).toBe(false);
  });
});
