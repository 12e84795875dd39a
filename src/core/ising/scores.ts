/**
 * Scores: balanced accuracy = unweighted mean of accuracy over the four groups {flip, stay} × {next = +1, −1}
 * (empty groups are skipped, as sklearn's balanced_accuracy_score does), and raw accuracy.
 */
import type { Episode } from './design';
import { episodeSteps } from './design';
import { predictNext, rollout, type DynamicsModel } from './models';

export interface GroupCount {
  n: number;
  correct: number;
}

export interface Accuracy {
  balanced: number;
  raw: number;
  total: number;
  /** flip/stay × up(next = +1)/down(next = −1). */
  groups: { flipUp: GroupCount; flipDown: GroupCount; stayUp: GroupCount; stayDown: GroupCount };
}

export function emptyAccuracy(): Accuracy {
  const z = () => ({ n: 0, correct: 0 });
  return { balanced: NaN, raw: NaN, total: 0, groups: { flipUp: z(), flipDown: z(), stayUp: z(), stayDown: z() } };
}

/** Adds one batch of (previous, observed next, predicted next) triples to an accumulator and refreshes the scores. */
export function accumulate(acc: Accuracy, prev: ArrayLike<number>, next: ArrayLike<number>, pred: ArrayLike<number>): Accuracy {
  for (let i = 0; i < next.length; i++) {
    const up = next[i] > 0;
    const flip = prev[i] > 0 !== up;
    const g = flip ? (up ? acc.groups.flipUp : acc.groups.flipDown) : up ? acc.groups.stayUp : acc.groups.stayDown;
    g.n++;
    if (pred[i] > 0 === up) g.correct++;
  }
  const gs = Object.values(acc.groups).filter((g) => g.n > 0);
  acc.total = gs.reduce((a, g) => a + g.n, 0);
  acc.raw = acc.total ? gs.reduce((a, g) => a + g.correct, 0) / acc.total : NaN;
  acc.balanced = gs.length ? gs.reduce((a, g) => a + g.correct / g.n, 0) / gs.length : NaN;
  return acc;
}

export function balancedAccuracy(prev: ArrayLike<number>, next: ArrayLike<number>, pred: ArrayLike<number>): Accuracy {
  return accumulate(emptyAccuracy(), prev, next, pred);
}

/** One-step: predict s(t+1) from the observed s(t), t = 0..T−1, pooled over episodes. */
export function scoreOneStep(m: DynamicsModel, episodes: readonly Episode[]): Accuracy {
  const acc = emptyAccuracy();
  for (const e of episodes) {
    const n = e.graph.n;
    for (let t = 0; t < episodeSteps(e); t++) {
      const s = e.states.subarray(t * n, (t + 1) * n);
      accumulate(acc, s, e.states.subarray((t + 1) * n, (t + 2) * n), predictNext(m, e, s));
    }
  }
  return acc;
}

/**
 * Rollout: a deterministic trajectory from the observed s(0) only; its s(t) is scored against the observed s(t),
 * with flip/stay defined by the observed s(t−1) (so the four groups are the same as one-step).
 */
export function scoreRollout(m: DynamicsModel, episodes: readonly Episode[]): Accuracy {
  const acc = emptyAccuracy();
  for (const e of episodes) {
    const n = e.graph.n;
    const r = rollout(m, e);
    for (let t = 1; t <= episodeSteps(e); t++)
      accumulate(acc, e.states.subarray((t - 1) * n, t * n), e.states.subarray(t * n, (t + 1) * n), r.subarray(t * n, (t + 1) * n));
  }
  return acc;
}
