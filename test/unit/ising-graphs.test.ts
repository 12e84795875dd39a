import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng';
import { fromDense, fromEdges, toDense, edgeList, edgeCount, edgeSign } from '../../src/core/graphs/signed';
import { randomSigned, squareLattice, triangularLattice, lowRank } from '../../src/core/graphs/generators';
import { frustratedTriangleFraction, minUnsatisfiedFraction, unsatisfiedCount } from '../../src/core/graphs/balance';
import { ringLattice, smallWorld, randomDirected, directedEdgeCount, uniformNewTarget } from '../../src/core/graphs/directed';

function symmetricZeroDiagonal(J: Int8Array, n: number) {
  for (let i = 0; i < n; i++) {
    expect(J[i * n + i]).toBe(0);
    for (let j = 0; j < n; j++) expect(J[i * n + j]).toBe(J[j * n + i]);
  }
}

describe('signed graph storage', () => {
  it('dense ↔ CSR round-trip, edge lists, counts and lookups', () => {
    const n = 5;
    const J = new Int8Array(n * n);
    const set = (i: number, j: number, s: number) => ((J[i * n + j] = s), (J[j * n + i] = s));
    set(0, 1, 1);
    set(0, 3, -1);
    set(2, 4, 1);
    const g = fromDense(n, J);
    expect(Array.from(toDense(g))).toEqual(Array.from(J));
    expect(edgeList(g)).toEqual([
      [0, 1, 1],
      [0, 3, -1],
      [2, 4, 1],
    ]);
    expect(edgeCount(g)).toEqual({ total: 3, positive: 2, negative: 1 });
    expect([edgeSign(g, 3, 0), edgeSign(g, 4, 2), edgeSign(g, 1, 2)]).toEqual([-1, 1, 0]);
    expect(
      edgeCount(
        fromEdges(3, [
          [0, 0, 1],
          [0, 1, 0],
        ]),
      ).total,
    ).toBe(0);
  });
});

describe('generators', () => {
  it('random with an edge budget: exact budget, symmetric, zero diagonal, sign mix', () => {
    const rng = createRng(1);
    const g = randomSigned(40, { budget: 200 }, rng);
    symmetricZeroDiagonal(toDense(g), 40);
    const c = edgeCount(g);
    expect(c.total).toBe(200);
    expect(Math.abs(c.positive - 100)).toBeLessThan(35);
    const mostlyFriendly = edgeCount(randomSigned(40, { budget: 400, positiveFraction: 0.9 }, rng));
    expect(mostlyFriendly.positive / mostlyFriendly.total).toBeGreaterThan(0.82);
    expect(edgeCount(randomSigned(10, { budget: 1000 }, rng)).total).toBe(45);
  });

  it('square and triangular lattices: 4 and 6 friendly neighbours, periodic', () => {
    const sq = squareLattice(6);
    const tri = triangularLattice(6);
    for (let i = 0; i < 36; i++) {
      expect(sq.rowPtr[i + 1] - sq.rowPtr[i]).toBe(4);
      expect(tri.rowPtr[i + 1] - tri.rowPtr[i]).toBe(6);
    }
    expect(edgeSign(sq, 0, 5)).toBe(1); // wraps around the row
    expect(edgeSign(sq, 0, 30)).toBe(1); // wraps around the column
    expect(edgeCount(tri).negative).toBe(0);
    expect(frustratedTriangleFraction(sq).triangles).toBe(0);
    expect(frustratedTriangleFraction(tri)).toEqual({ triangles: 72, frustrated: 0, fraction: 0 });
  });

  for (const gamma of [0, 0.1, 0.2])
    it(`low-rank reaches frustration γ = ${gamma}`, () => {
      const rng = createRng(`lr${gamma}`);
      const g = lowRank(32, { rank: 10, frustration: gamma, budget: 150 }, rng);
      symmetricZeroDiagonal(toDense(g), 32);
      expect(edgeCount(g).total).toBe(150);
      const u = minUnsatisfiedFraction(g, createRng(5), { restarts: 32 });
      expect(Math.abs(u.fraction - gamma)).toBeLessThanOrEqual(0.02);
    });
});

describe('structural balance readouts', () => {
  it('a balanced graph (two camps) has no frustrated triangle and a 0 unsatisfied fraction', () => {
    const rng = createRng(2);
    const n = 20;
    const camp = Array.from({ length: n }, () => (rng.next() < 0.5 ? 1 : -1));
    const edges: [number, number, number][] = [];
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (rng.next() < 0.4) edges.push([i, j, camp[i] * camp[j]]);
    const g = fromEdges(n, edges);
    expect(frustratedTriangleFraction(g).frustrated).toBe(0);
    const u = minUnsatisfiedFraction(g, rng);
    expect(u.count).toBe(0);
    expect(unsatisfiedCount(g, u.colouring)).toBe(0);
  });

  it('an all-negative triangle is frustrated, and one edge of three must be unsatisfied', () => {
    const g = fromEdges(3, [
      [0, 1, -1],
      [1, 2, -1],
      [0, 2, -1],
    ]);
    expect(frustratedTriangleFraction(g).fraction).toBe(1);
    expect(minUnsatisfiedFraction(g, createRng(1)).count).toBe(1);
  });
});

describe('directed graphs', () => {
  it('ring lattice k=4 links i±1, i±2', () => {
    const g = ringLattice(10, 4);
    expect([...g.out[0]].sort((a, b) => a - b)).toEqual([1, 2, 8, 9]);
    expect(directedEdgeCount(g)).toBe(40);
  });

  it('small-world keeps the out-degree, rewires about p of the links, no self or duplicate links', () => {
    const g = smallWorld(200, 4, 0.2, createRng(4));
    const ring = ringLattice(200, 4);
    let changed = 0;
    g.out.forEach((row, i) => {
      expect(row.length).toBe(4);
      expect(new Set(row).size).toBe(4);
      expect(row).not.toContain(i);
      changed += row.filter((j) => !ring.out[i].includes(j)).length;
    });
    expect(changed / 800).toBeGreaterThan(0.13);
    expect(changed / 800).toBeLessThan(0.27);
  });

  it('random directed: k distinct targets per node', () => {
    const g = randomDirected(30, 5, createRng(5));
    g.out.forEach((row, i) => {
      expect(new Set(row).size).toBe(5);
      expect(row).not.toContain(i);
    });
    expect(uniformNewTarget(3, 0, [1, 2], createRng(1))).toBe(-1);
  });
});
