/**
 * What the planted law predicts for each intervention: the Polarization lab's own runner on the law itself
 * (law-model.ts) instead of the trained organism, with the bench's setup (recovery.ts POLARIZATION_SETUP) and more
 * seeds. Seconds, not minutes, so it can use many.
 *
 *   npx tsx organisms/polarization/simulate-law.ts [--seeds 30] [--topic gunControl]
 */
import { option } from '../args';
import { lawModels } from './law-model';
import { POLARIZATION_SETUP, runInterventions } from './recovery';

const seeds = Array.from({ length: Number(option('--seeds', '30')) }, (_, i) => i + 1);
const rows = await runInterventions({ ...POLARIZATION_SETUP, seeds, topic: option('--topic', POLARIZATION_SETUP.topic) }, lawModels());
console.log(`| intervention | P (final) | P − P(none) | in SEs | H (final) |\n|---|---|---|---|---|`);
for (const c of rows) {
  const d = c.delta === null || c.deltaSe === null ? '–' : `${c.delta.toFixed(2)} ± ${c.deltaSe.toFixed(2)}`;
  const z = c.delta === null || c.deltaSe === null ? '–' : (c.delta / c.deltaSe).toFixed(1);
  console.log(`| ${c.intervention} | ${c.P.toFixed(2)} ± ${c.se.toFixed(2)} | ${d} | ${z} | ${c.H.toFixed(2)} |`);
}
