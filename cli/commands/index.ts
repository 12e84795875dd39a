import type { CliCommand } from '../command.ts';

/** Every CLI command, in the order `help` lists them. Add one line per command. */
export const commands: CliCommand[] = [];
