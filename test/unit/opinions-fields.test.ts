import { describe, expect, it } from 'vitest';
import { parseFields } from '../../src/labs/opinions/fields-io';

describe('per-node fields from a file', () => {
  it('reads JSON lists, {fields} / {g} objects and plain text', () => {
    expect(parseFields('[0.5, -1, 2]', 3)).toEqual({ ok: true, fields: [0.5, -1, 2] });
    expect(parseFields('{"fields": [1, 2]}', 2)).toEqual({ ok: true, fields: [1, 2] });
    expect(parseFields('{"g": [0]}', 1)).toEqual({ ok: true, fields: [0] });
    expect(parseFields('0.1\n-0.2\r\n3e-1\n', 3)).toEqual({ ok: true, fields: [0.1, -0.2, 0.3] });
    expect(parseFields('1, 2; 3', 3)).toEqual({ ok: true, fields: [1, 2, 3] });
  });

  it('refuses wrong counts, non-numbers, huge values, markup and oversize files', () => {
    const bad: [string, number, RegExp][] = [
      ['[1, 2]', 3, /2 values, but the graph has 3 nodes/],
      ['[1, "x"]', 2, /value 2 is not a number/],
      ['1 NaN', 2, /value 2 is not a number/],
      ['[1, 1e400]', 2, /value 2 is not a number/],
      ['[1, 25]', 2, /outside ±20/],
      ['{"fields": "<script>alert(1)</script>"}', 1, /markup/],
      ['{"__proto__": [1]}', 1, /not allowed/],
      ['{"other": [1]}', 1, /"fields"/],
      ['[1,', 1, /not valid JSON/],
      ['1 '.repeat(150_000), 1, /at most/],
      ['1', 5000, /at most 1000 nodes/],
    ];
    for (const [text, n, pattern] of bad) {
      const r = parseFields(text, n);
      expect(r.ok, text.slice(0, 30)).toBe(false);
      if (!r.ok) expect(r.message).toMatch(pattern);
    }
  });
});
