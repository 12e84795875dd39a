import { readFileSync, statSync } from 'node:fs';
import { CliUsageError, type CliCommand } from '../command.ts';
import { isReplyFormatName, REPLY_FORMAT_NAMES, REPLY_FORMATS, type FormatParams } from '../../src/core/prompts/index.ts';

/** Input cap: replies are untrusted text, read whole into memory. */
const MAX_INPUT_BYTES = 8 * 1024 * 1024;

function formatList(): string {
  return REPLY_FORMAT_NAMES.map((n) => `  ${n.padEnd(26)} ${REPLY_FORMATS[n].summary}`).join('\n');
}

function readInput(file: string | undefined): string {
  if (file === undefined || file === '-') {
    const text = readFileSync(0, 'utf8');
    if (Buffer.byteLength(text) > MAX_INPUT_BYTES) throw new CliUsageError(`standard input is over ${MAX_INPUT_BYTES} bytes`);
    return text;
  }
  try {
    if (statSync(file).size > MAX_INPUT_BYTES) throw new CliUsageError(`${file} is over ${MAX_INPUT_BYTES} bytes`);
    return readFileSync(file, 'utf8');
  } catch (e) {
    if (e instanceof CliUsageError) throw e;
    throw new CliUsageError(`cannot read ${file}: ${(e as Error).message}`);
  }
}

/** A JSON array of strings is a list of replies; any other text is one reply per non-empty line. */
export function splitReplies(text: string): string[] {
  const t = text.trim();
  if (t.startsWith('[')) {
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch (e) {
      throw new CliUsageError(`input starts with "[" but is not a JSON array: ${(e as Error).message}`);
    }
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw new CliUsageError('a JSON input must be an array of strings');
    return v;
  }
  return text.split(/\r?\n/).filter((l) => l.trim() !== '');
}

function params(values: Record<string, unknown>): FormatParams {
  const p: FormatParams = {};
  if (typeof values.letter === 'string') {
    if (!/^[A-Za-z]$/.test(values.letter)) throw new CliUsageError('--letter must be one letter');
    p.letter = values.letter;
  }
  if (typeof values.word === 'string') p.word = values.word;
  if (typeof values.wealth === 'string') {
    const w = Number(values.wealth);
    if (!Number.isFinite(w) || w < 0) throw new CliUsageError('--wealth must be a number ≥ 0');
    p.wealth = w;
  }
  if (typeof values.names === 'string')
    p.names = values.names
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return p;
}

export const parseCommand: CliCommand = {
  name: 'parse',
  summary: "Read model replies with a lab reply format's parser: the value, or the refusal and its reason.",
  usage: [
    'npm run lab -- parse <format> [replies.txt | replies.json | -] [--letter L] [--word W] [--wealth N] [--names "A,B"] [--json]',
    '  replies: one per line, or a JSON array of strings; from the file, or standard input when none is given',
    '  formats (docs/formats.md, "Reply formats"):',
    formatList(),
  ].join('\n'),
  options: { letter: { type: 'string' }, word: { type: 'string' }, wealth: { type: 'string' }, names: { type: 'string' } },
  async run({ positionals, values, json, out }) {
    const [name, file, ...extra] = positionals;
    if (!name) throw new CliUsageError('give the reply format');
    if (!isReplyFormatName(name)) throw new CliUsageError(`unknown reply format "${name}"; one of: ${REPLY_FORMAT_NAMES.join(', ')}`);
    if (extra.length) throw new CliUsageError(`unexpected arguments: ${extra.join(' ')}`);
    const p = params(values);
    const replies = splitReplies(readInput(file));
    const format = REPLY_FORMATS[name];
    const results = replies.map((reply) => ({ reply, result: format.parse(reply, p) }));
    const read = results.filter((r) => r.result.ok).length;
    if (json) {
      out(
        JSON.stringify({
          format: name,
          total: results.length,
          read,
          refused: results.length - read,
          replies: results.map(({ reply, result }) => (result.ok ? { reply, ok: true, value: result.value } : { reply, ok: false, reason: result.reason })),
        }),
      );
      return 0;
    }
    const width = String(results.length).length;
    const lines = results.map(({ result }, i) => {
      const n = String(i + 1).padStart(width);
      return result.ok ? `${n}  ok       ${JSON.stringify(result.value)}` : `${n}  refused  ${result.reason}`;
    });
    out([...lines, `${name}: ${read} of ${results.length} read, ${results.length - read} refused`].join('\n'));
    return 0;
  },
};
