import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { calibrateThreshold, cosineTriangle, greedyClasses, upperIndex } from '../../src/core/equivalence';

interface Case {
  vectors: number[][];
  triangle: number[];
  scores: number[];
  same: boolean[];
  threshold: number;
  balancedAccuracy: number;
  classes: number;
  classOf: number[];
}
// test/fixtures/make_equivalence_fixture.py (numpy).
const f = JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures/compute/equivalence.json'), 'utf8')) as { cases: Case[] };

describe('embedding equivalence vs numpy', () => {
  it('gives the cosine triangle, the calibrated threshold and the greedy classes of every case', () => {
    for (const c of f.cases) {
      const tri = cosineTriangle(c.vectors);
      tri.forEach((x, k) => expect(x).toBeCloseTo(c.triangle[k], 12));
      const cal = calibrateThreshold(c.scores, c.same);
      expect(cal.threshold).toBeCloseTo(c.threshold, 12);
      expect(cal.balancedAccuracy).toBeCloseTo(c.balancedAccuracy, 12);
      const n = c.vectors.length;
      const g = greedyClasses(n, (r, i) => tri[upperIndex(n, Math.min(r, i), Math.max(r, i))] >= cal.threshold);
      expect(g).toEqual({ classes: c.classes, classOf: c.classOf });
    }
  });

  it('refuses labels of one kind only', () => {
    expect(() => calibrateThreshold([0.1, 0.2], [true, true])).toThrow(/both kinds/);
  });
});
