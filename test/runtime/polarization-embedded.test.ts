/**
 * The Polarization lab's LLM agents on the embedded model, headless (Node CPU), through the CLI's `run`: every
 * prompt format of the epoch (post, stance update, keep or drop, persuade) answered by tiny-social.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { runCommand } from '../../cli/commands/run.ts';
import { readBundle } from '../../src/core/runs/bundle.ts';
import { LAB_MODULES } from '../../src/labs/registry.ts';
import type { EpochRow } from '../../src/labs/polarization/llm-runner.ts';
import { resultOf } from '../../src/core/runs/results';
import { polarizationResults } from '../../src/labs/polarization/results';

async function runPolarization(over: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), 'sml-pol-'));
  const file = join(dir, 'config.json');
  const config = {
    seed: 5,
    agents: 10,
    epochs: 2,
    agentKind: 'llm',
    model: 'tiny-social',
    topic: 'gunControl',
    network: { generator: 'ring', degree: 2 },
    llm: { initialPostShare: 0.5 },
    ...over,
  };
  writeFileSync(file, JSON.stringify({ lab: 'polarization', v: 1, config }));
  const out: string[] = [];
  const code = await runCommand.run({ positionals: [file], values: { out: dir, device: 'cpu' }, json: true, out: (t) => out.push(t), err: () => {} });
  const bundle = readBundle(new Uint8Array(readFileSync(JSON.parse(out.join('\n')).file)), LAB_MODULES);
  rmSync(dir, { recursive: true, force: true });
  return { code, bundle };
}

describe('Polarization with LLM agents on the embedded model (Node CPU)', () => {
  it('runs 2 epochs of 10 agents: posts, updates, rewiring and messages, with few unparsed replies', async () => {
    const { code, bundle } = await runPolarization({});
    expect(code).toBe(0);
    expect(bundle.episodes).toHaveLength(2);
    const result = resultOf(polarizationResults, bundle.results, 'polarization')!;
    console.info(
      `[polarization] tiny-social, 10 agents, 2 epochs: P ${result.series.map((r) => r.P.toFixed(2)).join(' → ')}, H ${result.series.map((r) => r.H.toFixed(2)).join(' → ')}; ${result.calls} calls, ${result.failures} unparsed after 3 tries, ${result.messages} messages`,
    );
    expect(result.series.map((r) => r.epoch)).toEqual([0, 1, 2]);
    expect(result.calls).toBeGreaterThan(10);
    expect((result.failures ?? 0) / (result.calls ?? 1)).toBeLessThan(0.1);
    expect(result.messages).toBeGreaterThan(0);
  });

  it('the self-regulated variant checks posts and stance changes with the same model', async () => {
    const { code, bundle } = await runPolarization({ llm: { initialPostShare: 0.5, selfRegulated: true } });
    expect(code).toBe(0);
    const rows = bundle.episodes.flatMap((e) => e.records).filter((r) => typeof r.P === 'number') as unknown as EpochRow[];
    const checked = rows.reduce((n, r) => n + (r.checked ?? 0), 0);
    const inconsistent = rows.reduce((n, r) => n + (r.inconsistent ?? 0), 0);
    console.info(`[polarization] self-regulated: ${checked} stance changes checked, ${inconsistent} failed their first check`);
    expect(rows.slice(1).every((r) => typeof r.checked === 'number')).toBe(true);
    expect(inconsistent).toBeLessThanOrEqual(checked);
  });
});
