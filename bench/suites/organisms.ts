/**
 * Model organisms (organisms/, models/organism-*): does the lab, with its normal prompts, runner and fit, recover
 * the behaviour that was planted? Opinions: the planted law read straight from the model's probabilities on
 * held-out prompts (fp32), then the whole lab end to end (community run on 32 agents, the Glauber fit).
 */
import { createNodeRuntime } from '../../src/runtime/node.ts';
import { asRunnerModel, RunnerModelSet } from '../../src/runtime/runner-models.ts';
import { BUNDLED_STATEMENTS } from '../../src/labs/opinions/community/sets.ts';
import { measureLaw } from '../../organisms/opinions/measure.ts';
import { runRecovery } from '../../organisms/opinions/recovery.ts';
import { signedNumber } from '../../src/components/format.ts';
import type { BenchSuite } from '../run.ts';

const pct = (got: number, want: number) => `${((100 * (got - want)) / Math.abs(want)).toFixed(1)} %`;

const suite: BenchSuite = {
  title: 'Model organisms: planted vs recovered',
  async run() {
    const lines: string[] = [];
    lines.push('### Opinions organism (models/organism-opinions): the law in its output probabilities', '');
    lines.push(
      "Held-out prompts: the lab's 68 bundled personas × 22 bundled statements (neither in the training data), inboxes of 0–6 messages in the organism's style; implied h = logit P(majority of 5 votes at temperature 0.7 is Agree), least squares on the planted covariates.",
      '',
    );
    lines.push(
      '| dtype | probes | friendly (planted +1.00) | unfriendly (planted −0.50) | field weight at t ≥ 1 (planted 0) | RMSE of h |',
      '|---|---|---|---|---|---|',
    );
    for (const dtype of ['fp32'] as const) {
      const rt = createNodeRuntime();
      await rt.load('organism-opinions', { device: 'cpu', dtype });
      const m = await measureLaw(rt, 400, 'bench');
      lines.push(
        `| ${dtype} | ${m.probes.length} | ${signedNumber(m.recovered.friendly)} (${pct(m.recovered.friendly, m.planted.friendly)}) | ${signedNumber(m.recovered.unfriendly)} (${pct(m.recovered.unfriendly, m.planted.unfriendly)}) | ${signedNumber(m.recovered.field)} | ${m.rmse.toFixed(2)} |`,
      );
      await rt.dispose();
    }
    const rt = createNodeRuntime();
    const info = await rt.load('organism-opinions', { device: 'cpu', dtype: 'fp32' });
    const models = new RunnerModelSet();
    models.add(asRunnerModel('organism-opinions', rt, info));
    const questions = BUNDLED_STATEMENTS.map((s) => s.id);
    const r = await runRecovery({ model: 'organism-opinions', seed: 1, agents: 32, edgeBudget: 96, rounds: 8, questions, graphs: 1 }, models, 4);
    await rt.dispose();
    lines.push('', '### Opinions organism: the whole lab, end to end', '');
    lines.push(
      `Community run (Node CPU fp32): N = 32 agents on a random signed graph with 96 edges, T = 8 rounds, K = 5 votes at temperature 0.7, the ${questions.length} bundled statements (one trajectory each, ${r.transitions.toLocaleString('en')} one-step transitions), ${r.seconds.toFixed(0)} s in all; the lab's fit (field: bias, split seed recovery-1, 25 % held out). ± is the standard error over ${r.se.blocks} disjoint blocks of trajectories.`,
      '',
    );
    lines.push('| weight | planted | recovered (3 couplings) | error |', '|---|---|---|---|');
    lines.push(
      `| friendly (β⁺+β₀) | ${signedNumber(r.planted.friendly)} | ${signedNumber(r.recovered.friendly)} ± ${r.se.friendly.toFixed(2)} | ${pct(r.recovered.friendly, r.planted.friendly)} |`,
    );
    lines.push(
      `| unfriendly (β₀−β⁻) | ${signedNumber(r.planted.unfriendly)} | ${signedNumber(r.recovered.unfriendly)} ± ${r.se.unfriendly.toFixed(2)} | ${pct(r.recovered.unfriendly, r.planted.unfriendly)} |`,
    );
    lines.push('', '| model | one-step balanced accuracy, in-distribution (%) |', '|---|---|');
    for (const [name, v] of Object.entries(r.balanced)) lines.push(`| ${name} | ${v.toFixed(1)} |`);
    const three = r.balanced['Glauber, 3 couplings'] ?? NaN;
    const best = Math.max(
      ...Object.entries(r.balanced)
        .filter(([k]) => !k.startsWith('Glauber'))
        .map(([, v]) => v),
    );
    lines.push('', `Three couplings beat the best baseline by ${(three - best).toFixed(1)} points (target ≥ 8).`);
    return lines.join('\n');
  },
};
export default suite;
