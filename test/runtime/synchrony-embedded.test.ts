import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { synchronyCommand } from '../../cli/commands/synchrony.ts';
import { readBundle } from '../../src/core/runs/bundle.ts';
import { LAB_MODULES } from '../../src/labs/registry.ts';
import { listScenarios } from '../../src/labs/synchrony/scenarios/index.ts';
import { resultOf } from '../../src/core/runs/results';
import { synchronyResults } from '../../src/labs/synchrony/results';

const scenarios = listScenarios()
  .slice(0, 3)
  .map((s) => s.id);

async function runSynchrony(config: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), 'sml-sync-'));
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ lab: 'synchrony', v: 2, config }));
  const out: string[] = [];
  const code = await synchronyCommand.run({
    positionals: ['run', file],
    values: { out: dir, device: 'cpu' },
    json: true,
    out: (t) => out.push(t),
    err: () => {},
  });
  const summary = JSON.parse(out.join('\n'));
  const bundle = readBundle(new Uint8Array(readFileSync(summary.file)), LAB_MODULES);
  rmSync(dir, { recursive: true, force: true });
  return { code, bundle };
}

describe('Synchrony on the embedded model (Node CPU)', () => {
  const config = {
    seed: 3,
    scenarios,
    pairingsPerScenario: 1,
    bothOrders: false,
    maxUtterancesPerAgent: 3,
    maxNewTokens: 32,
    controls: { passiveReader: true },
  };

  it('runs 3 short episodes headless: transcripts, every layer per turn, passive states, and an analysis', async () => {
    const { code, bundle } = await runSynchrony(config);
    expect(code).toBe(0);
    expect(bundle.episodes.length).toBe(3);
    expect(bundle.meta.backend).toBe('cpu');
    for (const e of bundle.episodes) {
      const turns = e.records.filter((r) => r.kind === 'turn');
      expect(turns.length).toBeGreaterThanOrEqual(1);
      expect(turns.length).toBeLessThanOrEqual(6);
      const nA = turns.filter((t) => t.speaker === 'A').length;
      expect(e.tensors.statesA.shape).toEqual([nA, 7, 128]);
      expect(e.tensors.passiveA.shape).toEqual([nA, 7, 128]);
      // the passive reader's states differ from the acting agent's
      expect(Array.from(e.tensors.passiveA.data as Float32Array).slice(128 * 6, 128 * 7)).not.toEqual(
        Array.from(e.tensors.statesA.data as Float32Array).slice(128 * 6, 128 * 7),
      );
    }
    const analysis = resultOf(synchronyResults, bundle.results, 'synchrony')!;
    expect(analysis.episodes).toBe(3);
    expect(analysis.conditions.map((c) => c.condition)).toEqual(expect.arrayContaining(['real', 'passive', 'lag3', 'lag5']));
    const real = analysis.conditions.find((c) => c.condition === 'real')!;
    expect(real.ab?.LA ?? 6).toBe(6);
    expect(analysis.parse.turns).toBe(bundle.episodes.reduce((n, e) => n + e.records.filter((r) => r.kind === 'turn').length, 0));
  });

  it('the same config gives the same transcripts and states again', async () => {
    const small = { ...config, scenarios: scenarios.slice(0, 1), controls: { passiveReader: false } };
    const a = await runSynchrony(small);
    const b = await runSynchrony(small);
    const withoutTimes = (rs: Record<string, unknown>[]) => rs.map(({ ms: _ms, ...r }) => r);
    expect(withoutTimes(b.bundle.episodes[0].records)).toEqual(withoutTimes(a.bundle.episodes[0].records));
    expect(Array.from(b.bundle.episodes[0].tensors.statesB.data as Float32Array)).toEqual(
      Array.from(a.bundle.episodes[0].tensors.statesB.data as Float32Array),
    );
  });
});
