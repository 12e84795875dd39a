/**
 * What the planted law predicts for each intervention: the Polarization lab's own runner on the law itself
 * (law-model.ts) instead of the trained organism, with the bench's setup (16 agents, 10 epochs, interventions from
 * epoch 5, neutral-elite share 0.2). Seconds, not minutes, so it can use many seeds.
 *
 *   npx tsx organisms/polarization/simulate-law.ts [--seeds 30] [--topic gunControl]
 */
import { option } from '../args';
import { lawModels } from './law-model';
import { runInterventions } from './recovery';

const seeds = Array.from({ length: Number(option('--seeds', '30')) }, (_, i) => i + 1);
const rows = await runInterventions(
  { model: 'organism-polarization', agents: 16, epochs: 10, fromEpoch: 4, seeds, topic: option('--topic', 'gunControl'), window: 3, eliteShare: 0.2 },
  lawModels(),
);
console.log(`| intervention | P (final) | P − P(none) | in SEs | H (final) |\n|---|---|---|---|---|`);
for (const c of rows) {
  const d = c.delta === null || c.deltaSe === null ? '–' : `${c.delta.toFixed(2)} ± ${c.deltaSe.toFixed(2)}`;
  const z = c.delta === null || c.deltaSe === null ? '–' : (c.delta / c.deltaSe).toFixed(1);
  console.log(`| ${c.intervention} | ${c.P.toFixed(2)} ± ${c.se.toFixed(2)} | ${d} | ${z} | ${c.H.toFixed(2)} |`);
}
