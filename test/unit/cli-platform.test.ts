import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli';
import { defaultConfig, encodeLinkFragment } from '../../src/core/config';
import { opinionsLab } from '../../src/labs/opinions/config';
import { readBundle } from '../../src/core/runs/bundle';
import { LAB_MODULES } from '../../src/labs/registry';

const cli = (...argv: string[]) => runCli(argv);

const smallConfig = () => {
  const c = defaultConfig(opinionsLab);
  c.graph.side = 8;
  c.dynamics.steps = 30;
  c.dynamics.replicas = 2;
  return c;
};

describe('lab CLI', () => {
  it('help lists the commands', async () => {
    const { code, stdout } = await cli('help');
    expect(code).toBe(0);
    expect(stdout).toMatch(/validate/);
    expect(stdout).toMatch(/run /);
  });

  it('validate accepts a link and prints JSON', async () => {
    const link = 'http://localhost:5173/' + encodeLinkFragment(opinionsLab, smallConfig());
    const { code, stdout } = await cli('validate', link, '--json');
    expect(code).toBe(0);
    const parsed = JSON.parse(stdout);
    expect(parsed.valid).toBe(true);
    expect(parsed.config.graph.side).toBe(8);
  });

  it('validate refuses a bad config.json with field paths', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-cli-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ lab: 'opinions', v: 1, config: { graph: { side: -3 } } }));
    const { code, stdout } = await cli('validate', file, '--json');
    expect(code).toBe(2);
    expect(JSON.parse(stdout).errors[0].path).toBe('graph.side');
  });

  it('run writes a bundle that reads back, and the same seed repeats the numbers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lab-run-'));
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ lab: 'opinions', v: 1, config: smallConfig() }));
    const first = await cli('run', file, '--out', join(dir, 'a'), '--json');
    const second = await cli('run', file, '--out', join(dir, 'b'), '--json');
    expect(first.code).toBe(0);
    const read = (sub: string) => readBundle(readFileSync(join(dir, sub, readdirSync(join(dir, sub))[0])), LAB_MODULES);
    const a = read('a');
    const b = read('b');
    expect(a.episodes.length).toBe(2);
    expect(a.episodes[0].records.length).toBe(31);
    expect(a.episodes.map((e) => e.records)).toEqual(b.episodes.map((e) => e.records));
    const values = (out: string) => JSON.parse(out).results.map((r: { value: unknown }) => r.value);
    expect(values(first.stdout)).toEqual(values(second.stdout));
  });

  it('run refuses a config its plan cannot run, with a reason, before loading any model', async () => {
    // An LLM community on the default 64×64 lattice: 4096 agents is more than a community may have.
    const c = { ...defaultConfig(opinionsLab), mode: 'community' as const };
    const { code, stderr } = await cli('run', encodeLinkFragment(opinionsLab, c), '--out', mkdtempSync(join(tmpdir(), 'x')));
    expect(stderr).toMatch(/4096 agents is too large/);
    expect(code).toBe(2);
  });

  it('unknown commands exit 2', async () => {
    expect((await cli('frobnicate')).code).toBe(2);
  });
});
