import './wasm-features.ts';
import { parseArgs } from 'node:util';
import { commands } from './commands/index.ts';
import { CliUsageError, type CliCommand } from './command.ts';

function helpText(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    'Usage: npm run lab -- <command> [options]   (add --json for machine output)',
    '',
    'Commands:',
    ...lines,
    '',
    'npm run lab -- help <command> shows one command.',
  ].join('\n');
}

/** Where the CLI writes: stdout and stderr, unless a caller in the same process (a benchmark) collects the text. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}
const processIo: CliIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };

export async function main(argv: string[], io: CliIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  const out = (t: string) => io.out(t.endsWith('\n') ? t : t + '\n');
  const err = (t: string) => io.err(t.endsWith('\n') ? t : t + '\n');
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    const which = commands.find((c) => c.name === rest[0]);
    out(which ? `${which.summary}\n\nUsage: ${which.usage}` : helpText());
    return 0;
  }
  const command: CliCommand | undefined = commands.find((c) => c.name === name);
  if (!command) {
    err(`Unknown command "${name}".\n\n${helpText()}`);
    return 2;
  }
  try {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      strict: true,
      options: { json: { type: 'boolean', default: false }, ...(command.options ?? {}) },
    });
    return await command.run({ positionals, values, json: Boolean(values.json), out, err });
  } catch (e) {
    if (e instanceof CliUsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      err(`${name}: ${(e as Error).message}\nUsage: ${command.usage}`);
      return 2;
    }
    err(`${name} failed: ${(e as Error).message}`);
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then((code) => process.exit(code));
}
