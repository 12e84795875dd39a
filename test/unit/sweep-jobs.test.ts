import { describe, expect, it } from 'vitest';
import { needsPrevious, planJobs } from '../../src/core/runs/jobs';
import { canonicalJson, configHash } from '../../cli/sweep/study';

describe('planJobs: how a run splits into sweep jobs', () => {
  it('covers every episode once, in order, in blocks', () => {
    expect(planJobs(5)).toEqual([[0], [1], [2], [3], [4]]);
    expect(planJobs(7, { block: 3 })).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
    expect(planJobs(0)).toEqual([]);
    for (const [n, block] of [
      [1, 1],
      [10, 4],
      [13, 13],
      [13, 20],
    ])
      expect(planJobs(n, { block }).flat()).toEqual(Array.from({ length: n }, (_, i) => i));
  });

  it('never splits a chain of episodes that carry state', () => {
    // Opinions community: 2 trajectories of 4 rounds each; the block size does not cut a chain.
    expect(planJobs(8, { chainLength: 4, block: 1 })).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
    ]);
    expect(planJobs(5, { chainLength: 5 })).toEqual([[0, 1, 2, 3, 4]]);
    expect([0, 1, 3, 4, 5].map((i) => needsPrevious(i, 4))).toEqual([false, true, true, false, true]);
    expect(needsPrevious(3)).toBe(false);
  });
});

describe('the study config hash', () => {
  it('does not depend on key order, and changes with any value', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"x":1,"y":2}]},"b":1}');
    expect(configHash('synchrony', 2, { seed: 1, x: { a: 1, b: 2 } })).toBe(configHash('synchrony', 2, { x: { b: 2, a: 1 }, seed: 1 }));
    expect(configHash('synchrony', 2, { seed: 1 })).not.toBe(configHash('synchrony', 2, { seed: 2 }));
    expect(configHash('synchrony', 2, { seed: 1 })).not.toBe(configHash('synchrony', 3, { seed: 1 }));
    // sha-256 of the canonical text, as coreutils computes it: echo -n '{"config":{},"lab":"opinions","v":1}' | sha256sum
    expect(configHash('opinions', 1, {})).toBe('cc2763f7cebc703c2b2b3dbc7f1324c549507834254f5125c2bf00319aaba86d');
  });
});
