/**
 * The build's check of the dialogue organism (organisms/build.sh dialogue): loads it through the lab's runtime
 * (Node, cpu fp32) and scores greedy replies to held-out prompts against the planted law (measure.ts probeTurns).
 *
 *   npx tsx organisms/dialogue/check.ts [--model organism-dialogue] [--n 120] [--judges 20] [--out check.json]
 */
import { writeFileSync } from 'node:fs';
import { createNodeRuntime } from '../../src/runtime/node';
import { probeTurns } from './measure';
import { option } from '../args';

const arg = (k: string, d: string): string => option(k, d);
const rt = createNodeRuntime();
await rt.load(arg('--model', 'organism-dialogue'), { device: 'cpu', dtype: arg('--dtype', 'fp32') as 'fp32' | 'q4' });
const m = await probeTurns(rt, Number(arg('--n', '120')), Number(arg('--judges', '20')), arg('--seed', 'check'));
const out = arg('--out', '');
if (out) writeFileSync(out, JSON.stringify(m, null, 1));
console.log(JSON.stringify(m, null, 1));
await rt.dispose();
