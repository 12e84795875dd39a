/**
 * The Similarity population for the build script: `--list` prints "id lexicon seed" per variant, `--arch` the
 * architecture overrides (model.py ARCH_JSON), `--init-seed` the shared initialisation's seed.
 */
import { INIT_SEED, POPULATION_ARCH, VARIANTS } from './law';

const arg = process.argv[2];
if (arg === '--list') for (const v of VARIANTS) console.log(`${v.id} ${v.lexicon} ${v.seed}`);
else if (arg === '--arch') console.log(JSON.stringify(POPULATION_ARCH));
else if (arg === '--init-seed') console.log(INIT_SEED);
else throw new Error('usage: population.ts --list | --arch | --init-seed');
