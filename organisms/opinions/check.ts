/**
 * The build's check of the Opinions organism (organisms/build.sh opinions): loads the model through the lab's
 * runtime (Node, cpu fp32), measures the planted law on held-out prompts (measure.ts) and prints the weights.
 *
 *   npx tsx organisms/opinions/check.ts [--model organism-opinions] [--n 300] [--out check.json]
 */
import { writeFileSync } from 'node:fs';
import { createNodeRuntime } from '../../src/runtime/node';
import { measureLaw } from './measure';
import { option } from '../args';

const arg = (k: string, d: string): string => option(k, d);
const rt = createNodeRuntime();
await rt.load(arg('--model', 'organism-opinions'), { device: 'cpu', dtype: arg('--dtype', 'fp32') as 'fp32' | 'q4' });
const m = await measureLaw(rt, Number(arg('--n', '300')), arg('--seed', 'check'));
const out = arg('--out', '');
if (out) writeFileSync(out, JSON.stringify(m, null, 1));
console.log(JSON.stringify({ recovered: m.recovered, planted: m.planted, rmse: m.rmse, probes: m.probes.length }, null, 1));
await rt.dispose();
