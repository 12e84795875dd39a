import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCommand, splitReplies } from '../../cli/commands/parse.ts';
import { CliUsageError, type CliContext } from '../../cli/command.ts';

const dir = mkdtempSync(join(tmpdir(), 'sml-parse-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Calls the command's run function directly, capturing what it prints. */
async function run(positionals: string[], values: CliContext['values'] = {}, json = false) {
  let stdout = '';
  const code = await parseCommand.run({ positionals, values, json, out: (t) => (stdout += t + '\n'), err: () => {} });
  return { code, stdout };
}

describe('CLI: parse', () => {
  const lines = join(dir, 'votes.txt');
  writeFileSync(lines, 'Sure! My answer: Agree\n\nI strongly disagree.\nYes and no.\n');
  const array = join(dir, 'numbers.json');
  writeFileSync(array, JSON.stringify(['<think>\nMaybe 30.\n</think>\n\nTwenty', 'between 20 and 30', 'I pick 33 because 2/3 of 50 is about 33.']));

  it('reads one reply per line and prints each value or refusal', async () => {
    const r = await run(['vote-subjective', lines]);
    expect(r.code).toBe(0);
    const out = r.stdout.trim().split('\n');
    expect(out[0]).toMatch(/^1 {2}ok {7}"Agree"$/);
    expect(out[1]).toMatch(/^2 {2}ok {7}"Disagree"$/);
    expect(out[2]).toMatch(/^3 {2}refused {2}not Agree or Disagree/);
    expect(out[3]).toBe('vote-subjective: 2 of 3 read, 1 refused');
  });

  it('reads a JSON array of replies (multi-line ones too) and answers JSON', async () => {
    const r = await run(['number', array], {}, true);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ format: 'number', total: 3, read: 2, refused: 1 });
    expect(j.replies.map((x: { ok: boolean; value?: number }) => (x.ok ? x.value : null))).toEqual([20, null, 33]);
    expect(j.replies[1].reason).toMatch(/exact/);
  });

  it('passes format parameters', async () => {
    const f = join(dir, 'words.txt');
    writeFileSync(f, 'Bread\nApple\n');
    const j = JSON.parse((await run(['word', f], { letter: 'B' }, true)).stdout);
    expect(j.read).toBe(1);
    const g = JSON.parse((await run(['contribution', writeJson('c.json', ['Contribution: 60'])], { wealth: '50' }, true)).stdout);
    expect(g.replies[0]).toMatchObject({ ok: false, reason: 'contribution 60 exceeds wealth 50' });
  });

  it('refuses bad input with a usage error', async () => {
    await expect(run([])).rejects.toBeInstanceOf(CliUsageError);
    await expect(run(['no-such-format', lines])).rejects.toThrow(/unknown reply format "no-such-format"; one of: vote-subjective/);
    await expect(run(['yes-no', join(dir, 'missing.txt')])).rejects.toThrow(/cannot read/);
    await expect(run(['word', lines], { letter: 'BB' })).rejects.toThrow(/one letter/);
    expect(() => splitReplies('[1, 2]')).toThrow(/array of strings/);
    expect(() => splitReplies('[not json')).toThrow(/not a JSON array/);
    expect(splitReplies('a\r\n\r\nb\n')).toEqual(['a', 'b']);
  });
});

function writeJson(name: string, v: unknown): string {
  const p = join(dir, name);
  writeFileSync(p, JSON.stringify(v));
  return p;
}
