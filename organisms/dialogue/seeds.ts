/**
 * The dialogue organism's targets over run seeds (the model card's tables "over run seeds"): the bench runs one seed
 * of each kind, and one run of 18-24 episodes is one sample, so these tables give the mean ± SE over seeds and the
 * range. Each run is the bench's (study.ts): the Synchrony preset's config with the judge on, or twelve other scenarios
 * of the library (its 10th-21st) × both orders; the model samples as its generation_config.json asks.
 *
 *   npx tsx organisms/dialogue/seeds.ts [--kind preset|other] [--seeds 1-9] [--model organism-dialogue]
 *
 * About 110 s a preset run and 170 s an other-scenarios run on one 2-core machine (Node, cpu fp32).
 */
import { createNodeRuntime } from '../../src/runtime/node';
import { asRunnerModel, RunnerModelSet } from '../../src/runtime/runner-models';
import { listScenarios } from '../../src/labs/synchrony/scenarios/index';
import { synchronyModule } from '../../src/labs/synchrony/module';
import { option } from '../args';
import { runStudy, studyConfig, type StudySetup } from './study';
import { runRow, seedList, summarise } from './seed-table';

const model = option('--model', 'organism-dialogue');
const kind = option('--kind', 'preset');
if (kind !== 'preset' && kind !== 'other') throw new Error('--kind is preset or other');
const rt = createNodeRuntime();
const info = await rt.load(model, { device: 'cpu', dtype: 'fp32' });
const models = new RunnerModelSet();
models.add(asRunnerModel(model, rt, info));
const others = listScenarios()
  .map((s) => s.id)
  .slice(9, 21);
const rows: Record<string, number>[] = [];
for (const seed of seedList(option('--seeds', '1-9'))) {
  const base = { model, seed, pairingsPerScenario: 1, episodeSeeds: [0] };
  const setup: StudySetup =
    kind === 'preset'
      ? {
          ...base,
          scenarios: [],
          config: synchronyModule.definition.schema.parse({ ...synchronyModule.presets[0].config, seed, judge: { enabled: true, model } }),
        }
      : { ...base, scenarios: others, config: studyConfig({ ...base, scenarios: others }) };
  const row = runRow(await runStudy(setup, models));
  rows.push(row);
  console.log(
    `${kind} seed ${seed}: ${Object.entries(row)
      .map(([k, v]) => `${k} ${v.toFixed(2)}`)
      .join(', ')}`,
  );
}
console.log(`\n${kind}, ${model}, seeds ${option('--seeds', '1-9')} (mean ± SE over seeds, then the range):`);
for (const line of summarise(rows)) console.log(`  ${line}`);
await rt.dispose();
