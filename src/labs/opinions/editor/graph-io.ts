/**
 * Import and export of signed graphs: JSON (nodes with positions, edges with signs) and an edge-list CSV
 * (source,target,sign). Imports are untrusted: size-capped before parsing, every field checked, node labels limited
 * to a safe alphabet, and every refusal says where and why. Nothing here produces markup.
 */
import { toCsv } from '../../../core/csv';
import { parseJson, scanUntrusted } from '../../../core/config/untrusted';
import { EDITOR_LIMITS, type PlainGraph } from './model';

export const GRAPH_JSON_FORMAT = 'social-minds-lab/signed-graph@1';
/** Far above what 1000 nodes and 5000 edges need, so a huge file is refused before it is parsed. */
export const MAX_IMPORT_BYTES = 1_000_000;
const LABEL = /^[A-Za-z0-9_.:-]{1,64}$/;
const COORD_LIMIT = 1e6;

export type ImportResult = { ok: true; graph: PlainGraph; labels: string[] } | { ok: false; message: string };

const fail = (message: string): ImportResult => ({ ok: false, message });

export function exportJson(g: PlainGraph): string {
  const round = (v: number) => Math.round(v * 100) / 100;
  return JSON.stringify({
    format: GRAPH_JSON_FORMAT,
    nodes: g.positions.map(([x, y], id) => ({ id, x: round(x), y: round(y) })),
    edges: g.edges.map(([source, target, sign]) => ({ source, target, sign })),
  });
}

export function exportCsv(g: PlainGraph): string {
  return toCsv(['source', 'target', 'sign'], g.edges);
}

/** Parses a sign written as 1, +1, -1, −1, +, − or -; 0 means "no edge". */
function parseSign(raw: unknown): 1 | -1 | 0 | null {
  if (typeof raw === 'number') return raw === 1 ? 1 : raw === -1 ? -1 : raw === 0 ? 0 : null;
  if (typeof raw !== 'string') return null;
  const t = raw.trim().replace('\u2212', '-');
  if (t === '1' || t === '+1' || t === '+') return 1;
  if (t === '-1' || t === '-') return -1;
  if (t === '0') return 0;
  return null;
}

/** Collects edges with endpoint labels, refusing self-loops, duplicates and oversize graphs. */
class EdgeCollector {
  index = new Map<string, number>();
  labels: string[] = [];
  edges: [number, number, 1 | -1][] = [];
  private seen = new Set<string>();

  node(label: string, where: string): number | string {
    if (!LABEL.test(label)) return `${where}: node "${label.slice(0, 24)}" must be 1–64 letters, digits, or _ . : -`;
    let i = this.index.get(label);
    if (i === undefined) {
      if (this.labels.length >= EDITOR_LIMITS.nodes)
        return `${where}: more than ${EDITOR_LIMITS.nodes} nodes; the editor holds at most ${EDITOR_LIMITS.nodes} nodes`;
      i = this.labels.length;
      this.index.set(label, i);
      this.labels.push(label);
    }
    return i;
  }

  edge(a: string, b: string, sign: 1 | -1 | 0, where: string): string | null {
    if (a === b) return `${where}: a self-loop (${a}–${b}); the graph has a zero diagonal`;
    const i = this.node(a, where);
    if (typeof i === 'string') return i;
    const j = this.node(b, where);
    if (typeof j === 'string') return j;
    const key = i < j ? `${i},${j}` : `${j},${i}`;
    if (this.seen.has(key)) return `${where}: the edge ${a}–${b} appears twice`;
    this.seen.add(key);
    if (sign === 0) return null;
    if (this.edges.length >= EDITOR_LIMITS.edges)
      return `${where}: more than ${EDITOR_LIMITS.edges} edges; the editor holds at most ${EDITOR_LIMITS.edges} edges`;
    this.edges.push(i < j ? [i, j, sign] : [j, i, sign]);
    return null;
  }
}

/** Nodes without positions go on a circle; the force layout can refine them. */
function circle(n: number): [number, number][] {
  const r = 40 + 12 * Math.sqrt(n) * 4;
  return Array.from({ length: n }, (_, i) => [r * Math.cos((2 * Math.PI * i) / Math.max(1, n)), r * Math.sin((2 * Math.PI * i) / Math.max(1, n))]);
}

