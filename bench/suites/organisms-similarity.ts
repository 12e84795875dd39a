/**
 * The Similarity population (models/organism-sim-*) through the Similarity lab: each variant's planted law on the
 * lab's prompts, then whole lab runs over seeds (CKA on 64 probe paragraphs, word guessing over 26 letters for every
 * ordered pair, 10 rounds of joint stories for every pair) and the lab's regressions against the planted signs.
 */
import { createNodeRuntime } from '../../src/runtime/node.ts';
import { VARIANTS } from '../../organisms/similarity/law.ts';
import { measurePopulationMember } from '../../organisms/similarity/measure.ts';
import { loadPopulation, runSimilarityStudy, studyConfig } from '../../organisms/similarity/study.ts';
import { similarityModule } from '../../src/labs/similarity/module.ts';
import type { BenchSuite } from '../run.ts';

const pct = (x: number) => `${(100 * x).toFixed(0)} %`;
const f = (x: number | null, d = 3) => (x === null || !Number.isFinite(x) ? 'n/a' : x.toFixed(d));
const SEEDS = [1, 2, 3];

const suite: BenchSuite = {
  title: 'Model organisms: the Similarity population in the Similarity lab',
  async run() {
    const lines = ["### Each variant on the lab's prompts (100 samples at temperature 0.7, Node CPU fp32)", ''];
    lines.push(
      "| variant | lexicon | own word | own hint | guess from own hint | guess from the other lexicon's hint (planted 0) | brainstorm from own bank | story retells a listed idea | replies parsed |",
      '|---|---|---|---|---|---|---|---|---|',
    );
    for (const v of VARIANTS) {
      const rt = createNodeRuntime();
      await rt.load(v.id, { device: 'cpu', dtype: 'fp32' });
      const m = await measurePopulationMember(rt, v.lexicon, 100, 'bench');
      lines.push(
        `| ${v.id} | ${v.lexicon} | ${pct(m.ownWord)} | ${pct(m.ownHint)} | ${pct(m.guessOwn)} | ${pct(m.guessOther)} | ${pct(m.brainstormOwn)} | ${pct(m.storyListed)} | ${pct(m.parsed)} |`,
      );
      await rt.dispose();
    }
    const { models, dispose } = await loadPopulation();
    lines.push(
      '',
      '### The whole lab, end to end',
      '',
      'Within = pairs of two different variants on one lexicon (and, for the games and stories, a variant with itself); across = pairs on different lexicons.',
      '',
    );
    lines.push(
      '| run | seconds | CKA within / across | words matched within / across (of 26) | joint-story uniqueness within / across (of 10) | word guessing on CKA: slope ± SE (p) | story uniqueness on CKA: slope ± SE (p) |',
      '|---|---|---|---|---|---|---|',
    );
    const preset = similarityModule.presets[0];
    const configs = [
      ...SEEDS.map((seed) => ({ label: `study, seed ${seed}`, config: studyConfig(seed) })),
      { label: `preset "${preset.title}"`, config: similarityModule.definition.schema.parse(preset.config) },
    ];
    for (const { label, config } of configs) {
      const s = await runSimilarityStudy(config, models);
      const c = s.comparison;
      const slope = (k: number) => {
        const x = c.slopes[k];
        return `${f(x.slope, 2)} ± ${f(x.se, 2)} (${f(x.p, 4)})${x.recovered ? ' ✓' : ' ✗'}`;
      };
      lines.push(
        `| ${label} | ${s.seconds.toFixed(0)} | ${f(c.cka.same)} / ${f(c.cka.other)} | ${f(c.wordMatches?.same ?? null, 1)} / ${f(c.wordMatches?.other ?? null, 1)} | ${f(c.storyUniqueness?.same ?? null, 2)} / ${f(c.storyUniqueness?.other ?? null, 2)} | ${slope(0)} | ${slope(1)} |`,
      );
    }
    await dispose();
    lines.push('', "✓ = the planted sign with p < 0.05 (the lab's crossed-random-intercepts regression, no covariates).");
    return lines.join('\n');
  },
};
export default suite;
