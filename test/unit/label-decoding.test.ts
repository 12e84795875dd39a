import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng';
import { decodeLabelsSteps, type LabelledEpisode } from '../../src/labs/synchrony/label-decoding';
import { runSteps } from '../../src/core/steps';
import { EMOTIONS } from '../../src/core/prompts/synchrony';

/**
 * Episodes whose speakers' states (layer 2 only) hold the feeling the partner will show next; layer 1 is noise. A
 * shuffled copy keeps the same states and label counts but breaks the link.
 */
function episodes(shuffle: boolean): LabelledEpisode[] {
  const r = createRng('decoding');
  const H = 6;
  const out: LabelledEpisode[] = [];
  for (let g = 0; g < 24; g++) {
    const feelings = Array.from({ length: 8 }, () => r.int(4));
    const utterances = feelings.map((_, t) => {
      const next = feelings[t + 1] ?? r.int(4);
      const state = new Float64Array(2 * H);
      for (let h = 0; h < 2 * H; h++) state[h] = r.normal();
      state[H + next] += 4;
      return { speaker: (t % 2 ? 'B' : 'A') as 'A' | 'B', state, emotion: EMOTIONS[feelings[t]] as string };
    });
    out.push({ group: g, utterances });
  }
  if (shuffle) {
    const all = out.flatMap((e) => e.utterances.map((u) => u.emotion));
    createRng('shuffle').shuffle(all);
    let k = 0;
    for (const e of out) for (const u of e.utterances) u.emotion = all[k++];
  }
  return out;
}

const run = (eps: LabelledEpisode[]) =>
  runSteps(
    (function* () {
      const steps = decodeLabelsSteps(eps, { A: { L: 2, H: 6 }, B: { L: 2, H: 6 } }, { alpha: 1, splitSeeds: [0, 1, 2], testFraction: 0.2 });
      for (;;) {
        const s = steps.next();
        if (s.done) return s.value;
        yield { done: s.value, total: 1 };
      }
    })(),
  );

describe('label decoding', () => {
  it("finds the partner's next feeling at the layer that holds it, by many SEs, and nothing when the labels are shuffled", () => {
    const d = run(episodes(false));
    const next = d.curves.find((c) => c.direction === 'A→B' && c.kind === 'emotion' && c.time === 'next')!;
    expect(next.bestLayer).toBe(2);
    expect(next.probe[1]).toBeLessThan(next.baseline - 0.5);
    expect(next.gain / next.gainSe).toBeGreaterThan(2);
    // The previous feeling is not in the state: no layer beats the baseline by much.
    const prev = d.curves.find((c) => c.direction === 'A→B' && c.kind === 'emotion' && c.time === 'previous')!;
    expect(prev.gain).toBeLessThan(0.2);
    // No action labels: those curves are absent, not zero.
    expect(d.curves.some((c) => c.kind === 'action')).toBe(false);
    const shuffled = run(episodes(true)).curves.find((c) => c.direction === 'A→B' && c.kind === 'emotion' && c.time === 'next')!;
    expect(shuffled.gain).toBeLessThan(0.2);
  });
});
