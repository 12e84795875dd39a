import { describe, expect, it } from 'vitest';
import {
  addEdge,
  addNode,
  cycleEdge,
  deleteNodes,
  emptyGraph,
  EDITOR_LIMITS,
  fromPlain,
  gridPositions,
  moveNodes,
  plainFromSigned,
  toPlain,
  toSigned,
} from '../../src/labs/opinions/editor/model';
import { History } from '../../src/labs/opinions/editor/history';
import {
  fitTransform,
  nodeIndex,
  nodesInBox,
  pan,
  pickEdge,
  pickNode,
  segmentDistance,
  toScreen,
  toWorld,
  zoomAt,
  ZOOM_LIMITS,
} from '../../src/labs/opinions/editor/viewport';
import { forceLayout } from '../../src/core/graphs/force-layout';
import { squareLattice } from '../../src/core/graphs/generators';
import { edgeList } from '../../src/core/graphs/signed';

describe('editor graph model (graphology)', () => {
  it('adds, moves, links, cycles and deletes', () => {
    const g = emptyGraph();
    const a = addNode(g, 0, 0)!;
    const b = addNode(g, 10, 0)!;
    const c = addNode(g, 5, 5)!;
    expect(addEdge(g, a, b)).toBe(true);
    expect(addEdge(g, b, a)).toBe(false);
    expect(addEdge(g, a, a)).toBe(false);
    expect(addEdge(g, a, c, -1)).toBe(true);
    moveNodes(g, [a], 1, 2);
    expect(g.getNodeAttributes(a)).toEqual({ x: 1, y: 2 });
    const e = g.edge(a, b)!;
    expect(cycleEdge(g, e)).toBe(-1);
    expect(cycleEdge(g, e)).toBe(0);
    expect(g.hasEdge(a, b)).toBe(false);
    expect(toPlain(g).edges).toEqual([[0, 2, -1]]);
    deleteNodes(g, [a]);
    expect(toPlain(g)).toEqual({
      positions: [
        [10, 0],
        [5, 5],
      ],
      edges: [],
    });
  });

  it('caps nodes and edges at what a link carries', () => {
    const g = emptyGraph();
    for (let i = 0; i < EDITOR_LIMITS.nodes; i++) addNode(g, i, 0);
    expect(addNode(g, 0, 0)).toBeNull();
    expect(g.order).toBe(EDITOR_LIMITS.nodes);
  });

  it('converts between index form, graphology and CSR without loss', () => {
    const lat = squareLattice(4);
    const plain = plainFromSigned(lat);
    plain.positions = gridPositions(lat.n, 4);
    const back = toPlain(fromPlain(plain));
    expect(back).toEqual(plain);
    expect(edgeList(toSigned(back))).toEqual(edgeList(lat));
    expect(gridPositions(5, 2, 10)[3]).toEqual([10, 10]);
  });
});

describe('undo/redo history', () => {
  it('undoes and redoes in order, and a new edit drops the redo branch', () => {
    const h = new History(0);
    h.push(1);
    h.push(2);
    expect(h.undo()).toBe(1);
    expect(h.undo()).toBe(0);
    expect(h.undo()).toBeUndefined();
    expect(h.redo()).toBe(1);
    h.push(5);
    expect(h.canRedo).toBe(false);
    expect(h.current).toBe(5);
    expect(h.undo()).toBe(1);
  });

  it('keeps at most `limit` undo steps, and reset forgets everything', () => {
    const h = new History(0, 3);
    for (let i = 1; i <= 10; i++) h.push(i);
    let steps = 0;
    while (h.undo() !== undefined) steps++;
    expect(steps).toBe(3);
    expect(h.current).toBe(7);
    h.reset(42);
    expect([h.canUndo, h.canRedo, h.current]).toEqual([false, false, 42]);
  });
});

