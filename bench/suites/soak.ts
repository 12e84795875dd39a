/**
 * Soak (issue 14): 500 episodes headless on the embedded model, in one process, through the same runner as
 * `npm run lab -- run`. Memory must stay flat (RSS growth under 10 % after warm-up) and episodes must not slow down.
 */
import type { BenchSuite } from '../run.ts';
import { runHeadless } from '../../src/core/runs/headless.ts';
import { validateConfig } from '../../src/core/config/index.ts';
import { LABS, openLabByName } from '../../src/labs/registry.ts';
import { listScenarios } from '../../src/labs/synchrony/scenarios/index.ts';
import { loadRunModels } from '../../cli/run-models.ts';
import { episodeRng, runSeed } from '../../src/core/runs/runner.ts';

const EPISODES = 500;
const WARM_UP = 50;
/** The same 20 episodes are timed before and after the soak: blocks of the run hold different scenarios, these do not. */
const PROBE = 60;
// 10 scenarios × 25 episode seeds × both orders = 500 short episodes; a fixed ridge α keeps the final analysis short.
const config = {
  seed: 31,
  pairs: [{ a: 'tiny-social', b: 'tiny-social' }],
  scenarios: listScenarios()
    .slice(0, 10)
    .map((s) => s.id),
  episodeSeeds: Array.from({ length: 25 }, (_, i) => i),
  bothOrders: true,
  maxUtterancesPerAgent: 2,
  maxNewTokens: 16,
  analysis: { alphaMode: 'fixed', alpha: 10, splitSeeds: [0] },
};

const mib = (b: number) => b / 2 ** 20;

const suite: BenchSuite = {
  title: 'Soak: 500 headless episodes on the embedded model',
  async run() {
    const def = LABS.find((d) => d.name === 'synchrony')!;
    const checked = validateConfig(def, config, def.version);
    if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
    const lab = openLabByName('synchrony');
    const plan = lab.plan(checked.value);
    if (plan.episodes !== EPISODES) throw new Error(`the soak config plans ${plan.episodes} episodes`);
    const loaded = await loadRunModels(plan.models, { device: 'cpu' });
    const rss: number[] = [];
    const ends: number[] = [];
    const probe = async () => {
      const t = performance.now();
      for (let index = 0; index < PROBE; index++) {
        await lab.runEpisode(checked.value, {
          index,
          rng: episodeRng(runSeed(checked.value), index),
          signal: new AbortController().signal,
          progress: () => {},
          models: loaded.models,
        });
      }
      return (performance.now() - t) / 1000 / PROBE;
    };
    let before = 0;
    let after = 0;
    const t0 = performance.now();
    try {
      await probe();
      before = await probe();
      await runHeadless(def, lab, checked.value, {
        models: loaded.models,
        backend: loaded.backend,
        dtype: loaded.dtype,
        onEpisode: () => {
          ends.push(performance.now());
          rss.push(process.memoryUsage().rss);
        },
      });
      after = await probe();
    } finally {
      await loaded.dispose();
    }
    const total = (performance.now() - t0) / 1000;
    const secondsPer = (from: number, to: number) => (ends[to - 1] - ends[from - 1]) / (to - from) / 1000;
    const blocks = [
      [WARM_UP, 150],
      [150, 250],
      [250, 350],
      [350, 450],
      [450, EPISODES],
    ].map(([a, b]) => ({ a, b, s: secondsPer(a, b), rss: mib(rss[b - 1]) }));
    const growth = (rss[EPISODES - 1] - rss[WARM_UP - 1]) / rss[WARM_UP - 1];
    const peak = Math.max(...rss.slice(WARM_UP - 1));
    const slowdown = after / before;
    return [
      `${EPISODES} Synchrony episodes of tiny-social (Node CPU fp32, 2 utterances per agent, 16 new tokens), one process, \`runHeadless\` (the CLI's runner), then the analysis, with ${PROBE} probe episodes timed before and after: ${total.toFixed(0)} s in all.`,
      '',
      '| episodes | seconds per episode | RSS at the end of the block (MiB) |',
      '|---|---|---|',
      ...blocks.map((b) => `| ${b.a + 1}–${b.b} | ${b.s.toFixed(3)} | ${b.rss.toFixed(0)} |`),
      '',
      `RSS after the ${WARM_UP}-episode warm-up ${mib(rss[WARM_UP - 1]).toFixed(0)} MiB, at the end ${mib(rss[EPISODES - 1]).toFixed(0)} MiB, peak ${mib(peak).toFixed(0)} MiB: growth **${(100 * growth).toFixed(1)} %** (target < 10 %). The same ${PROBE} episodes (identical work and output) took ${before.toFixed(3)} s each before the soak and ${after.toFixed(3)} s after: **${slowdown.toFixed(2)}×** (target: no slowdown; the blocks above hold different scenarios, so their times differ by content). The episodes themselves are kept in memory until the bundle is written (as \`run\` does; \`run --out\` also writes each to disk), so some growth is the records and states of 450 episodes.`,
    ].join('\n');
  },
};
export default suite;
