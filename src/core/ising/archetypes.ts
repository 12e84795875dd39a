/** Descriptive statistics of opinions.md: n(t), c(t), individual and group archetypes, regimes, correctness. */

export type IndividualArchetype = 'Frozen' | 'Switcher' | 'Intermittent' | 'Oscillator';
export const INDIVIDUAL_ARCHETYPES: IndividualArchetype[] = ['Frozen', 'Switcher', 'Intermittent', 'Oscillator'];

export type GroupArchetype = 'Persistent Split' | 'Convergence' | 'Persistent Majority' | 'Divergence' | 'Majority Switch';
export const GROUP_ARCHETYPES: GroupArchetype[] = ['Persistent Split', 'Convergence', 'Persistent Majority', 'Divergence', 'Majority Switch'];

/** Row means of a (T+1)·N matrix: n(t) = (1/N) Σ ō_i(t). Spins are the K→∞-free special case ō = s. */
export function netOpinion(o: ArrayLike<number>, n: number): Float64Array {
  const T1 = o.length / n;
  const out = new Float64Array(T1);
  for (let t = 0; t < T1; t++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += o[t * n + i];
    out[t] = s / n;
  }
  return out;
}

/** c(t) = (1/N) Σ ō_i(t)². */
export function conviction(o: ArrayLike<number>, n: number): Float64Array {
  const T1 = o.length / n;
  const out = new Float64Array(T1);
  for (let t = 0; t < T1; t++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += o[t * n + i] * o[t * n + i];
    out[t] = s / n;
  }
  return out;
}

/** F_i = Σ_t 1[s_i(t) ≠ s_i(t+1)] and the archetype it implies (0 Frozen, 1 Switcher, 2 Intermittent, >2 Oscillator). */
export function individualArchetypes(
  states: ArrayLike<number>,
  n: number,
): {
  switches: Int32Array;
  labels: IndividualArchetype[];
  counts: Record<IndividualArchetype, number>;
} {
  const T1 = states.length / n;
  const switches = new Int32Array(n);
  for (let t = 0; t + 1 < T1; t++) for (let i = 0; i < n; i++) if (Math.sign(states[t * n + i]) !== Math.sign(states[(t + 1) * n + i])) switches[i]++;
  const labels = Array.from(switches, (f) => INDIVIDUAL_ARCHETYPES[Math.min(f, 3)]);
  const counts = { Frozen: 0, Switcher: 0, Intermittent: 0, Oscillator: 0 };
  for (const l of labels) counts[l]++;
  return { switches, labels, counts };
}

/** ñ = +1 if n ≥ δ, −1 if n ≤ −δ, else 0. */
export function splitBand(n: number, delta = 0.2): -1 | 0 | 1 {
  return n >= delta ? 1 : n <= -delta ? -1 : 0;
}

export function groupArchetype(n0: number, nT: number, delta = 0.2): GroupArchetype {
  const a = splitBand(n0, delta);
  const b = splitBand(nT, delta);
  if (a === 0) return b === 0 ? 'Persistent Split' : 'Convergence';
  if (b === 0) return 'Divergence';
  return a * b > 0 ? 'Persistent Majority' : 'Majority Switch';
}

/** numpy.quantile's default (linear interpolation between order statistics). */
export function quantile(values: ArrayLike<number>, q: number): number {
  const v = Array.from(values).sort((a, b) => a - b);
  if (!v.length) return NaN;
  const pos = (v.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return v[lo] + (v[hi] - v[lo]) * (pos - lo);
}

export type Regime = 'indifference' | 'polarization' | 'consensus';

/**
 * Regimes over pooled groups (each a net opinion n and a conviction c, e.g. at the final round):
 * indifference if c < the pooled 1/3 quantile of c; among the rest, polarization if |n| ≤ their median |n|,
 * else consensus.
 */
export function regimes(groups: ReadonlyArray<{ n: number; c: number }>): {
  labels: Regime[];
  convictionThreshold: number;
  medianAbsNet: number;
} {
  const cq = quantile(
    groups.map((g) => g.c),
    1 / 3,
  );
  const committed = groups.filter((g) => !(g.c < cq));
  const med = quantile(
    committed.map((g) => Math.abs(g.n)),
    0.5,
  );
  const labels = groups.map((g): Regime => (g.c < cq ? 'indifference' : Math.abs(g.n) <= med ? 'polarization' : 'consensus'));
  return { labels, convictionThreshold: cq, medianAbsNet: med };
}

/**
 * Objective questions: fraction of groups whose majority (sign of n(t)) is correct at each t, and the agent-level
 * counts of wrong→right and right→wrong transitions between consecutive rounds, pooled over groups.
 */
export function correctness(groups: ReadonlyArray<{ states: ArrayLike<number>; n: number; yTrue: number }>): {
  majorityCorrect: Float64Array;
  wrongToRight: number;
  rightToWrong: number;
} {
  const T1 = groups.length ? Math.min(...groups.map((g) => g.states.length / g.n)) : 0;
  const majorityCorrect = new Float64Array(T1);
  let wrongToRight = 0;
  let rightToWrong = 0;
  for (const g of groups) {
    const net = netOpinion(g.states, g.n);
    for (let t = 0; t < T1; t++) if (Math.sign(net[t]) === Math.sign(g.yTrue)) majorityCorrect[t] += 1 / groups.length;
    for (let t = 0; t + 1 < g.states.length / g.n; t++)
      for (let i = 0; i < g.n; i++) {
        const a = Math.sign(g.states[t * g.n + i]) === Math.sign(g.yTrue);
        const b = Math.sign(g.states[(t + 1) * g.n + i]) === Math.sign(g.yTrue);
        if (!a && b) wrongToRight++;
        if (a && !b) rightToWrong++;
      }
  }
  return { majorityCorrect, wrongToRight, rightToWrong };
}
