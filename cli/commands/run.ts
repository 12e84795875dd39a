import { readdirSync } from 'node:fs';
import { CliUsageError, type CliCommand } from '../command.ts';
import { readConfigInput } from '../config-input.ts';
import { openLabByName } from '../../src/labs/registry.ts';
import { runHeadless } from '../../src/core/runs/headless.ts';
import { writeBundle } from '../../src/core/runs/bundle.ts';
import { loadRunModels } from '../run-models.ts';
import { CancelledError } from '../../src/core/cancel.ts';
import { DurableOutError, openDurableOut } from '../durable-out.ts';
import { runtimeOf } from '../../src/core/config/fields.ts';
import { resumedSampling, samplingOf } from '../../src/core/runs/sampling-record.ts';

export const runCommand: CliCommand = {
  name: 'run',
  summary: 'Run a lab config headless and write the same bundle the UI exports; a killed run continues where it stopped.',
  usage:
    'npm run lab -- run <link | config.json> --out <dir> [--device cpu|wasm] [--dtype fp32|q4] [--json]\n' +
    'Each finished episode is saved under <dir>/.partial as it lands; the same command again continues after the last one. Ctrl-C stops after saving.',
  options: { out: { type: 'string' }, device: { type: 'string' }, dtype: { type: 'string' } },
  async run({ positionals, values, json, out, err }) {
    const { def, config } = readConfigInput(positionals[0]);
    const outDir = values.out;
    if (typeof outDir !== 'string' || !outDir) throw new CliUsageError('--out <dir> is required');
    const lab = openLabByName(def.name);
    const started = performance.now();
    const plan = lab.plan(config);
    if (plan.unavailable) throw new CliUsageError(plan.unavailable);
    let durable;
    try {
      durable = openDurableOut(outDir, def, config, plan.episodes);
    } catch (e) {
      if (e instanceof DurableOutError) throw new CliUsageError(e.message);
      throw e;
    }
    if (durable.finished.length && !json)
      err(`continuing run ${durable.id}: ${durable.finished.length} of ${plan.episodes} episodes were finished before (${durable.partialDir})`);
    const cfgRuntime = runtimeOf(config);
    const runtime = { device: (values.device as string | undefined) ?? cfgRuntime.device, dtype: (values.dtype as string | undefined) ?? cfgRuntime.dtype };
    const abort = new AbortController();
    const stop = () => {
      abort.abort();
      err('stopping: the episode under way is dropped, the finished ones are kept (press Ctrl-C again to quit at once)');
      process.once('SIGINT', () => process.exit(130));
    };
    process.once('SIGINT', stop);
    const loaded = plan.models.length ? await loadRunModels(plan.models, runtime, json ? undefined : err) : null;
    let bundle;
    try {
      // The models' own sampling, added to what the earlier attempts kept (resumedSampling), and kept for the next;
      // a run whose episodes are all saved samples nothing more, so its record stays as it was.
      const more = durable.finished.length < plan.episodes;
      const sampling = loaded && more ? resumedSampling(durable.sampling, samplingOf(plan.models, loaded.models), durable.finished.length) : durable.sampling;
      if (sampling && more) durable.keepSampling(sampling);
      bundle = await runHeadless(def, lab, config, {
        models: loaded?.models,
        backend: loaded?.backend,
        dtype: loaded?.dtype,
        sampling,
        signal: abort.signal,
        resume: { episodes: durable.finished, id: durable.id, createdAt: durable.createdAt },
        onEpisodeDone: (ep) => durable.save(ep),
        onEpisode: (done, total) => {
          if (!json) err(`episode ${done}/${total} done`);
        },
      });
    } catch (e) {
      if (e instanceof CancelledError) {
        const saved = readdirSync(durable.partialDir).filter((f) => /^episode-\d+\.json$/.test(f)).length;
        err(`stopped: ${saved} of ${plan.episodes} episodes are saved in ${durable.partialDir}; run the same command again to continue.`);
        return 130;
      }
      if (e instanceof DurableOutError) {
        err(`run failed: ${e.message}`);
        return 1;
      }
      throw e;
    } finally {
      process.removeListener('SIGINT', stop);
      await loaded?.dispose();
    }
    const file = durable.finish(writeBundle(bundle));
    const seconds = (performance.now() - started) / 1000;
    if (json) out(JSON.stringify({ file, runId: bundle.meta.id, lab: def.name, episodes: bundle.episodes.length, seconds, results: bundle.results }, null, 2));
    else out(`wrote ${file}\n${bundle.episodes.length} episodes in ${seconds.toFixed(1)} s\n${previewResults(bundle.results)}`);
    return 0;
  },
};

export const previewResults = (results: readonly { name: string; value: unknown }[]) => results.map((r) => `${r.name}: ${preview(r.value)}`).join('\n');

/** Results can hold whole layer grids: the human-readable output shows the start, the bundle and --json hold all. */
function preview(value: unknown, max = 600): string {
  const text = JSON.stringify(value);
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters; all of it is in results.json of the bundle, or use --json)`;
}
