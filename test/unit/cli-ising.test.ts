// `npm run lab -- ising fit` on generated fixture files (JSON and CSV), `ising simulate`, and refusals.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli';
import { syntheticTrajectories } from '../../src/labs/opinions/synthetic-trajectories';
import { trajectoriesToCsv, trajectoriesToJson } from '../../src/labs/opinions/trajectory-io';
import { defaultConfig } from '../../src/core/config';
import { opinionsLab } from '../../src/labs/opinions/config';

const dir = mkdtempSync(join(tmpdir(), 'sml-ising-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const truth = { kind: 'three' as const, betaPlus: 0.5, betaMinus: 0.6, beta0: 0.3 };
const trajectories = syntheticTrajectories({ couplings: truth, seed: 'cli', graphs: 4, questions: 3, episodes: 3 });
const jsonFile = join(dir, 'trajectories.json');
writeFileSync(jsonFile, trajectoriesToJson(trajectories));
const csv = trajectoriesToCsv(trajectories);
writeFileSync(join(dir, 'votes.csv'), csv.votes);
writeFileSync(join(dir, 'edges.csv'), csv.edges);

describe('CLI: ising fit / simulate', { timeout: 120_000 }, () => {
  it('ising fit --json on a generated file recovers the weights and beats Persistence', async () => {
    const r = await runCli(['ising', 'fit', jsonFile, '--json', '--models', 'three', '--seed', '5', '--out', join(dir, 'fit.json')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.format).toBe('social-minds-lab/opinion-fit@1');
    const fit = j.result.full[0].fit;
    expect(fit.kind).toBe('three');
    expect(Math.abs(fit.effective.friendly - 0.8) / 0.8).toBeLessThan(0.1);
    expect(Math.abs(fit.effective.unfriendly + 0.3)).toBeLessThan(0.06);
    for (const s of j.result.splits) {
      const ba = (name: string) => s.scores.find((x: { name: string }) => x.name === name).oneStep.balanced;
      expect(ba('Glauber, 3 couplings')).toBeGreaterThan(ba('Persistence') + 0.15);
    }
    expect(JSON.parse(readFileSync(join(dir, 'fit.json'), 'utf8')).result.full[0].fit.effective).toEqual(fit.effective);
  });

  it('ising fit reads the CSV form and prints the tables', async () => {
    const r = await runCli(['ising', 'fit', join(dir, 'votes.csv'), join(dir, 'edges.csv'), '--models', 'one', '--rollouts', '2', '--field', 'bias']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/36 trajectories, 3 questions \(0 objective\), 4 graphs, N = 32–32, T = 8–8; field: bias/);
    expect(r.stdout).toMatch(/Coefficients/);
    expect(r.stdout).toMatch(/Balanced accuracy \(%\) on held-out trajectories/);
    expect(r.stdout).toMatch(/held-out graphs\s+out\s+Persistence\s+50/);
  });

  it('refuses hostile and malformed input with exit code 2', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ format: 'social-minds-lab/opinion-trajectories@1', trajectories: [{ ...trajectories[0], id: '<script>x</script>' }] }));
    const r = await runCli(['ising', 'fit', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/refused: trajectories\[0\]\.id: contains HTML or script markup/);
    expect((await runCli(['ising', 'fit', join(dir, 'missing.json')])).code).toBe(2);
    expect((await runCli(['ising', 'fit', jsonFile, '--models', 'seven'])).code).toBe(2);
    expect((await runCli(['ising', 'nothing'])).code).toBe(2);
  });

  it('ising simulate writes the trajectories a run would make, and fit reads them', async () => {
    const c = defaultConfig(opinionsLab);
    c.graph.generator = 'random';
    c.graph.agents = 20;
    c.graph.edgeBudget = 50;
    c.dynamics.replicas = 3;
    const cfg = join(dir, 'config.json');
    writeFileSync(cfg, JSON.stringify({ lab: 'opinions', v: 1, config: c }));
    const out = join(dir, 'sim.json');
    const r = await runCli(['ising', 'simulate', cfg, '--rounds', '6', '--out', out, '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.agents).toBe(20);
    expect(j.net.length).toBe(3);
    expect(j.net[0].length).toBe(7);
    const file = JSON.parse(readFileSync(out, 'utf8'));
    expect(file.trajectories.length).toBe(3);
    // The same trajectories as CSV files, and back.
    const e = await runCli(['ising', 'export', out, '--csv', '--out', join(dir, 'sim')]);
    expect(e.code).toBe(0);
    expect(e.stdout).toMatch(/3 trajectories .*sim-votes\.csv, .*sim-edges\.csv/);
    const back = join(dir, 'back.json');
    expect((await runCli(['ising', 'export', join(dir, 'sim-votes.csv'), join(dir, 'sim-edges.csv'), '--out', back])).code).toBe(0);
    expect(JSON.parse(readFileSync(back, 'utf8'))).toEqual(file);
    const f = await runCli(['ising', 'fit', out, '--json', '--models', 'one', '--rollouts', '1']);
    expect(f.code).toBe(0);
    const splits = JSON.parse(f.stdout).result.splits;
    // One graph and one "question": only the in-distribution split can be made.
    expect(splits.map((s: { skipped?: string }) => Boolean(s.skipped))).toEqual([false, true, true]);
  });
});
