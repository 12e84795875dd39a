/**
 * The Similarity lab's CKA part on the embedded model, headless (Node CPU), through the same `run` command as the
 * CLI: the probe states come from the model runtime's encode(), and the maps from core CKA. fp32 and q4 of the
 * same model are the one non-trivial pair available offline.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { runCommand } from '../../cli/commands/run.ts';
import { readBundle } from '../../src/core/runs/bundle.ts';
import { LAB_MODULES } from '../../src/labs/registry.ts';
import { createInProcessExecutor } from '../../src/core/grid-tasks.ts';
import { cka } from '../../src/core/cka.ts';
import { analyzeSimilarity, decoderStack, PROBE_STATES } from '../../src/labs/similarity/analysis.ts';
import { selectProbes } from '../../src/labs/similarity/probes.ts';
import { createNodeRuntime } from '../../src/runtime/node.ts';
import { similarityLab, type SimilarityConfig } from '../../src/labs/similarity/config.ts';
import { validateConfig } from '../../src/core/config/validate.ts';
import { episodeReader } from '../../src/core/runs/records.ts';
import { similarityRecord } from '../../src/labs/similarity/records.ts';
import { resultOf } from '../../src/core/runs/results';
import { similarityResults } from '../../src/labs/similarity/results';

async function runSimilarity(config: Record<string, unknown>, dtype: string) {
  const dir = mkdtempSync(join(tmpdir(), 'sml-sim-'));
  const file = join(dir, 'config.json');
  writeFileSync(file, JSON.stringify({ lab: 'similarity', v: 1, config }));
  const out: string[] = [];
  const code = await runCommand.run({ positionals: [file], values: { out: dir, device: 'cpu', dtype }, json: true, out: (t) => out.push(t), err: () => {} });
  const summary = JSON.parse(out.join('\n'));
  const bundle = readBundle(new Uint8Array(readFileSync(summary.file)), LAB_MODULES);
  rmSync(dir, { recursive: true, force: true });
  return { code, bundle };
}

describe('Similarity (CKA) on the embedded model, Node CPU', () => {
  const config = { seed: 4, models: ['tiny-social'], probes: { set: 'builtin-paragraphs', count: 24, batchSize: 5 }, cka: { permutations: 9 } };

  it('encodes the probes through the runtime and compares the model with itself', async () => {
    const { code, bundle } = await runSimilarity(config, 'fp32');
    expect(code).toBe(0);
    expect(bundle.meta.backend).toBe('cpu');
    const [ep] = bundle.episodes;
    expect(ep.tensors[PROBE_STATES].shape).toEqual([24, 7, 128]);
    const a = resultOf(similarityResults, bundle.results, 'similarity')!;
    expect(a.pairs).toHaveLength(1);
    expect(a.pairs[0].linear.maxAligned).toBeCloseTo(1, 9);
    expect(a.pairs[0].La).toBe(6);
    // the stored states are what encode() gives for the same probes, batched or not
    const rt = createNodeRuntime();
    await rt.load('tiny-social', { device: 'cpu', dtype: 'fp32' });
    const probes = selectProbes('builtin-paragraphs', 24, 4).probes;
    const direct = await rt.encode(probes.slice(0, 3), { chatTemplate: true, addGenerationPrompt: false, batchSize: 1 });
    await rt.dispose();
    const stored = ep.tensors[PROBE_STATES].data as Float32Array;
    let worst = 0;
    for (let i = 0; i < direct.data.length; i++) worst = Math.max(worst, Math.abs(direct.data[i] - stored[i]));
    expect(worst).toBeLessThan(1e-4); // left padding in a batch of 5 vs alone: same states up to float32 summation order
  });

  it('q4 and fp32 of the same model: their maps are alike but not identical', async () => {
    const fp32 = await runSimilarity(config, 'fp32');
    const q4 = await runSimilarity(config, 'q4');
    expect(q4.bundle.meta.dtype).toBe('q4');
    const r = cka(decoderStack(fp32.bundle.episodes[0]), decoderStack(q4.bundle.episodes[0]));
    console.info(
      `[similarity] tiny-social fp32 × q4, 24 paragraphs: linear CKA global ${r.linear.global.toFixed(4)}, max-aligned ${r.linear.maxAligned.toFixed(4)}; debiased global ${r.debiased.global.toFixed(4)}`,
    );
    expect(r.linear.maxAligned).toBeGreaterThan(0.8);
    expect(r.linear.maxAligned).toBeLessThan(1 - 1e-6);
    // and the lab's own analysis of the two runs' episodes gives the same numbers
    const checked = validateConfig(similarityLab, { ...config, models: ['a', 'b'], cka: { debiased: false, permutations: 0 } });
    if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
    const { read } = episodeReader(similarityRecord);
    const both = await analyzeSimilarity(checked.value as SimilarityConfig, [read(fp32.bundle.episodes[0]), { ...read(q4.bundle.episodes[0]), index: 1 }], {
      grids: createInProcessExecutor(),
    });
    expect(both.pairs[1].linear.global).toBe(r.linear.global);
  });

  it('plays the four games in self-play on the embedded model, with few forfeits', async () => {
    const { code, bundle } = await runSimilarity(
      { ...config, cka: { permutations: 0 }, games: ['wordGuessing', 'publicGoods', 'splitDollar', 'beautyContest'], wordRounds: 4, rounds: 3 },
      'fp32',
    );
    expect(code).toBe(0);
    expect(bundle.episodes).toHaveLength(5);
    const a = resultOf(similarityResults, bundle.results, 'similarity')!;
    const g = a.games!;
    const by = Object.fromEntries(g.pairs.map((p) => [p.game, p]));
    console.info(
      `[similarity] tiny-social self-play: ${g.pairs.map((p) => `${p.game} ${p.meanA.toFixed(2)}/${p.meanB.toFixed(2)}`).join(', ')}; forfeits ${(100 * g.forfeitRate).toFixed(1)} % of moves`,
    );
    expect(by.wordGuessing.meanA).toBeGreaterThanOrEqual(0);
    expect(by.wordGuessing.meanA).toBeLessThanOrEqual(4);
    expect(by.publicGoods.meanA).toBeGreaterThan(0);
    expect(by.splitDollar.meanA).toBeLessThanOrEqual(3);
    expect(by.beautyContest.meanA).toBeLessThanOrEqual(300);
    expect(g.forfeitRate).toBeLessThan(0.1); // every format parses >= 90 % per try, and a move has 3 tries
    expect(g.rows.every((r) => r.sim === a.pairs[0].linear.global)).toBe(true);
    expect(g.regressions[0].note).toMatch(/at least 3 models/);
  });

  it('writes haiku together and alone on the embedded model, and scores the mutual information with the runtime', async () => {
    const { code, bundle } = await runSimilarity({ ...config, cka: { permutations: 0 }, novelty: ['haiku'], noveltyRounds: 3 }, 'fp32');
    expect(code).toBe(0);
    expect(bundle.episodes).toHaveLength(2);
    const a = resultOf(similarityResults, bundle.results, 'similarity')!;
    const p = a.novelty!.pairs[0];
    console.info(
      `[similarity] tiny-social haiku with itself, 3 rounds: unique joint ${p.uniqueJoint.join('/')}, solo ${p.uniqueSolo.join('/')}, MI ${p.mi.map((x) => x.toFixed(3)).join('/')} bits/token; unparsed ${p.failed}/${p.written}`,
    );
    expect(p.written).toBe(3 * 6);
    expect(p.failed).toBeLessThanOrEqual(2);
    expect(p.uniqueJoint[0]).toBeGreaterThanOrEqual(1);
    expect(p.uniqueJoint[0]).toBeLessThanOrEqual(3);
    for (const x of p.mi) expect(Number.isFinite(x)).toBe(true);
    const rec = bundle.episodes[1].records[0] as unknown as { mi: { hY: number; hYgivenS: number; tokens: number }[] };
    for (const m of rec.mi) {
      expect(m.tokens).toBeGreaterThan(3);
      expect(m.hY).toBeGreaterThan(0);
      expect(m.hYgivenS).toBeGreaterThan(0);
    }
  });
});
