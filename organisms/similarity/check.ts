/**
 * The build's check of the Similarity population (organisms/similarity/build.sh): loads each variant through the
 * lab's runtime (Node, cpu fp32) and measures its planted law on the lab's prompts (measure.ts).
 *
 *   npx tsx organisms/similarity/check.ts [--n 40] [--only organism-sim-a1] [--out check.json]
 */
import { writeFileSync } from 'node:fs';
import { createNodeRuntime } from '../../src/runtime/node';
import { option } from '../args';
import { VARIANTS } from './law';
import { measurePopulationMember } from './measure';

const only = option('--only', '');
const results: Record<string, unknown> = {};
for (const v of VARIANTS.filter((x) => !only || x.id === only)) {
  const rt = createNodeRuntime();
  await rt.load(v.id, { device: 'cpu', dtype: 'fp32' });
  results[v.id] = { lexicon: v.lexicon, ...(await measurePopulationMember(rt, v.lexicon, Number(option('--n', '40')), option('--seed', 'check'))) };
  console.log(v.id, JSON.stringify(results[v.id]));
  await rt.dispose();
}
const out = option('--out', '');
if (out) writeFileSync(out, JSON.stringify(results, null, 1));
