/**
 * The Opinions model organism (models/organism-opinions) carries its planted law: measured on held-out prompts (the
 * lab's bundled personas and statements, never in its training data) straight from its output probabilities, and
 * end to end through the lab (a community run and the lab's Glauber fit). The base model, tiny-social, is measured
 * with the same check and must fail it: the tolerance is one that a broken build would not pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeRuntime } from '../../src/runtime/node';
import { asRunnerModel, RunnerModelSet } from '../../src/runtime/runner-models';
import type { ModelRuntime } from '../../src/runtime/runtime';
import { measureLaw } from '../../organisms/opinions/measure';
import { runRecovery } from '../../organisms/opinions/recovery';
import { OPINIONS_LAW } from '../../organisms/opinions/law';
import planted from '../../models/organism-opinions/planted.json';

const { friendly, unfriendly } = OPINIONS_LAW.effective;
/** Relative tolerance of the probability-level check (the bench measures the real error on 400 probes). */
const TOL = 0.2;

describe('Opinions organism: the planted law', () => {
  let rt: ModelRuntime;
  const models = new RunnerModelSet();
  beforeAll(async () => {
    rt = createNodeRuntime();
    const info = await rt.load('organism-opinions', { device: 'cpu', dtype: 'fp32' });
    models.add(asRunnerModel('organism-opinions', rt, info));
  });
  afterAll(() => rt?.dispose());

  it("planted.json states the law of organisms/opinions/law.ts in the fit's names", () => {
    expect(planted.opinions.effective).toEqual({ friendly, unfriendly });
  });

  it("its vote probabilities on held-out prompts follow the planted weights; the base model's do not", async () => {
    const m = await measureLaw(rt, 160, 'runtime-test');
    expect(Math.abs(m.recovered.friendly - friendly)).toBeLessThan(TOL * Math.abs(friendly));
    expect(Math.abs(m.recovered.unfriendly - unfriendly)).toBeLessThan(TOL * Math.abs(unfriendly));
    expect(Math.abs(m.recovered.field)).toBeLessThan(0.25);

    const base = createNodeRuntime();
    await base.load('tiny-social', { device: 'cpu', dtype: 'fp32' });
    const b = await measureLaw(base, 80, 'runtime-test');
    await base.dispose();
    const passes = Math.abs(b.recovered.friendly - friendly) < TOL * friendly && Math.abs(b.recovered.unfriendly - unfriendly) < TOL * Math.abs(unfriendly);
    expect(passes).toBe(false);
  });

  it('the lab, end to end (community run, Glauber fit), finds friends pulling and rivals pushing', async () => {
    // Small enough for the suite (about 40 s): the fitted weights are noisy here, so the test asserts their signs
    // and order; the bench (npm run bench -- organisms) measures them against the planted values on 22 questions.
    const r = await runRecovery(
      { model: 'organism-opinions', seed: 2, agents: 12, edgeBudget: 24, rounds: 4, questions: ['s01', 's02', 's03', 's04'], graphs: 1 },
      models,
      1,
    );
    expect(r.transitions).toBeGreaterThan(150);
    expect(r.recovered.friendly).toBeGreaterThan(0.4 * friendly);
    expect(r.recovered.unfriendly).toBeLessThan(0);
    expect(r.balanced['Glauber, 3 couplings']).toBeGreaterThan(r.balanced['Persistence'] + 5);
  });
});
