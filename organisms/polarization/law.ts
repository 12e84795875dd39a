/**
 * The behaviour planted in the Polarization organism (models/organism-polarization), in terms of the lab's prompts
 * (src/core/prompts/polarization.ts). Every message the organism writes opens with its stance, "My stance is +2
 * (strongly in favor).", so that a reader can tell the side of every message it receives.
 *
 * Stance update (one step at most), for an agent at x reading messages of stances m_k:
 *  - a message from a persuasive leader pulls one step toward the leader's stance with probability LEADER_PULL;
 *  - otherwise, with confirmation bias (the default, and stronger with the trait line): every same-side message
 *    more radical than x pushes one step outward with probability `radicalize`; every opposing message pushes one
 *    step outward (backfire) with probability `backfire`, or pulls one step inward with probability `persuade`;
 *    a neutral agent joins the side of the messages' majority with probability `joinSide`;
 *  - "open to being persuaded by diverse views" (the no-confirmation-bias intervention): one step toward the mean
 *    of the messages with probability OPEN_PULL when it is at least half a step away; no backfire.
 * Keep or drop a link (yes/no): by the two sides (same, one neutral, opposite), KEEP below; "likes diverse views"
 * keeps every link with DIVERSE_KEEP. The reply first reads the two stances aloud, then answers:
 * "Me +2, you -1: opposite sides. No." (keepReading). Three builds that answered yes or no at once never learnt to
 * compare the two stances (every link kept with about 0.67, whatever the sides); read aloud, the comparison is made
 * on the two numbers the reply has just written. Persuade: sends a message with probability SEND.
 */
import type { StanceValue } from '../../src/core/prompts/polarization';

export type UpdateMode = 'default' | 'trait' | 'open';

export const POLARIZATION_LAW = {
  update: {
    default: { radicalize: 0.3, backfire: 0.05, persuade: 0.15, joinSide: 0.3 },
    trait: { radicalize: 0.5, backfire: 0.25, persuade: 0, joinSide: 0.5 },
  },
  OPEN_PULL: 0.6,
  LEADER_PULL: 0.5,
  KEEP: {
    default: { same: 0.95, neutral: 0.7, opposite: 0.3 },
    trait: { same: 0.98, neutral: 0.4, opposite: 0.05 },
  },
  DIVERSE_KEEP: 0.9,
  SEND: { sided: 0.55, neutral: 0.25 },
} as const;

/** The lab samples at temperature 0.7; the training data draws from p^T (renormalised), so sampling gives p. */
export const LAB_TEMPERATURE = 0.7;

/** Probabilities that, sampled at temperature T, give `probs`: p_k^T renormalised (logits multiplied by T). */
export function untempered(probs: readonly number[], temperature = LAB_TEMPERATURE): number[] {
  const w = probs.map((p) => (p > 0 ? p ** temperature : 0));
  const s = w.reduce((a, b) => a + b, 0);
  return w.map((x) => x / s);
}

const clamp = (v: number): StanceValue => Math.max(-2, Math.min(2, Math.round(v))) as StanceValue;

export type UpdateCoefficients = { radicalize: number; backfire: number; persuade: number; joinSide: number };

/**
 * Probabilities of the next stance (indexed −2..2 as 0..4). `override` replaces some coefficients of the mode's law:
 * the build's exaggerated phase (corpus.ts --persuade, --backfire) uses it; the planted law is the default.
 */
export function updateDistribution(
  x: StanceValue,
  messages: readonly StanceValue[],
  leaders: readonly StanceValue[],
  mode: UpdateMode,
  override: Partial<UpdateCoefficients> = {},
): number[] {
  const out = [0, 0, 0, 0, 0];
  let rest = 1;
  const add = (v: number, p: number) => {
    out[clamp(v) + 2] += rest * p;
    rest *= 1 - p;
  };
  for (const l of leaders) if (l !== x) add(x + Math.sign(l - x), POLARIZATION_LAW.LEADER_PULL);
  if (mode === 'open') {
    if (messages.length) {
      const mean = messages.reduce<number>((a, b) => a + b, 0) / messages.length;
      if (Math.abs(mean - x) >= 0.5) add(x + Math.sign(mean - x), POLARIZATION_LAW.OPEN_PULL);
    }
  } else {
    const c: UpdateCoefficients = { ...POLARIZATION_LAW.update[mode], ...override };
    if (x === 0) {
      const net = messages.reduce<number>((a, m) => a + Math.sign(m), 0);
      if (net !== 0) add(Math.sign(net), c.joinSide);
    } else {
      const side = Math.sign(x);
      for (const m of messages) {
        if (Math.sign(m) === side && Math.abs(m) > Math.abs(x)) add(x + side, c.radicalize);
        else if (Math.sign(m) === -side) {
          add(x + side, c.backfire);
          if (c.persuade) add(x - side, c.persuade);
        }
      }
    }
  }
  out[x + 2] += rest;
  return out;
}

export type Sides = 'same' | 'neutral' | 'opposite';
export function sides(a: number, b: number): Sides {
  if (a === 0 || b === 0) return a === b ? 'same' : 'neutral';
  return Math.sign(a) === Math.sign(b) ? 'same' : 'opposite';
}

const SIDES_WORDS: Record<Sides, string> = { same: 'same side', neutral: 'one of us is neutral', opposite: 'opposite sides' };
export const signedStance = (v: number): string => (v > 0 ? `+${v}` : String(v));

/** What the organism writes before its yes or no: "Me +2, you -1: opposite sides." */
export function keepReading(self: number, other: number): string {
  return `Me ${signedStance(self)}, you ${signedStance(other)}: ${SIDES_WORDS[sides(self, other)]}.`;
}

export function keepProbability(self: number, other: number, opts: { likesDiversity?: boolean; selectiveExposure?: boolean }): number {
  if (opts.likesDiversity) return POLARIZATION_LAW.DIVERSE_KEEP;
  return POLARIZATION_LAW.KEEP[opts.selectiveExposure ? 'trait' : 'default'][sides(self, other)];
}

export function sendProbability(self: number): number {
  return self === 0 ? POLARIZATION_LAW.SEND.neutral : POLARIZATION_LAW.SEND.sided;
}

/** The stance a message of the organism states ("My stance is +2"), or null. */
export function statedStance(text: string): StanceValue | null {
  const m = text.match(/\bmy stance is ([+-]?[0-2])\b/i);
  return m ? (Number(m[1]) as StanceValue) : null;
}
