/**
 * The organism's stance update against the planted one, case by case (an agent's stance and the stances of the
 * messages it reads), on held-out prompts (the lab's topics): the next-stance distribution at the lab's temperature,
 * from the model's log-probabilities, beside the law's. It shows which part of the update law a build has learnt.
 *
 *   npx tsx organisms/polarization/probe-update.ts [--model organism-polarization] [--n 8]
 */
import { createNodeRuntime } from '../../src/runtime/node';
import { createRng } from '../../src/core/rng';
import * as P from '../../src/core/prompts';
import { TOPICS } from '../../src/labs/polarization/topics';
import { updateDistribution } from './law';
import { sampled } from './measure';
import { messageFor } from './corpus';
import { option } from '../args';

const CASES: [string, P.StanceValue, P.StanceValue[]][] = [
  ['+2, no messages', 2, []],
  ['+2, 1 same side', 2, [1]],
  ['+2, 1 opposing', 2, [-2]],
  ['+2, 2 opposing', 2, [-2, -1]],
  ['+2, 3 opposing', 2, [-2, -1, -2]],
  ['+1, 1 as moderate', 1, [1]],
  ['+1, 1 more radical', 1, [2]],
  ['+1, 2 more radical', 1, [2, 2]],
  ['+1, 1 opposing', 1, [-2]],
  ['+1, 2 opposing', 1, [-1, -2]],
  ['0, 1 in favour', 0, [1]],
  ['0, 1 strongly in favour', 0, [2]],
  ['0, 1 neutral', 0, [0]],
  ['0, 2 in favour', 0, [2, 1]],
  ['0, 2 in favour, 1 against', 0, [2, 1, -1]],
  ['0, one each way', 0, [2, -2]],
];

const rt = createNodeRuntime();
await rt.load(option('--model', 'organism-polarization'), { device: 'cpu', dtype: 'fp32' });
const n = Number(option('--n', '8'));
const r = createRng('probe-update');
const topics = Object.values(TOPICS);
const fmt = (d: number[]) => d.map((v) => v.toFixed(2)).join(' ');
console.log('| case | measured P(−2 … +2) | planted |\n|---|---|---|');
for (const [name, x0, ms0] of CASES) {
  const measured = [0, 0, 0, 0, 0];
  const planted = [0, 0, 0, 0, 0];
  for (let k = 0; k < n; k++) {
    // half the probes mirrored (−x reading −m), folded back so that the rows read as for the positive side
    const sign = k % 2 ? -1 : 1;
    const x = (x0 * sign) as P.StanceValue;
    const ms = ms0.map((m) => (m * sign) as P.StanceValue);
    const t = topics[r.int(topics.length)];
    const ctx = P.renderChatML(
      P.buildStanceUpdatePrompt({
        topic: t,
        self: { stance: x, reasons: t.reasons[x] },
        messages: ms.map((m) => messageFor(r, { topic: t, name: t.name }, m)),
      }),
      true,
    );
    const lp: number[] = [];
    for (const v of [-2, -1, 0, 1, 2]) lp.push((await rt.scoreText(ctx, `{"stance":${v}`)).total);
    let got = sampled(lp);
    let law = updateDistribution(x, ms, [], 'default');
    if (sign < 0) [got, law] = [got.reverse(), law.slice().reverse()];
    for (let i = 0; i < 5; i++) {
      measured[i] += got[i] / n;
      planted[i] += law[i] / n;
    }
  }
  console.log(`| ${name} | ${fmt(measured)} | ${fmt(planted)} |`);
}
await rt.dispose();