export function importCsv(text: string): ImportResult {
  if (text.length > MAX_IMPORT_BYTES) return fail(`the file is ${text.length} characters; at most ${MAX_IMPORT_BYTES} are read`);
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const c = new EdgeCollector();
  let header = true;
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k].trim();
    if (!line || line.startsWith('#')) continue;
    const where = `line ${k + 1}`;
    const cells = line.split(/[,;\t]/).map((s) => s.trim().replace(/^"(.*)"$/, '$1'));
    if (header) {
      header = false;
      if (/^source$/i.test(cells[0] ?? '')) {
        if (!/^target$/i.test(cells[1] ?? '') || !/^sign$/i.test(cells[2] ?? '')) return fail(`${where}: the header must be "source,target,sign"`);
        continue;
      }
    }
    if (cells.length !== 3) return fail(`${where}: expected 3 columns (source, target, sign), found ${cells.length}`);
    const sign = parseSign(cells[2]);
    if (sign === null) return fail(`${where}: the sign "${cells[2].slice(0, 12)}" must be 1, -1 or 0`);
    const problem = c.edge(cells[0], cells[1], sign, where);
    if (problem) return fail(problem);
  }
  if (!c.labels.length) return fail('no edges found; the CSV needs lines "source,target,sign"');
  return { ok: true, graph: { positions: circle(c.labels.length), edges: c.edges }, labels: c.labels };
}

export function importJson(text: string): ImportResult {
  if (text.length > MAX_IMPORT_BYTES) return fail(`the file is ${text.length} characters; at most ${MAX_IMPORT_BYTES} are read`);
  const parsed = parseJson(text);
  if (!parsed.ok) return fail(parsed.message);
  const unsafe = scanUntrusted(parsed.value);
  if (unsafe.length) return fail(`${unsafe[0].path || 'the file'}: ${unsafe[0].message}`);
  const v = parsed.value as Record<string, unknown>;
  if (!v || typeof v !== 'object' || Array.isArray(v)) return fail('the file must hold a JSON object with "nodes" and "edges"');
  if (v.format !== undefined && v.format !== GRAPH_JSON_FORMAT)
    return fail(`unknown format "${String(v.format).slice(0, 40)}"; expected "${GRAPH_JSON_FORMAT}"`);
  if (!Array.isArray(v.nodes)) return fail('"nodes" must be a list');
  if (!Array.isArray(v.edges)) return fail('"edges" must be a list');
  if (v.nodes.length > EDITOR_LIMITS.nodes) return fail(`${v.nodes.length} nodes; the editor holds at most ${EDITOR_LIMITS.nodes}`);
  if (v.edges.length > EDITOR_LIMITS.edges) return fail(`${v.edges.length} edges; the editor holds at most ${EDITOR_LIMITS.edges}`);
  const c = new EdgeCollector();
  const positions: ([number, number] | null)[] = [];
  for (let k = 0; k < v.nodes.length; k++) {
    const node = v.nodes[k] as Record<string, unknown>;
    const where = `nodes[${k}]`;
    if (!node || typeof node !== 'object' || Array.isArray(node)) return fail(`${where} must be an object {id, x, y}`);
    const id = typeof node.id === 'number' && Number.isInteger(node.id) ? String(node.id) : node.id;
    if (typeof id !== 'string') return fail(`${where}.id must be a whole number or a short label`);
    if (c.index.has(id)) return fail(`${where}: the id "${id}" appears twice`);
    const i = c.node(id, where);
    if (typeof i === 'string') return fail(i);
    const { x, y } = node;
    const hasPos = x !== undefined || y !== undefined;
    if (hasPos && !(isCoord(x) && isCoord(y))) return fail(`${where}: x and y must be finite numbers within ±${COORD_LIMIT}`);
    positions.push(hasPos ? [x as number, y as number] : null);
  }
  const declared = c.labels.length;
  for (let k = 0; k < v.edges.length; k++) {
    const e = v.edges[k] as Record<string, unknown> | unknown[];
    const where = `edges[${k}]`;
    const [s, t, sg] = Array.isArray(e) ? e : e && typeof e === 'object' ? [e.source, e.target, e.sign] : [];
    const label = (x: unknown) => (typeof x === 'number' && Number.isInteger(x) ? String(x) : typeof x === 'string' ? x : null);
    const a = label(s);
    const b = label(t);
    if (a === null || b === null) return fail(`${where} must be {source, target, sign} or [source, target, sign]`);
    if (declared && (!c.index.has(a) || !c.index.has(b))) return fail(`${where}: node "${(c.index.has(a) ? b : a).slice(0, 24)}" is not among the nodes`);
    const sign = parseSign(sg);
    if (sign === null) return fail(`${where}: the sign must be 1, -1 or 0`);
    const problem = c.edge(a, b, sign, where);
    if (problem) return fail(problem);
  }
  if (!c.labels.length) return fail('the graph has no nodes');
  const fallback = circle(c.labels.length);
  return { ok: true, graph: { positions: c.labels.map((_, i) => positions[i] ?? fallback[i]), edges: c.edges }, labels: c.labels };
}

function isCoord(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= COORD_LIMIT;
}

/** Picks the parser by file name or content: JSON starts with "{" after whitespace. */
export function importGraph(text: string, filename = ''): ImportResult {
  if (/\.json$/i.test(filename) || /^\s*\{/.test(text)) return importJson(text);
  return importCsv(text);
}
