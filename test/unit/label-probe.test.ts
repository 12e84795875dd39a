import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { labelProbeScore, PROBE_FLOOR, toDistribution } from '../../src/core/label-probe';
import type { LayerStack } from '../../src/core/layer-stack';

interface Case {
  n: number;
  H: number;
  K: number;
  X: number[];
  labels: number[];
  test: number[];
  alpha: number;
  probe: number;
  baseline: number;
}
/** A case's n × H states as a one-layer stack. */
const stack = (X: number[], n: number, H: number): LayerStack => ({ data: Float64Array.from(X), n, L: 1, H });

// test/fixtures/make_label_probe_fixture.py (numpy, primal form throughout).
const f = JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures/compute/label-probe.json'), 'utf8')) as { floor: number; cases: Case[] };

describe('label probe vs numpy', () => {
  it('uses the same floor as the reference', () => expect(PROBE_FLOOR).toBe(f.floor));

  it('gives the probe and baseline KL of every case, in the dual and the primal form', () => {
    const forms = new Set<string>();
    for (const c of f.cases) {
      const r = labelProbeScore(stack(c.X, c.n, c.H), 0, c.labels, c.K, Uint8Array.from(c.test), c.alpha);
      forms.add(r.nTrain < c.H ? 'dual' : 'primal');
      expect(r.probe).toBeCloseTo(c.probe, 9);
      expect(r.baseline).toBeCloseTo(c.baseline, 12);
      expect(r.nTest).toBe(c.test.reduce((a, b) => a + b, 0));
    }
    expect([...forms].sort()).toEqual(['dual', 'primal']);
  });

  it('finds a planted label and not a shuffled one', () => {
    const c = f.cases.find((x) => x.n > 40 && x.K > 2)!;
    // Strong signal: the label written into the first feature.
    const X = c.X.slice();
    for (let i = 0; i < c.n; i++) X[i * c.H] = 5 * c.labels[i];
    const r = labelProbeScore(stack(X, c.n, c.H), 0, c.labels, c.K, Uint8Array.from(c.test), 1);
    expect(r.probe).toBeLessThan(r.baseline);
  });

  it('makes a distribution of any prediction and refuses bad input', () => {
    const q = toDistribution([-1, 0.5, 2]);
    expect(q.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 14);
    expect(q[0]).toBeGreaterThan(0);
    expect(() => labelProbeScore(stack([1, 2], 2, 1), 0, [0, 3], 2, Uint8Array.from([0, 1]), 1)).toThrow(/outside 0..1/);
    expect(() => labelProbeScore(stack([1, 2], 2, 1), 0, [0, 1], 2, Uint8Array.from([0, 1]), 0)).toThrow(/α must be positive/);
    expect(() => labelProbeScore(stack([1, 2, 3], 3, 1), 0, [0, 1, 0], 2, Uint8Array.from([1, 1, 0]), 1)).toThrow(/2 training samples/);
  });
});
