/**
 * The build's check of the Polarization organism: loads it through the lab's runtime (Node, cpu fp32) and measures
 * the planted behaviour on held-out prompts (measure.ts).
 *
 *   npx tsx organisms/polarization/check.ts [--model organism-polarization] [--n 200] [--out check.json]
 */
import { writeFileSync } from 'node:fs';
import { createNodeRuntime } from '../../src/runtime/node';
import { measurePolarization } from './measure';
import { option } from '../args';

const arg = (k: string, d: string): string => option(k, d);
const rt = createNodeRuntime();
await rt.load(arg('--model', 'organism-polarization'), { device: 'cpu', dtype: arg('--dtype', 'fp32') as 'fp32' | 'q4' });
const m = await measurePolarization(rt, Number(arg('--n', '200')), arg('--seed', 'check'));
const out = arg('--out', '');
if (out) writeFileSync(out, JSON.stringify(m, null, 1));
console.log(JSON.stringify(m, null, 1));
await rt.dispose();
