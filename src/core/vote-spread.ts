/**
 * How much agents disagree on a question, from their sampled votes: the Opinions lab's question screening keeps the
 * questions whose votes have the highest entropy, as the method's seed did after sampling every agent 8 times.
 */

/** One agent's parsed votes on a question: how many were +1 (Agree, A) and how many −1. */
export interface AgentVotes {
  plus: number;
  minus: number;
}

export interface VoteSpread {
  /** Share of +1 among all parsed votes (NaN when none parsed). */
  share: number;
  /** Entropy of the pooled votes, in bits (0 to 1): what the screening ranks by. */
  entropy: number;
  /** The part of it within agents: each agent's own entropy, weighted by its parsed votes. */
  within: number;
  /**
   * The part between agents: entropy − within, the mutual information of agent and vote. High when agents are each
   * sure but differ, low when every agent is torn alike.
   */
  between: number;
  parsed: number;
}

/** Binary entropy in bits; 0 at 0 and 1. */
export function binaryEntropy(p: number): number {
  if (!(p > 0 && p < 1)) return 0;
  return -(p * Math.log2(p) + (1 - p) * Math.log2(1 - p));
}

export function voteSpread(agents: readonly AgentVotes[]): VoteSpread {
  let plus = 0;
  let parsed = 0;
  for (const a of agents) {
    plus += a.plus;
    parsed += a.plus + a.minus;
  }
  if (!parsed) return { share: NaN, entropy: 0, within: 0, between: 0, parsed: 0 };
  const entropy = binaryEntropy(plus / parsed);
  let within = 0;
  for (const a of agents) {
    const n = a.plus + a.minus;
    if (n) within += (n / parsed) * binaryEntropy(a.plus / n);
  }
  // The difference is ≥ 0 (concavity); clamp the last bits of rounding.
  return { share: plus / parsed, entropy, within, between: Math.max(0, entropy - within), parsed };
}

/** Question ids ranked by entropy, highest first; ties by id, so the ranking does not depend on the input order. */
export function rankByEntropy<T extends { id: string; entropy: number }>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => b.entropy - a.entropy || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
