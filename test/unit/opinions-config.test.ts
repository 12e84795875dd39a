import { describe, expect, it } from 'vitest';
import { decodeLink, defaultConfig, encodeLinkFragment, validateConfig } from '../../src/core/config';
import { LABS } from '../../src/labs/registry';
import { opinionsLab } from '../../src/labs/opinions/config';
import { CUSTOM_GRAPH_LIMITS, checkEdgeCode, decodeEdges, encodeEdges } from '../../src/labs/opinions/edge-code';
import { configGraph, configNodeCount } from '../../src/labs/opinions/graph';
import { opinionsRunner } from '../../src/labs/opinions/runner';
import { createRng } from '../../src/core/rng';
import { edgeList } from '../../src/core/graphs/signed';
import { randomSigned } from '../../src/core/graphs/generators';
import { episodeRng } from '../../src/core/runs/runner';
import { opinionsRecord } from '../../src/labs/opinions/records';
import { expectRecordsFit } from '../helpers/records-fit';

const withCustom = (nodes: number, edges: string) => ({ custom: { nodes, edges } });

describe('custom graphs in the opinions config', () => {
  it('encodes and decodes the compact edge list', () => {
    const edges: [number, number, number][] = [
      [0, 1, 1],
      [1, 2, -1],
      [0, 999, 1],
    ];
    const code = encodeEdges(edges);
    expect(code).toBe('0+1,1-2,0+999');
    expect(decodeEdges(code)).toEqual(edges);
    expect(decodeEdges('')).toEqual([]);
  });

  it('refuses edge lists that do not describe a graph, with the reason', () => {
    expect(checkEdgeCode('0+1,1-2', 3)).toBeNull();
    expect(checkEdgeCode('0+3', 3)).toMatch(/beyond the 3 nodes/);
    expect(checkEdgeCode('2+2', 3)).toMatch(/self-loop/);
    expect(checkEdgeCode('0+1,1-0', 3)).toMatch(/twice/);
    expect(checkEdgeCode('0+1,,1-2', 3)).toMatch(/must be edges/);
    const many = Array.from({ length: CUSTOM_GRAPH_LIMITS.edges + 1 }, (_, k) => `${k % 100}+${100 + Math.floor(k / 100)}`).join(',');
    expect(checkEdgeCode(many, 1000)).toMatch(/at most/);
  });

  it('the schema validates custom graphs and refuses hostile ones with a field path', () => {
    expect(validateConfig(opinionsLab, withCustom(3, '0+1,1-2')).ok).toBe(true);
    const cases: [unknown, RegExp][] = [
      [withCustom(3, '0+7'), /beyond/],
      [withCustom(3, '<img src=x onerror=alert(1)>'), /edges/],
      [withCustom(1001, ''), /nodes/],
      [withCustom(3, '0+1'.padEnd(CUSTOM_GRAPH_LIMITS.chars + 10, '1')), /edges/],
      [{ custom: { nodes: 2, edges: '0+1', extra: 1 } }, /extra|unrecognized/i],
      [{ dynamics: { nodeFields: [1, 'x'] } }, /nodeFields/],
      [{ sweep: { tMin: 5, tMax: 1 } }, /tMax/],
      [{ sweep: { steps: 100, burn: 100 } }, /burn/],
    ];
    for (const [raw, pattern] of cases) {
      const r = validateConfig(opinionsLab, raw);
      expect(r.ok, JSON.stringify(raw).slice(0, 60)).toBe(false);
      if (!r.ok) expect(r.errors.map((e) => `${e.path} ${e.message}`).join('; ')).toMatch(pattern);
    }
  });

  it('a link carries the largest custom graph the editor holds, and gives it back exactly', () => {
    const g = randomSigned(CUSTOM_GRAPH_LIMITS.nodes, { budget: CUSTOM_GRAPH_LIMITS.edges }, createRng(3));
    const c = defaultConfig(opinionsLab);
    c.custom = { nodes: g.n, edges: encodeEdges(edgeList(g)) };
    const fragment = encodeLinkFragment(opinionsLab, c);
    expect(fragment.length).toBeLessThan(96 * 1024);
    const back = decodeLink(`http://x/${fragment}`, LABS);
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    const cfg = back.value.config as typeof c;
    expect(cfg.custom).toEqual(c.custom);
    const rebuilt = configGraph(cfg, createRng(0));
    expect(edgeList(rebuilt)).toEqual(edgeList(g));
  });

  it('the runner simulates the custom graph, and refuses per-node fields of the wrong length', async () => {
    const c = defaultConfig(opinionsLab);
    c.custom = { nodes: 4, edges: '0+1,1+2,2+3,3-0' };
    c.dynamics.steps = 20;
    c.dynamics.replicas = 2;
    expect(configNodeCount(c)).toBe(4);
    const plan = opinionsRunner.plan(c);
    expect(plan.episodes).toBe(2);
    const ep = await opinionsRunner.runEpisode(c, { index: 0, rng: episodeRng(c.seed, 0), signal: new AbortController().signal, progress: () => {} });
    expect(ep.records).toHaveLength(21);
    expect(ep.tensors?.finalSpins.shape).toEqual([4]);
    c.dynamics.nodeFields = [1, 2, 3];
    expect(opinionsRunner.plan(c).unavailable).toMatch(/3 values.*4 nodes/);
    c.dynamics.nodeFields = [5, 5, 5, 5];
    const biased = await opinionsRunner.runEpisode(c, { index: 0, rng: episodeRng(c.seed, 0), signal: new AbortController().signal, progress: () => {} });
    expect(biased.records[20]).toMatchObject({ n: 1 });
  });

  it('the simulation writes records that fit the lab record schema (step rows)', async () => {
    const c = { ...defaultConfig(opinionsLab), dynamics: { ...defaultConfig(opinionsLab).dynamics, steps: 30 } };
    const ep = await opinionsRunner.runEpisode(c, { index: 0, rng: episodeRng(c.seed, 0), signal: new AbortController().signal, progress: () => {} });
    expect(expectRecordsFit(opinionsRecord, [ep])).toEqual(['(no kind)']);
    expect(ep.records).toHaveLength(31);
  });

  it('random fields are quenched: every replica of a run shares them', async () => {
    const c = defaultConfig(opinionsLab);
    c.graph.side = 6;
    c.dynamics.field = 'random';
    c.dynamics.fieldStrength = 50 / 20; // strong enough that s follows sign(g) at low 𝒯
    c.dynamics.temperature = 0.01;
    c.dynamics.betaFriendly = 0;
    c.dynamics.betaUnfriendly = 0;
    c.dynamics.betaUnsigned = 0;
    c.dynamics.steps = 3;
    const run = (i: number) => opinionsRunner.runEpisode(c, { index: i, rng: episodeRng(c.seed, i), signal: new AbortController().signal, progress: () => {} });
    const [a, b] = await Promise.all([run(0), run(1)]);
    expect(Array.from(a.tensors!.finalSpins.data as Uint8Array)).toEqual(Array.from(b.tensors!.finalSpins.data as Uint8Array));
  });
});
