/**
 * The editor's graph model: a graphology undirected graph whose nodes carry a position (x, y) and whose edges carry
 * a sign (+1 friendly, −1 unfriendly). Every edit goes through these functions, so the view, undo/redo and the
 * tests share one definition of what an edit does. Node order (insertion order) gives the 0…N−1 indices that the
 * simulator, the link and the exports use.
 */
import Graph from 'graphology';
import { fromEdges, type SignedGraph } from '../../../core/graphs/signed';
import { CUSTOM_GRAPH_LIMITS } from '../edge-code';

export interface NodeAttrs {
  x: number;
  y: number;
}
export interface EdgeAttrs {
  sign: 1 | -1;
}
export type EditorGraph = Graph<NodeAttrs, EdgeAttrs>;

/** The index form: what exports, links and the simulator read. */
export interface PlainGraph {
  positions: [number, number][];
  edges: [number, number, 1 | -1][];
}

export const EDITOR_LIMITS = { nodes: CUSTOM_GRAPH_LIMITS.nodes, edges: CUSTOM_GRAPH_LIMITS.edges };

export function emptyGraph(): EditorGraph {
  return new Graph<NodeAttrs, EdgeAttrs>({ type: 'undirected', multi: false, allowSelfLoops: false });
}

let counter = 0;
/** Keys only need to be unique within a graph; a counter plus the current size keeps them so across loads. */
function freshKey(g: EditorGraph): string {
  let key: string;
  do key = `n${(counter++).toString(36)}`;
  while (g.hasNode(key));
  return key;
}

export function addNode(g: EditorGraph, x: number, y: number): string | null {
  if (g.order >= EDITOR_LIMITS.nodes) return null;
  const key = freshKey(g);
  g.addNode(key, { x, y });
  return key;
}

export function moveNodes(g: EditorGraph, keys: Iterable<string>, dx: number, dy: number) {
  for (const k of keys) if (g.hasNode(k)) g.updateNodeAttributes(k, (a) => ({ x: a.x + dx, y: a.y + dy }));
}

export function deleteNodes(g: EditorGraph, keys: Iterable<string>) {
  for (const k of keys) if (g.hasNode(k)) g.dropNode(k);
}

/** Adds a friendly edge between two distinct nodes; returns false when it exists, is a self-loop, or the cap is hit. */
export function addEdge(g: EditorGraph, a: string, b: string, sign: 1 | -1 = 1): boolean {
  if (a === b || !g.hasNode(a) || !g.hasNode(b) || g.hasEdge(a, b) || g.size >= EDITOR_LIMITS.edges) return false;
  g.addEdge(a, b, { sign });
  return true;
}

/** A click on an edge cycles + → − → none. Returns the new state. */
export function cycleEdge(g: EditorGraph, edge: string): 1 | -1 | 0 {
  if (!g.hasEdge(edge)) return 0;
  if (g.getEdgeAttribute(edge, 'sign') > 0) {
    g.setEdgeAttribute(edge, 'sign', -1);
    return -1;
  }
  g.dropEdge(edge);
  return 0;
}

export function toPlain(g: EditorGraph): PlainGraph {
  const index = new Map<string, number>();
  const positions: [number, number][] = [];
  g.forEachNode((k, a) => {
    index.set(k, positions.length);
    positions.push([a.x, a.y]);
  });
  const edges: [number, number, 1 | -1][] = [];
  g.forEachEdge((_e, a, s, t) => {
    const i = index.get(s)!;
    const j = index.get(t)!;
    edges.push(i < j ? [i, j, a.sign] : [j, i, a.sign]);
  });
  edges.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  return { positions, edges };
}

/** The keys fromPlain gives: i0 … i(N−1), so a view can name nodes before the graphology model is built. */
export function indexKeys(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `i${i}`);
}

export function fromPlain(p: PlainGraph): EditorGraph {
  const g = emptyGraph();
  const keys = indexKeys(p.positions.length);
  p.positions.forEach(([x, y], i) => g.addNode(keys[i], { x, y }));
  for (const [i, j, s] of p.edges) if (i !== j && !g.hasEdge(keys[i], keys[j])) g.addEdge(keys[i], keys[j], { sign: s > 0 ? 1 : -1 });
  return g;
}

export function toSigned(p: PlainGraph): SignedGraph {
  return fromEdges(p.positions.length, p.edges, 'custom');
}

/** Lays out a SignedGraph from a generator on a circle; the force layout then refines it. */
export function plainFromSigned(sg: SignedGraph, radius = 300): PlainGraph {
  const positions: [number, number][] = Array.from({ length: sg.n }, (_, i) => {
    const a = (2 * Math.PI * i) / Math.max(1, sg.n);
    return [radius * Math.cos(a), radius * Math.sin(a)];
  });
  const edges: [number, number, 1 | -1][] = [];
  for (let i = 0; i < sg.n; i++) for (let p = sg.rowPtr[i]; p < sg.rowPtr[i + 1]; p++) if (sg.col[p] > i) edges.push([i, sg.col[p], sg.sign[p] > 0 ? 1 : -1]);
  return { positions, edges };
}

/** Lattices get grid positions (row, column), so they read as lattices before any force layout. */
export function gridPositions(n: number, side: number, spacing = 40): [number, number][] {
  return Array.from({ length: n }, (_, i) => [(i % side) * spacing, Math.floor(i / side) * spacing]);
}
