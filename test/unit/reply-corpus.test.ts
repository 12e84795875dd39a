/**
 * The labelled reply corpus (test/fixtures/replies/*.json, issue #19): replies written the way small hub instruct
 * models answer each lab format (SmolLM2, Qwen2.5, Qwen3 with and without thinking, Llama 3.2, Gemma 3), each
 * labelled with what a careful reader reads, or "refuse". Each format's parser must read ≥ 95% right, accept no
 * reply labelled "refuse", and never return a value other than its label.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isReplyFormatName, REPLY_FORMAT_NAMES, REPLY_FORMATS } from '../../src/core/prompts';
import type { FormatParams } from '../../src/core/prompts';

interface Entry {
  style: string;
  reply: string;
  /** The value a careful reader reads, or "refuse". Object labels hold the fields that must match. */
  expect: unknown;
  params?: FormatParams;
  note?: string;
}
interface CorpusFile {
  format: string;
  params?: FormatParams;
  replies: Entry[];
}

const DIR = resolve(import.meta.dirname, '../fixtures/replies');
const files: CorpusFile[] = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(resolve(DIR, f), 'utf8')) as CorpusFile);

/** A parsed value matches its label: equal, or for object labels, every labelled field equal (recursively). */
function matches(label: unknown, value: unknown): boolean {
  if (label !== null && typeof label === 'object' && !Array.isArray(label)) {
    if (value === null || typeof value !== 'object') return false;
    return Object.entries(label).every(([k, v]) => matches(v, (value as Record<string, unknown>)[k]));
  }
  if (Array.isArray(label)) return Array.isArray(value) && value.length === label.length && label.every((x, i) => matches(x, value[i]));
  if (typeof label === 'number' && typeof value === 'number') return Math.abs(label - value) < 1e-9;
  return label === value;
}

type Outcome = 'right' | 'accepted-invalid' | 'misread' | 'refused-valid';

function judge(file: CorpusFile, e: Entry): { outcome: Outcome; got: unknown } {
  const f = REPLY_FORMATS[file.format as keyof typeof REPLY_FORMATS];
  const r = f.parse(e.reply, { ...file.params, ...e.params });
  const got = r.ok ? r.value : `refused: ${r.reason}`;
  if (e.expect === 'refuse') return { outcome: r.ok ? 'accepted-invalid' : 'right', got };
  if (!r.ok) return { outcome: 'refused-valid', got };
  return { outcome: matches(e.expect, r.value) ? 'right' : 'misread', got };
}

describe('reply corpus', () => {
  it('covers every reply format with realistic replies, at least 300 in all', () => {
    for (const f of files) expect(isReplyFormatName(f.format), f.format).toBe(true);
    expect(new Set(files.map((f) => f.format))).toEqual(new Set(REPLY_FORMAT_NAMES));
    const total = files.reduce((s, f) => s + f.replies.length, 0);
    expect(total).toBeGreaterThanOrEqual(300);
    for (const f of files) {
      expect(f.replies.length, f.format).toBeGreaterThanOrEqual(6);
      expect(
        f.replies.some((e) => e.expect === 'refuse'),
        `${f.format} has refusals`,
      ).toBe(true);
      expect(
        f.replies.some((e) => e.expect !== 'refuse'),
        `${f.format} has answers`,
      ).toBe(true);
      expect(
        f.replies.some((e) => e.reply.includes('<think>')),
        `${f.format} has thinking replies`,
      ).toBe(true);
    }
  });

  const results = new Map(files.map((file) => [file.format, file.replies.map((e) => ({ e, ...judge(file, e) }))]));
  const rightIn = (rs: { outcome: Outcome }[]) => rs.filter((r) => r.outcome === 'right').length;

  for (const file of files) {
    it(`${file.format}: no invalid reply accepted, nothing misread, ≥ 95% read right`, () => {
      const rs = results.get(file.format)!;
      const bad = (o: Outcome) => rs.filter((r) => r.outcome === o).map((r) => ({ reply: r.e.reply, expect: r.e.expect, got: r.got }));
      expect(bad('accepted-invalid'), 'replies labelled "refuse" that parsed').toEqual([]);
      expect(bad('misread'), 'parsed values that differ from their label').toEqual([]);
      expect(rightIn(rs) / rs.length, `${file.format} refused valid replies: ${JSON.stringify(bad('refused-valid'), null, 1)}`).toBeGreaterThanOrEqual(0.95);
    });
  }

  it('reads ≥ 95% right overall (per-format rates printed)', () => {
    const rows = [...results].map(
      ([format, rs]) =>
        `${format.padEnd(26)} ${String(rightIn(rs)).padStart(3)}/${String(rs.length).padEnd(3)} ${((100 * rightIn(rs)) / rs.length).toFixed(1)}%`,
    );
    const all = [...results.values()].flat();
    const right = rightIn(all);
    console.log(
      `reply corpus, read right per format:\n${rows.join('\n')}\n${'overall'.padEnd(26)} ${right}/${all.length} ${((100 * right) / all.length).toFixed(1)}%`,
    );
    expect(right / all.length).toBeGreaterThanOrEqual(0.95);
  });
});