describe('viewport and picking', () => {
  it('screen and world coordinates invert each other, and zoom keeps the point under the pointer', () => {
    const t = { k: 2, x: 10, y: -5 };
    const [sx, sy] = toScreen(t, 3, 4);
    expect(toWorld(t, sx, sy)).toEqual([3, 4]);
    const z = zoomAt(t, 100, 50, 1.5);
    const before = toWorld(t, 100, 50);
    const after = toWorld(z, 100, 50);
    expect(after[0]).toBeCloseTo(before[0], 12);
    expect(after[1]).toBeCloseTo(before[1], 12);
    expect(zoomAt(t, 0, 0, 1e9).k).toBe(ZOOM_LIMITS.max);
    expect(zoomAt(t, 0, 0, 1e-9).k).toBe(ZOOM_LIMITS.min);
    expect(pan(t, 1, 2)).toEqual({ k: 2, x: 11, y: -3 });
  });

  it('fit puts every node inside the canvas', () => {
    const pos: [number, number][] = [
      [-100, 20],
      [300, -40],
      [50, 500],
    ];
    const t = fitTransform(pos, 400, 300, 20);
    for (const [x, y] of pos) {
      const [sx, sy] = toScreen(t, x, y);
      expect(sx).toBeGreaterThanOrEqual(19.999);
      expect(sx).toBeLessThanOrEqual(380.001);
      expect(sy).toBeGreaterThanOrEqual(19.999);
      expect(sy).toBeLessThanOrEqual(280.001);
    }
    expect(fitTransform([], 400, 300)).toEqual({ k: 1, x: 200, y: 150 });
  });

  it('picks the nearest node within a radius and box-selects with the quadtree', () => {
    const pos = gridPositions(100, 10, 10);
    const q = nodeIndex(pos);
    expect(pickNode(q, 21, 29, 3)).toBe(32);
    expect(pickNode(q, 25, 25, 3)).toBe(-1);
    const box = nodesInBox(q, 35, 35, 5, 5);
    expect(box).toEqual([11, 12, 13, 21, 22, 23, 31, 32, 33]);
    // against a brute-force scan on scattered points
    const scattered: [number, number][] = Array.from({ length: 500 }, (_, i) => [(i * 7919) % 613, (i * 104729) % 421]);
    const sq = nodeIndex(scattered);
    const brute = scattered.flatMap(([x, y], i) => (x >= 100 && x <= 300 && y >= 50 && y <= 200 ? [i] : []));
    expect(nodesInBox(sq, 300, 200, 100, 50)).toEqual(brute);
  });

  it('picks edges by distance to the segment', () => {
    expect(segmentDistance(5, 3, 0, 0, 10, 0)).toBe(3);
    expect(segmentDistance(-4, 3, 0, 0, 10, 0)).toBe(5);
    const g = {
      positions: [
        [0, 0],
        [10, 0],
        [0, 10],
      ] as [number, number][],
      edges: [
        [0, 1, 1],
        [0, 2, -1],
      ] as [number, number, 1 | -1][],
    };
    expect(pickEdge(g, 5, 1, 2)).toBe(0);
    expect(pickEdge(g, 1, 6, 2)).toBe(1);
    expect(pickEdge(g, 8, 8, 2)).toBe(-1);
  });
});

describe('force layout', () => {
  it('is deterministic for a seed, separates nodes, and settles', () => {
    const plain = plainFromSigned(squareLattice(5), 10);
    const run = () => {
      const l = forceLayout(plain, 'seed');
      let guard = 0;
      while (l.advance(50) && guard++ < 100);
      return l.positions();
    };
    const a = run();
    expect(run()).toEqual(a);
    let minDist = Infinity;
    for (let i = 0; i < a.length; i++) for (let j = i + 1; j < a.length; j++) minDist = Math.min(minDist, Math.hypot(a[i][0] - a[j][0], a[i][1] - a[j][1]));
    expect(minDist).toBeGreaterThan(5);
  });
});
