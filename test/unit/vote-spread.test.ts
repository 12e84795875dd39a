import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binaryEntropy, rankByEntropy, voteSpread, type AgentVotes } from '../../src/core/vote-spread';

interface Case {
  id: string;
  agents: AgentVotes[];
  share: number;
  entropy: number;
  within: number;
  between: number;
}
// test/fixtures/make_screening_fixture.py (scipy.stats.entropy; mutual information from the joint table).
const f = JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures/compute/screening.json'), 'utf8')) as { cases: Case[]; ranked: string[] };

describe('vote spread vs scipy', () => {
  it('gives the pooled entropy, its within- and between-agent parts and the share of +1 of every case', () => {
    for (const c of f.cases) {
      const s = voteSpread(c.agents);
      expect(s.share).toBeCloseTo(c.share, 12);
      expect(s.entropy).toBeCloseTo(c.entropy, 12);
      expect(s.between).toBeCloseTo(c.between, 10);
      expect(s.within).toBeCloseTo(c.within, 10);
    }
  });

  it('ranks questions by entropy, highest first, ties by id, whatever the input order', () => {
    const rows = f.cases.map((c) => ({ id: c.id, entropy: voteSpread(c.agents).entropy }));
    expect(rankByEntropy(rows).map((r) => r.id)).toEqual(f.ranked);
    expect(rankByEntropy([...rows].reverse()).map((r) => r.id)).toEqual(f.ranked);
  });

  it('is 0 with no parsed vote or a unanimous one, and 1 bit for an even split', () => {
    expect(voteSpread([])).toMatchObject({ entropy: 0, parsed: 0 });
    expect(voteSpread([{ plus: 3, minus: 0 }]).entropy).toBe(0);
    expect(binaryEntropy(0.5)).toBe(1);
    // Two sure agents that differ: all of the bit is between agents; two torn agents: all within.
    expect(
      voteSpread([
        { plus: 4, minus: 0 },
        { plus: 0, minus: 4 },
      ]),
    ).toMatchObject({ entropy: 1, within: 0, between: 1 });
    expect(
      voteSpread([
        { plus: 2, minus: 2 },
        { plus: 2, minus: 2 },
      ]),
    ).toMatchObject({ entropy: 1, within: 1, between: 0 });
  });
});
