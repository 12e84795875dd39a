/**
 * Measures the Polarization organism's planted behaviour from its output probabilities at the lab's temperature, on
 * held-out prompts: the lab's own topics and their reasons (src/labs/polarization/topics.ts), never in training.
 *  - keep-or-drop: the reply reads the two stances aloud first ("Me +2, you -1: opposite sides."): how surely it
 *    writes that reading (its probability, at temperature 1), and P(yes) after it, by the two agents' sides, by
 *    default and with "likes diverse views";
 *  - stance update: the distribution of the next stance (the JSON's first field) against the planted one, as the
 *    mean total-variation distance, and the mean outward step (radicalisation) with and without "open to persuasion".
 */
import { createRng } from '../../src/core/rng';
import * as P from '../../src/core/prompts';
import { TOPICS } from '../../src/labs/polarization/topics';
import { keepProbability, keepReading, LAB_TEMPERATURE, sides, updateDistribution, type Sides, type UpdateMode } from './law';
import { messageFor } from './corpus';

export interface Scorer {
  scoreText(context: string, text: string): Promise<{ total: number }>;
}

/** Sampling probabilities at temperature T from the log-probabilities of the options. */
export function sampled(logps: number[], T = LAB_TEMPERATURE): number[] {
  const z = logps.map((l) => l / T);
  const m = Math.max(...z);
  const e = z.map((v) => Math.exp(v - m));
  const s = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / s);
}

export interface PolarizationMeasurement {
  /** measured: P(yes) after the planted reading; reading: the mean probability that the reply writes that reading. */
  keep: { condition: Sides | 'diverse'; planted: number; measured: number; reading: number; probes: number }[];
  update: { mode: UpdateMode; probes: number; meanTV: number; plantedOutward: number; measuredOutward: number }[];
}

const STANCES: P.StanceValue[] = [-2, -1, 0, 1, 2];

export async function measurePolarization(model: Scorer, n: number, seed = 'measure'): Promise<PolarizationMeasurement> {
  const r = createRng(seed);
  const topics = Object.values(TOPICS);
  const keepAcc = new Map<string, { planted: number; measured: number; reading: number; probes: number }>();
  for (let k = 0; k < n; k++) {
    const t = topics[r.int(topics.length)];
    const a = STANCES[r.int(5)];
    const b = STANCES[r.int(5)];
    const diverse = r.next() < 0.25;
    const ctx = P.renderChatML(
      P.buildRewirePrompt({ topic: t, self: { stance: a, reasons: t.reasons[a] }, other: { stance: b, reasons: t.reasons[b] }, likesDiversity: diverse }),
      true,
    );
    // The two replies share the reading, so their log-probabilities differ only in the answer's tokens.
    const reading = keepReading(a, b);
    const [yes] = sampled([(await model.scoreText(ctx, `${reading} Yes.`)).total, (await model.scoreText(ctx, `${reading} No.`)).total]);
    const key = diverse ? 'diverse' : sides(a, b);
    const acc = keepAcc.get(key) ?? { planted: 0, measured: 0, reading: 0, probes: 0 };
    acc.planted += keepProbability(a, b, { likesDiversity: diverse });
    acc.measured += yes;
    acc.reading += Math.exp((await model.scoreText(ctx, reading)).total);
    acc.probes++;
    keepAcc.set(key, acc);
  }
  const upd = new Map<UpdateMode, { probes: number; tv: number; po: number; mo: number }>();
  for (let k = 0; k < n; k++) {
    const t = topics[r.int(topics.length)];
    const wrap = { topic: t as P.PolarizationTopic, name: t.name };
    const x = STANCES[r.int(5)];
    const lean = r.next() * 4 - 2;
    const ms = Array.from({ length: 1 + r.int(5) }, () => Math.max(-2, Math.min(2, Math.round(lean + (r.next() * 2 - 1) * 1.5))) as P.StanceValue);
    const mode: UpdateMode = r.next() < 0.5 ? 'open' : 'default';
    const ctx = P.renderChatML(
      P.buildStanceUpdatePrompt({
        topic: t,
        self: { stance: x, reasons: t.reasons[x] },
        messages: ms.map((m) => messageFor(r, wrap, m)),
        openToPersuasion: mode === 'open',
      }),
      true,
    );
    const lp: number[] = [];
    // No trailing comma: in the reply, the comma and the next quote are one token (',"'), so scoring '…2,' alone
    // would ask for a token the model never writes there.
    for (const v of STANCES) lp.push((await model.scoreText(ctx, `{"stance":${v}`)).total);
    const measured = sampled(lp);
    const planted = updateDistribution(x, ms, [], mode);
    const tv = 0.5 * planted.reduce((s, p, i) => s + Math.abs(p - measured[i]), 0);
    const outward = (d: number[]) =>
      x === 0 ? d.reduce((s, p, i) => s + p * Math.abs(i - 2), 0) : d.reduce((s, p, i) => s + p * (Math.abs(i - 2) - Math.abs(x)), 0);
    const acc = upd.get(mode) ?? { probes: 0, tv: 0, po: 0, mo: 0 };
    acc.probes++;
    acc.tv += tv;
    acc.po += outward(planted);
    acc.mo += outward(measured);
    upd.set(mode, acc);
  }
  return {
    keep: [...keepAcc].map(([condition, a]) => ({
      condition: condition as Sides | 'diverse',
      planted: a.planted / a.probes,
      measured: a.measured / a.probes,
      reading: a.reading / a.probes,
      probes: a.probes,
    })),
    update: [...upd].map(([mode, a]) => ({
      mode,
      probes: a.probes,
      meanTV: a.tv / a.probes,
      plantedOutward: a.po / a.probes,
      measuredOutward: a.mo / a.probes,
    })),
  };
}
