/**
 * The planted Polarization law as a model (organisms/polarization/law-model.ts): its replies parse with the lab's
 * parsers and follow the law, and run through the lab's own runner the law predicts the directions the issue asks
 * of the organism (random interactions and no confirmation bias lower P). The trained organism is measured against
 * this prediction (docs/organisms.md).
 */
import { describe, expect, it } from 'vitest';
import { lawModels, lawReply } from '../../organisms/polarization/law-model';
import { POLARIZATION_SETUP, runInterventions } from '../../organisms/polarization/recovery';
import { parseStanceUpdate, parseYesNo, buildStanceUpdatePrompt, buildRewirePrompt } from '../../src/core/prompts/polarization';
import { topicById } from '../../src/labs/polarization/topics';
import { keepProbability } from '../../organisms/polarization/law';

const topic = topicById('gunControl')!;

describe('the Polarization law as a model', () => {
  it('answers keep-or-drop with the planted share, and an update the lab parses', () => {
    const rewire = buildRewirePrompt({ topic, self: { stance: 2, reasons: 'x' }, other: { stance: -1, reasons: 'y' } })[0].content;
    const n = 2000;
    let yes = 0;
    for (let k = 0; k < n; k++) {
      const p = parseYesNo(lawReply(rewire, (k + 0.5) / n));
      expect(p.ok).toBe(true);
      if (p.ok && p.value) yes++;
    }
    expect(yes / n).toBeCloseTo(keepProbability(2, -1, {}), 2);
    const update = buildStanceUpdatePrompt({ topic, self: { stance: 2, reasons: 'x' }, messages: ['My stance is -2 (strongly against). No.'] })[0].content;
    // one opposing message: backfire 0.05 keeps +2 (clamped), persuade 0.15 of the rest moves to +1
    const moved = Array.from({ length: 1000 }, (_, k) => parseStanceUpdate(lawReply(update, (k + 0.5) / 1000))).filter(
      (p) => p.ok && p.value.stance === 1,
    ).length;
    expect(moved / 1000).toBeCloseTo(0.95 * 0.15, 2);
  });

  it('through the lab runner, predicts that random interactions and no confirmation bias lower P', async () => {
    const seeds = Array.from({ length: 16 }, (_, i) => i + 1);
    const rows = await runInterventions({ ...POLARIZATION_SETUP, seeds }, lawModels(), ['none', 'randomInteractions', 'noConfirmationBias']);
    for (const r of rows.slice(1)) {
      expect(r.failures).toBe(0);
      expect(r.delta! / r.deltaSe!).toBeLessThan(-2);
    }
  });
});
