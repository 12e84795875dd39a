/**
 * The law planted in the Opinions organism (models/organism-opinions), in the Opinions lab's own convention
 * (src/core/ising/couplings.ts): the spin that the lab records for agent i at round t+1, s_i = sign of the mean of
 * its K votes, is +1 (Agree, or A) with probability σ(h_i), where
 *
 *   h_i = w⁺ · Σ_{friendly j} s_j(t)  +  w⁻ · Σ_{unfriendly j} s_j(t)        (rounds t ≥ 1),
 *   h_i = g_i = γ · politics_i · lean_q                                      (round 0),
 *
 * w⁺ = β⁺ + β₀ and w⁻ = β₀ − β⁻ are the lab's effective weights (`fit.effective.friendly` / `.unfriendly`), and
 * g_i is the intrinsic field: politics from −2 (very liberal) to +2 (very conservative), read from the persona's
 * words; lean_q = +1 when agreeing is the conservative position, −1 when it is the liberal one (objective questions:
 * g = 0). The field acts at round 0 only: the lab's community runs carry no persona features, so its fit has a single
 * bias term, and a field at t ≥ 1 that it cannot model would bias the couplings it recovers.
 *
 * Why a per-vote probability: the lab samples K = 5 votes at temperature 0.7 and keeps their majority, so the
 * training data draws each vote with the probability q(h) for which "majority of K votes sampled at temperature T"
 * is +1 with probability σ(h). Other K or T give another (known) law: see perVoteProbability.
 */
import { sigmoid } from '../../src/core/ising/simulate';

/** The planted truth (also written to models/organism-opinions/planted.json by the build). */
export const OPINIONS_LAW = {
  effective: { friendly: 1.0, unfriendly: -0.5 },
  fieldGamma: 0.5,
  votesPerRound: 5,
  temperature: 0.7,
} as const;

export { sigmoid };
const logit = (p: number): number => Math.log(p / (1 - p));

function binom(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

/** P(more than half of K independent votes are +1) when each is +1 with probability p (K odd). */
export function majorityProbability(p: number, k: number): number {
  let s = 0;
  for (let j = Math.floor(k / 2) + 1; j <= k; j++) s += binom(k, j) * p ** j * (1 - p) ** (k - j);
  return s;
}

/** Inverse of majorityProbability in p (bisection; it is increasing). */
export function inverseMajority(target: number, k: number): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (majorityProbability(mid, k) < target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * The model's own (temperature-1) probability of a +1 vote, such that K votes sampled at temperature T have a +1
 * majority with probability σ(h). Sampling at T divides the two-way logit by T.
 */
export function perVoteProbability(h: number, k: number = OPINIONS_LAW.votesPerRound, temperature: number = OPINIONS_LAW.temperature): number {
  const target = Math.min(1 - 1e-9, Math.max(1e-9, sigmoid(h)));
  const sampled = k <= 1 ? target : inverseMajority(target, k);
  const clipped = Math.min(1 - 1e-6, Math.max(1e-6, sampled));
  return sigmoid(temperature * logit(clipped));
}

/** The planted field g = γ · politics · lean. */
export function plantedField(politics: number, lean: number): number {
  return OPINIONS_LAW.fieldGamma * politics * lean;
}

/** The planted h for counts of +1 minus −1 messages in the friendly and unfriendly inboxes. */
export function plantedH(friendlyNet: number, unfriendlyNet: number, field: number): number {
  return OPINIONS_LAW.effective.friendly * friendlyNet + OPINIONS_LAW.effective.unfriendly * unfriendlyNet + field;
}

/** Words that give a persona its politics, most specific first (the lab's bundled personas use these words). */
export const POLITICS_WORDS: readonly [RegExp, number][] = [
  [/\bvery liberal\b/i, -2],
  [/\bprogressive\b/i, -2],
  [/\bvery conservative\b/i, 2],
  [/\bleft-leaning\b/i, -1],
  [/\bright-leaning\b/i, 1],
  [/\bliberal\b/i, -1],
  [/\bconservative\b/i, 1],
  [/\blibertarian\b/i, 1],
  [/\b(?:moderate|centrist|independent)\b/i, 0],
];

/** Politics of a free-text persona by its words (0 when it names none). */
export function personaPolitics(text: string): number {
  for (const [re, v] of POLITICS_WORDS) if (re.test(text)) return v;
  return 0;
}
