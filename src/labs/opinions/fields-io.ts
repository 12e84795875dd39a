/**
 * Per-node fields g_i from a file (e.g. g = wᵀφ_i computed from a fit elsewhere): a JSON list, an object with a
 * "fields" or "g" list, or plain text with one number per line or comma-separated. Untrusted: size-capped, every
 * value checked, and the count must match the graph.
 */
import { parseJson, scanUntrusted } from '../../core/config/untrusted';
import { CUSTOM_GRAPH_LIMITS } from './edge-code';

export const FIELD_LIMIT = 20;
const MAX_BYTES = 200_000;

export type FieldsResult = { ok: true; fields: number[] } | { ok: false; message: string };

export function parseFields(text: string, nodes: number): FieldsResult {
  if (text.length > MAX_BYTES) return { ok: false, message: `the file is ${text.length} characters; at most ${MAX_BYTES} are read` };
  if (nodes > CUSTOM_GRAPH_LIMITS.nodes)
    return { ok: false, message: `per-node fields travel in the link for graphs of at most ${CUSTOM_GRAPH_LIMITS.nodes} nodes; this one has ${nodes}` };
  let raw: unknown[];
  if (/^\s*[[{]/.test(text)) {
    const parsed = parseJson(text);
    if (!parsed.ok) return { ok: false, message: parsed.message };
    const unsafe = scanUntrusted(parsed.value);
    if (unsafe.length) return { ok: false, message: `${unsafe[0].path || 'the file'}: ${unsafe[0].message}` };
    const v = parsed.value as Record<string, unknown> | unknown[];
    const list = Array.isArray(v) ? v : (v.fields ?? v.g);
    if (!Array.isArray(list)) return { ok: false, message: 'expected a list of numbers, or an object with a "fields" (or "g") list' };
    raw = list;
  } else raw = text.split(/[\s,;]+/).filter(Boolean);
  if (raw.length !== nodes) return { ok: false, message: `${raw.length} values, but the graph has ${nodes} nodes` };
  const fields: number[] = [];
  for (let i = 0; i < raw.length; i++) {
    const x = typeof raw[i] === 'string' ? Number(raw[i]) : raw[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) return { ok: false, message: `value ${i + 1} is not a number` };
    if (Math.abs(x) > FIELD_LIMIT) return { ok: false, message: `value ${i + 1} (${x}) is outside ±${FIELD_LIMIT}` };
    fields.push(x);
  }
  return { ok: true, fields };
}
