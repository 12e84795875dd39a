import { expect } from 'vitest';
import type { z } from 'zod';
import { checkRecord } from '../../src/core/runs/records';
import type { Episode, StoredRecord } from '../../src/core/runs/types';

/**
 * Every record of the episodes fits the lab's record schema as written and after a JSON round trip (as a bundle holds
 * it), and parses to itself: a field the runner writes but the schema does not declare would be dropped, and fail.
 * Returns the kinds seen, so a test can say which ones it covered.
 */
export function expectRecordsFit<R extends StoredRecord>(schema: z.ZodType<R>, episodes: readonly Episode<R>[]): string[] {
  const kinds = new Set<string>();
  for (const e of episodes)
    for (const record of e.records) {
      const json: unknown = JSON.parse(JSON.stringify(record));
      expect(checkRecord(schema, record)).toEqual({ ok: true, value: record });
      expect(checkRecord(schema, json)).toEqual({ ok: true, value: json });
      kinds.add(typeof record.kind === 'string' ? record.kind : '(no kind)');
    }
  return [...kinds].sort();
}
