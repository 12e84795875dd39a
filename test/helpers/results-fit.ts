import { expect } from 'vitest';
import { checkResult, type ResultsDefinition } from '../../src/core/runs/results';
import type { RunResult } from '../../src/core/runs/types';

/**
 * Every result fits its lab's result schema as written and as the store keeps it (a structured clone), and parses to
 * itself: a field the summary writes but the schema does not declare would be dropped, and fail. It also fits after a
 * JSON round trip (as a bundle's results.json holds it), and parses back to itself when it holds no ±Infinity (which
 * JSON writes as null, read back as NaN). Returns the names seen, so a test can say which ones it covered.
 */
export function expectResultsFit(def: ResultsDefinition, results: readonly Pick<RunResult, 'name' | 'value' | 'version'>[]): string[] {
  const names = new Set<string>();
  for (const r of results) {
    expect(checkResult(def, r), r.name).toEqual({ ok: true, value: r.value });
    const stored = structuredClone(r);
    expect(checkResult(def, stored), r.name).toEqual({ ok: true, value: r.value });
    // As a bundle's results.json holds it: JSON writes NaN and ±Infinity as null, which the schema reads as NaN.
    const json: unknown = JSON.parse(JSON.stringify(r.value));
    const back = checkResult(def, { ...r, value: json });
    expect(back.ok, r.name).toBe(true);
    if (!holdsInfinity(r.value)) expect(back.ok && back.value, r.name).toEqual(r.value);
    names.add(r.name);
  }
  return [...names].sort();
}

/** Whether a value holds a number that JSON cannot (NaN, ±Infinity), anywhere. */
export function holdsNonFinite(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (value && typeof value === 'object') return Object.values(value).some(holdsNonFinite);
  return false;
}

function holdsInfinity(value: unknown): boolean {
  if (typeof value === 'number') return value === Infinity || value === -Infinity;
  if (value && typeof value === 'object') return Object.values(value).some(holdsInfinity);
  return false;
}
