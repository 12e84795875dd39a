/**
 * Synchrony episodes on the embedded model in one backend's own process (transformers.js binds one ONNX runtime
 * per process). Run by bench/suites/synchrony-episodes.ts: `tsx bench/synchrony-child.ts <cpu|wasm> <episodes>`;
 * prints one JSON line.
 */
import { validateConfig } from '../src/core/config/validate.ts';
import { runHeadless } from '../src/core/runs/headless.ts';
import { synchronyModule } from '../src/labs/synchrony/module.ts';
import { loadRunModels } from '../cli/run-models.ts';
import { listScenarios } from '../src/labs/synchrony/scenarios/index.ts';

const backend = process.argv[2] ?? 'cpu';
const episodes = Number(process.argv[3] ?? 6);
// Both speaking orders of one pairing per scenario: two episodes per scenario, in library order.
const scenarios = listScenarios()
  .slice(0, Math.ceil(episodes / 2))
  .map((s) => s.id);
const checked = validateConfig(synchronyModule.definition, {
  seed: 1,
  scenarios,
  episodeSeeds: [0],
  bothOrders: true,
  pairingsPerScenario: 1,
  controls: { passiveReader: true },
  runtime: { device: backend, dtype: 'fp32' },
});
if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
const config = checked.value;
// The lab's default pair (the embedded dialogue model), whatever it is today.
const loaded = await loadRunModels([...new Set(config.pairs.flatMap((p) => [p.a, p.b]))], config.runtime);
const t0 = performance.now();
const bundle = await runHeadless(synchronyModule.definition, synchronyModule.runner, config, { models: loaded.models });
const seconds = (performance.now() - t0) / 1000;
const turns = bundle.episodes.flatMap((e) => e.records.filter((r) => r.kind === 'turn'));
await loaded.dispose();
process.stdout.write(
  JSON.stringify({
    backend,
    episodes: bundle.episodes.length,
    seconds,
    perEpisode: seconds / bundle.episodes.length,
    turns: turns.length,
    perTurnMs: (1000 * seconds) / turns.length,
    promptTokensMean: turns.reduce((a, t) => a + Number(t.promptTokens), 0) / turns.length,
  }) + '\n',
);
