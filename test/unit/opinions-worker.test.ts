// The opinions entries of the compute API called across a real worker boundary with comlink: arguments and
// results must survive structured cloning both ways.
import { afterAll, describe, expect, it } from 'vitest';
import { Worker } from 'node:worker_threads';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as Comlink from 'comlink';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import type { ComputeApi } from '../../src/core/compute-api';
import type { Episode } from '../../src/core/ising/design';

// Node's loader does not carry tsx into workers, so the worker registers it before importing the entry.
const entry = pathToFileURL(resolve(import.meta.dirname, 'opinions-worker-entry.ts')).href;
const worker = new Worker(`import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); })`, { eval: true });
const api = Comlink.wrap<ComputeApi>(nodeEndpoint(worker));

afterAll(async () => {
  api[Comlink.releaseProxy]();
  await worker.terminate();
});

describe('compute API through comlink in a worker_threads Worker', { timeout: 60_000 }, () => {
  it('makes a graph, simulates, fits and scores remotely', async () => {
    const g = await api.makeSignedGraph({ generator: 'random', agents: 16, edgeBudget: 40 }, 'w');
    expect(g.col).toBeInstanceOf(Int32Array);
    const s0 = Int8Array.from({ length: 16 }, (_, i) => (i % 2 ? 1 : -1));
    const episodes: Episode[] = [];
    for (let k = 0; k < 4; k++) {
      const r = await api.simulateGlauber(g, { couplings: { kind: 'one', beta: 0.6 }, fields: 0.1 }, s0, 6, k);
      episodes.push({ graph: g, states: r.states! });
    }
    const local = episodes[0].states;
    expect(local.length).toBe(7 * 16);
    const cmp = await api.compareModels(episodes.slice(0, 3), episodes.slice(3), { kind: 'one', field: 'bias', maxSteps: 200 });
    expect(cmp.scores.map((s) => s.name)).toEqual(['Glauber (one)', 'Persistence', 'Interaction-Free', 'Mean-Field', 'Majority Class']);
    expect(cmp.fit.effective.friendly).toBeGreaterThan(0);
    const sweep = await api.temperatureSweep(cmp.scores[0].model, episodes.slice(0, 1), { count: 5, steps: 40, burn: 10 });
    expect(sweep.temperatures).toBeInstanceOf(Float64Array);
    const voter = await api.coevolvingVoter(
      await api.makeDirectedGraph({ generator: 'ring', agents: 30 }, 0),
      await api.initialOpinions(30, 1),
      { phi: 0.3, epochs: 4 },
      2,
    );
    expect(voter.P.length).toBe(5);
  });
});
