/**
 * The compact edge list a custom graph travels in: "i+j" for a friendly edge, "i-j" for an unfriendly one,
 * comma-separated ("0+1,1-2"). It is plain digits and signs, so it compresses well in a link and can hold no markup.
 * Caps keep a link below the 64 KB decoded limit with room for the rest of the config.
 */
export const CUSTOM_GRAPH_LIMITS = { nodes: 1000, edges: 5000, chars: 48_000 } as const;

/** Linear-time pattern (digits, a sign, digits, then repeats after a comma): no catastrophic backtracking. */
export const EDGE_CODE_PATTERN = /^(\d{1,4}[+-]\d{1,4}(,\d{1,4}[+-]\d{1,4})*)?$/;

export type SignedEdge = [number, number, 1 | -1];

export function encodeEdges(edges: readonly (readonly [number, number, number])[]): string {
  return edges.map(([i, j, s]) => `${i}${s > 0 ? '+' : '-'}${j}`).join(',');
}

/** Parses a code that already matched EDGE_CODE_PATTERN; checkEdgeCode says whether its indices fit. */
export function decodeEdges(code: string): SignedEdge[] {
  if (!code) return [];
  return code.split(',').map((part) => {
    const k = part.search(/[+-]/);
    return [Number(part.slice(0, k)), Number(part.slice(k + 1)), part[k] === '+' ? 1 : -1];
  });
}

/** Why a code cannot describe a graph on `nodes` nodes, or null when it can. */
export function checkEdgeCode(code: string, nodes: number): string | null {
  if (!code) return null;
  if (!EDGE_CODE_PATTERN.test(code)) return 'must be edges like "0+1,1-2"';
  const edges = decodeEdges(code);
  if (edges.length > CUSTOM_GRAPH_LIMITS.edges) return `has ${edges.length} edges; at most ${CUSTOM_GRAPH_LIMITS.edges} travel in a link`;
  const seen = new Set<number>();
  for (const [i, j] of edges) {
    if (i >= nodes || j >= nodes) return `edge ${i}–${j} names a node beyond the ${nodes} nodes`;
    if (i === j) return `edge ${i}–${j} is a self-loop`;
    const key = Math.min(i, j) * CUSTOM_GRAPH_LIMITS.nodes + Math.max(i, j);
    if (seen.has(key)) return `edge ${i}–${j} appears twice`;
    seen.add(key);
  }
  return null;
}
