/**
 * The dialogue organism (models/organism-dialogue) through the Synchrony lab: greedy replies to held-out prompts
 * against the planted law (fp32), then whole lab runs (24 episodes each, judge and passive reader on) on the
 * default preset's scenarios and on other scenarios of the library: the quality targets and the planted contrasts; then the
 * "Hidden feelings" preset: the emotion and action probes against the planted emotion law.
 */
import { createNodeRuntime } from '../../src/runtime/node.ts';
import { asRunnerModel, RunnerModelSet } from '../../src/runtime/runner-models.ts';
import { listScenarios } from '../../src/labs/synchrony/scenarios/index.ts';
import { probeTurns } from '../../organisms/dialogue/measure.ts';
import { runStudy, type StudyResult } from '../../organisms/dialogue/study.ts';
import { synchronyModule } from '../../src/labs/synchrony/module.ts';
import type { BenchSuite } from '../run.ts';

const MODEL = 'organism-dialogue';
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

function studyLines(title: string, r: StudyResult): string[] {
  const q = r.quality;
  const lines = [
    `#### ${title}`,
    '',
    `${r.episodes} episodes (${q.turns} turns, ${r.seconds.toFixed(0)} s on Node CPU fp32); judge and passive reader on.`,
    '',
  ];
  lines.push('| what | target | measured |', '|---|---|---|');
  const k = q.foreignKindRates;
  lines.push(
    `| turns that name someone who is not in the scenario | ≤ 2 % | ${pct(q.foreignNameRate)}: a real name from elsewhere ${pct(k.knownName)}, a garbled copy of the episode's own names ${pct(k.nameCopy)}, another capitalised word ${pct(k.otherWord)}, a capitalised function word ${pct(k.functionWord)} |`,
  );
  lines.push(`| turns that contain template or instruction text | ≤ 1 % | ${pct(q.templateRate)} |`);
  lines.push(`| repeated turns within an episode | ≤ 5 % | ${pct(q.repeatRate)} |`);
  lines.push(`| turns that share a content word with the scenario's text, goals or facts | ≥ 60 % | ${pct(q.contentWordRate)} |`);
  lines.push(`| turns that parse | ≥ 95 % | ${pct(q.parseRate)} |`);
  lines.push(`| judge: SD of the overall score across agents | ≥ 0.5 | ${q.judge.sd.toFixed(2)} (${q.judge.parsed}/${q.judge.scores} judged) |`);
  lines.push(
    `| judge: r with the planted rule's truth | ≥ 0.5 | ${Number.isFinite(q.judge.r) ? q.judge.r.toFixed(2) : `n/a (the rule's truth is the same for every judged agent; mean absolute error ${q.judge.meanAbsError.toFixed(2)})`} |`,
  );
  lines.push(`| episodes that end with a leave / reach a deal | – | ${pct(q.leaveRate)} / ${pct(q.dealRate)} |`);
  if (r.real) {
    lines.push(
      '',
      `Real SyncR² = ${r.real.syncR2.toFixed(4)} ± ${r.real.se.toFixed(4)}.`,
      '',
      '| control | SyncR² ± SE | real − control | in SEs (target ≥ 2) |',
      '|---|---|---|---|',
    );
    for (const c of r.contrasts) lines.push(`| ${c.label} | ${c.syncR2.toFixed(4)} ± ${c.se.toFixed(4)} | ${c.diff.toFixed(4)} | ${c.z.toFixed(1)} |`);
  } else lines.push('', 'No SyncR² (too few samples).');
  return [...lines, ''];
}

function decodingLines(title: string, r: StudyResult): string[] {
  const d = r.decoding;
  const q = r.quality;
  const lines = [`#### ${title}`, '', `${r.episodes} episodes (${q.turns} turns, ${r.seconds.toFixed(0)} s on Node CPU fp32).`, ''];
  if (!d) return [...lines, 'No decoding (too few labelled turns).', ''];
  lines.push(
    `${d.labelled.emotion} of ${d.turns} turns gave a readable feeling and ${d.labelled.action} an action; names foreign in ${pct(q.foreignNameRate)} of turns, template text in ${pct(q.templateRate)}. Probe KL against the label-frequency baseline (lower is better); gain = baseline − best layer's probe, ± SD over split seeds.`,
    '',
    "| direction | label | of the partner's | n | baseline KL | best layer | gain ± SE | in SEs |",
    '|---|---|---|---|---|---|---|---|',
  );
  for (const c of d.curves) {
    const z = c.gainSe > 0 ? (c.gain / c.gainSe).toFixed(1) : '–';
    lines.push(
      `| ${c.direction} | ${c.kind} | ${c.time} | ${c.n} | ${c.baseline.toFixed(3)} | ${c.bestLayer} | ${c.gain.toFixed(3)} ± ${c.gainSe.toFixed(3)} | ${z} |`,
    );
  }
  return [...lines, ''];
}

const suite: BenchSuite = {
  title: 'Model organisms: the dialogue organism in the Synchrony lab',
  async run() {
    const lines: string[] = ["### Greedy replies to held-out prompts (the lab library's scenarios and personas, histories from the planted law)", ''];
    lines.push(
      '| dtype | probes | follow the law | address the partner by name | foreign names | template text | judge replies parsed / equal to the rule |',
      '|---|---|---|---|---|---|---|',
    );
    for (const dtype of ['fp32'] as const) {
      const rt = createNodeRuntime();
      await rt.load(MODEL, { device: 'cpu', dtype });
      const m = await probeTurns(rt, 200, 30, 'bench');
      lines.push(
        `| ${dtype} | ${m.probes} | ${pct(m.followsLaw / m.probes)} | ${pct(m.usesPartnerName / Math.max(1, m.namedProbes))} | ${pct(m.foreignNames / m.probes)} | ${pct(m.templateText / m.probes)} | ${m.judgeParsed}/${m.judgeProbes} / ${m.judgeMatches}/${m.judgeProbes} |`,
      );
      await rt.dispose();
    }
    const rt = createNodeRuntime();
    const info = await rt.load(MODEL, { device: 'cpu', dtype: 'fp32' });
    const models = new RunnerModelSet();
    models.add(asRunnerModel(MODEL, rt, info));
    const all = listScenarios().map((s) => s.id);
    lines.push('', '### The whole lab, end to end', '');
    const presetDef = synchronyModule.presets[0];
    // The preset runs without the judge (a class waits for the synchrony figure); the bench adds it, to measure the
    // judge's planted rule on the same episodes.
    const presetConfig = synchronyModule.definition.schema.parse({ ...presetDef.config, judge: { enabled: true, model: MODEL } });
    const preset = await runStudy(
      { model: MODEL, seed: presetConfig.seed, scenarios: [], pairingsPerScenario: 1, episodeSeeds: [0], config: presetConfig },
      models,
    );
    lines.push(...studyLines(`The Synchrony lab's default preset ("${presetDef.title}", its config as the home page runs it, with the judge added)`, preset));
    // The library's scenarios after the preset's nine.
    const other = await runStudy({ model: MODEL, seed: 2, scenarios: all.slice(9, 21), pairingsPerScenario: 1, episodeSeeds: [0] }, models);
    lines.push(...studyLines('Twelve other scenarios of the library × both orders', other));
    // The hidden-feelings preset: the emotion and action probes against the planted emotion law.
    const feelingsDef = synchronyModule.presets.find((p) => p.id === 'hidden-feelings');
    if (feelingsDef) {
      const feelingsConfig = synchronyModule.definition.schema.parse(feelingsDef.config);
      const feelings = await runStudy(
        { model: MODEL, seed: feelingsConfig.seed, scenarios: [], pairingsPerScenario: 1, episodeSeeds: [0], config: feelingsConfig },
        models,
      );
      lines.push(...decodingLines(`The "${feelingsDef.title}" preset (emotions on): decoding the partner's hidden labels`, feelings));
    }
    await rt.dispose();
    // The same preset on the base model: what the lab finds without the planted behaviour.
    const base = createNodeRuntime();
    const baseInfo = await base.load('tiny-social', { device: 'cpu', dtype: 'fp32' });
    const baseModels = new RunnerModelSet();
    baseModels.add(asRunnerModel('tiny-social', base, baseInfo));
    const swapped = { ...presetConfig, pairs: [{ a: 'tiny-social', b: 'tiny-social' }], judge: { ...presetConfig.judge, model: 'tiny-social' } };
    const control = await runStudy(
      { model: 'tiny-social', seed: presetConfig.seed, scenarios: [], pairingsPerScenario: 1, episodeSeeds: [0], config: swapped },
      baseModels,
    );
    lines.push(...studyLines('The same preset on tiny-social, the base model without the planted behaviour', control));
    await base.dispose();
    return lines.join('\n');
  },
};
export default suite;
