import { describe, expect, it } from 'vitest';
import { exportCsv, exportJson, importCsv, importGraph, importJson, MAX_IMPORT_BYTES } from '../../src/labs/opinions/editor/graph-io';
import { EDITOR_LIMITS, type PlainGraph } from '../../src/labs/opinions/editor/model';

const triangle: PlainGraph = {
  positions: [
    [0, 0],
    [10, 0],
    [5, 8],
  ],
  edges: [
    [0, 1, 1],
    [0, 2, -1],
    [1, 2, 1],
  ],
};

function refused(r: ReturnType<typeof importCsv>, pattern: RegExp) {
  expect(r.ok).toBe(false);
  if (!r.ok) expect(r.message).toMatch(pattern);
}

describe('graph export and import', () => {
  it('JSON round-trips positions and signs', () => {
    const r = importJson(exportJson(triangle));
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.graph).toEqual(triangle);
  });

  it('CSV round-trips edges (positions are laid out afresh)', () => {
    const text = exportCsv(triangle);
    expect(text).toBe('source,target,sign\n0,1,1\n0,2,-1\n1,2,1\n');
    const r = importCsv(text);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.graph.edges).toEqual(triangle.edges);
      expect(r.graph.positions).toHaveLength(3);
    }
  });

  it('CSV accepts labels, other separators, signs written as +/−, comments, a BOM and CRLF', () => {
    const r = importCsv('\uFEFF# a comment\r\nalice;bob;+\r\nbob\tcarol\t\u22121\r\n"alice",carol,0\r\n');
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.labels).toEqual(['alice', 'bob', 'carol']);
      expect(r.graph.edges).toEqual([
        [0, 1, 1],
        [1, 2, -1],
      ]);
    }
  });

  it('JSON accepts edges as arrays and nodes without positions', () => {
    const r = importJson('{"nodes":[{"id":"a"},{"id":"b"}],"edges":[["a","b",-1]]}');
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.graph.edges).toEqual([[0, 1, -1]]);
  });

  it('picks the parser by name or content', () => {
    expect(importGraph(exportJson(triangle), 'g.txt').ok).toBe(true);
    expect(importGraph(exportCsv(triangle), 'g.csv').ok).toBe(true);
  });

  it('refuses hostile and broken CSV with a message that says where', () => {
    refused(importCsv('source,target,sign\n<img src=x onerror=alert(1)>,b,1\n'), /line 2.*letters, digits/);
    refused(importCsv('a,b\n'), /3 columns/);
    refused(importCsv('a,b,2\n'), /sign "2"/);
    refused(importCsv('a,a,1\n'), /self-loop/);
    refused(importCsv('a,b,1\nb,a,-1\n'), /line 2.*twice/);
    refused(importCsv('source,dest,sign\n'), /header/);
    refused(importCsv(''), /no edges/);
    refused(importCsv('x'.repeat(MAX_IMPORT_BYTES + 1)), /at most/);
    const tooMany = Array.from({ length: EDITOR_LIMITS.nodes + 1 }, (_, i) => `n${i},m${i},1`).join('\n');
    refused(importCsv(tooMany), /at most 1000 nodes/);
    const tooManyEdges = Array.from({ length: EDITOR_LIMITS.edges + 1 }, (_, k) => `${k % 100},${100 + Math.floor(k / 100)},1`).join('\n');
    refused(importCsv(tooManyEdges), /at most 5000 edges/);
  });

  it('refuses hostile and broken JSON with a message that says where', () => {
    refused(importJson('{"nodes":[{"id":0}], "edges": ['), /not valid JSON/);
    refused(importJson('[1,2]'), /JSON object/);
    refused(importJson('{"nodes":{},"edges":[]}'), /"nodes" must be a list/);
    refused(importJson('{"format":"other","nodes":[],"edges":[]}'), /unknown format/);
    refused(importJson('{"nodes":[{"id":"<script>alert(1)</script>"}],"edges":[]}'), /markup/);
    refused(importJson('{"__proto__":{"polluted":1},"nodes":[],"edges":[]}'), /not allowed/);
    refused(importJson('{"nodes":[{"id":0,"x":1e400,"y":0}],"edges":[]}'), /finite/);
    refused(importJson('{"nodes":[{"id":0,"x":"1","y":0}],"edges":[]}'), /finite/);
    refused(importJson('{"nodes":[{"id":0},{"id":0}],"edges":[]}'), /twice/);
    refused(importJson('{"nodes":[{"id":0},{"id":1}],"edges":[[0,2,1]]}'), /not among the nodes/);
    refused(importJson('{"nodes":[{"id":0},{"id":1}],"edges":[[0,1,"yes"]]}'), /sign/);
    refused(importJson('{"nodes":[{"id":0},{"id":1}],"edges":[{"source":0}]}'), /source, target, sign/);
    refused(importJson('{"nodes":[],"edges":[]}'), /no nodes/);
    refused(importJson(JSON.stringify({ nodes: Array.from({ length: 1001 }, (_, id) => ({ id })), edges: [] })), /at most 1000/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('never returns markup: every accepted label is plain', () => {
    const r = importCsv('a.b,c-d,1\nx_y,z:w,-1\n');
    expect(r.ok).toBe(true);
    if (r.ok) for (const l of r.labels) expect(l).toMatch(/^[\w.:-]+$/);
  });
});
