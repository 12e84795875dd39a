import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliUsageError, type CliCommand } from '../command.ts';
import { readConfigInput } from '../config-input.ts';
import { openLabByName } from '../../src/labs/registry.ts';
import { runHeadless } from '../../src/core/runs/headless.ts';
import { writeBundle } from '../../src/core/runs/bundle.ts';
import { loadRunModels } from '../run-models.ts';

export const runCommand: CliCommand = {
  name: 'run',
  summary: 'Run a lab config headless and write the same bundle the UI exports.',
  usage: 'npm run lab -- run <link | config.json> --out <dir> [--device cpu|wasm] [--dtype fp32|q4] [--json]',
  options: { out: { type: 'string' }, device: { type: 'string' }, dtype: { type: 'string' } },
  async run({ positionals, values, json, out, err }) {
    const { def, config } = readConfigInput(positionals[0]);
    const outDir = values.out;
    if (typeof outDir !== 'string' || !outDir) throw new CliUsageError('--out <dir> is required');
    const lab = openLabByName(def.name);
    const started = performance.now();
    const plan = lab.plan(config);
    if (plan.unavailable) throw new CliUsageError(plan.unavailable);
    const cfgRuntime = ((config as Record<string, unknown>).runtime ?? {}) as { device?: string; dtype?: string };
    const runtime = { device: (values.device as string | undefined) ?? cfgRuntime.device, dtype: (values.dtype as string | undefined) ?? cfgRuntime.dtype };
    const loaded = plan.models.length ? await loadRunModels(plan.models, runtime, json ? undefined : err) : null;
    let bundle;
    try {
      bundle = await runHeadless(def, lab, config, {
        models: loaded?.models,
        backend: loaded?.backend,
        dtype: loaded?.dtype,
        onEpisode: (done, total) => {
          if (!json) err(`episode ${done}/${total} done`);
        },
      });
    } finally {
      await loaded?.dispose();
    }
    mkdirSync(outDir, { recursive: true });
    const file = resolve(outDir, `${bundle.meta.id}.zip`);
    writeFileSync(file, writeBundle(bundle));
    const seconds = (performance.now() - started) / 1000;
    if (json) out(JSON.stringify({ file, runId: bundle.meta.id, lab: def.name, episodes: bundle.episodes.length, seconds, results: bundle.results }, null, 2));
    else out(`wrote ${file}\n${bundle.episodes.length} episodes in ${seconds.toFixed(1)} s\n${bundle.results.map((r) => `${r.name}: ${preview(r.value)}`).join('\n')}`);
    return 0;
  },
};

/** Results can hold whole layer grids: the human-readable output shows the start, the bundle and --json hold all. */
function preview(value: unknown, max = 600): string {
  const text = JSON.stringify(value);
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters; all of it is in results.json of the bundle, or use --json)`;
}
