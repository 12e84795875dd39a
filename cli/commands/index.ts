import type { CliCommand } from '../command.ts';
import { validateCommand } from './validate.ts';
import { runCommand } from './run.ts';
import { statesCommand } from './states.ts';
import { generateCommand } from './generate.ts';
import { syncCommand } from './sync.ts';
import { ckaCommand } from './cka.ts';
import { mixedlmCommand } from './mixedlm.ts';
import { isingCommand } from './ising.ts';
import { synchronyCommand } from './synchrony.ts';
import { parseCommand } from './parse.ts';
import { sweepCommand } from './sweep.ts';

/** Every CLI command, in the order `help` lists them. Add one import and one line per command. */
export const commands: CliCommand[] = [
  validateCommand,
  runCommand,
  synchronyCommand,
  statesCommand,
  generateCommand,
  syncCommand,
  ckaCommand,
  mixedlmCommand,
  isingCommand,
  parseCommand,
  sweepCommand,
];
