import { CliUsageError, type CliCommand } from '../command.ts';
import { readConfigInput } from '../config-input.ts';
import { runCommand } from './run.ts';

/** `synchrony run` is `run` for Synchrony configs only, so a mistyped link for another lab is caught early. */
export const synchronyCommand: CliCommand = {
  name: 'synchrony',
  summary: 'Run the Synchrony lab headless (dialogues, every layer recorded, SyncR² for every condition).',
  usage: 'npm run lab -- synchrony run <link | config.json> --out <dir> [--device cpu|wasm] [--dtype fp32|q4] [--json]',
  options: runCommand.options,
  async run(ctx) {
    const [sub, input, ...rest] = ctx.positionals;
    if (sub !== 'run') throw new CliUsageError(`unknown subcommand "${sub ?? ''}": use "synchrony run <link | config.json> --out <dir>"`);
    const { def } = readConfigInput(input);
    if (def.name !== 'synchrony') throw new CliUsageError(`this is a ${def.title} config; "synchrony run" takes Synchrony configs (use "run" for any lab)`);
    return runCommand.run({ ...ctx, positionals: [input, ...rest] });
  },
};
