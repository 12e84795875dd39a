import { describe, expect, it } from 'vitest';
import { decoderParameters, episodeLanes, LaneProgress, MAX_LANES, runInLanes, type LaneRun } from '../../src/core/runs/lanes';
import { CancelledError, isCancelledError } from '../../src/core/cancel';
import { createRng } from '../../src/core/rng';

const small = { chained: false, backends: ['wasm', 'wasm'], parameters: decoderParameters(6, 256), cores: 2, threadsPerWorker: 1 };

describe('episodeLanes', () => {
  it('gives one lane per idle core to small wasm models whose episodes stand alone', () => {
    expect(episodeLanes(small).lanes).toBe(2);
    expect(episodeLanes({ ...small, cores: 8, threadsPerWorker: 4 }).lanes).toBe(2);
    expect(episodeLanes({ ...small, cores: 64, threadsPerWorker: 1 }).lanes).toBe(MAX_LANES);
  });
  it('keeps one lane for chains, GPUs, large models, one core, and runs without models', () => {
    expect(episodeLanes({ ...small, chained: true })).toMatchObject({ lanes: 1, why: /continues/ });
    expect(episodeLanes({ ...small, backends: ['wasm', 'webgpu'] })).toMatchObject({ lanes: 1, why: /GPU/ });
    // SmolLM2-135M's shape: 30 layers of 576.
    expect(episodeLanes({ ...small, parameters: decoderParameters(30, 576) })).toMatchObject({ lanes: 1, why: /too large/ });
    expect(episodeLanes({ ...small, cores: 1 })).toMatchObject({ lanes: 1, why: /every core/ });
    // The Similarity population: four models of 4 layers × 64.
    expect(episodeLanes({ ...small, parameters: 4 * decoderParameters(4, 64) })).toMatchObject({ lanes: 1, why: /so small/ });
    expect(episodeLanes({ ...small, backends: [] }).lanes).toBe(1);
  });
});

/** A job whose episodes take seeded, uneven times, so that they finish out of order. */
function job(overrides: Partial<LaneRun<string>> & { total: number }) {
  const rng = createRng(7);
  const delays = Array.from({ length: overrides.total }, () => rng.int(8));
  const stored: number[] = [];
  const ranOn: [number, number][] = [];
  const run: LaneRun<string> = {
    from: 0,
    lanes: 3,
    signal: new AbortController().signal,
    prepare: () => new Promise((r) => setTimeout(r, 3)),
    run: async (index, lane) => {
      ranOn.push([index, lane]);
      await new Promise((r) => setTimeout(r, delays[index]));
      return `episode ${index}`;
    },
    store: async (index, episode) => {
      expect(episode).toBe(`episode ${index}`);
      stored.push(index);
    },
    ...overrides,
  };
  return { run, stored, ranOn };
}

describe('runInLanes', () => {
  it('runs every episode once, across the lanes, and stores them in index order', async () => {
    const { run, stored, ranOn } = job({ total: 20 });
    await runInLanes(run);
    expect(stored).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(ranOn.map(([i]) => i).sort((a, b) => a - b)).toEqual(stored);
    expect(new Set(ranOn.map(([, lane]) => lane))).toEqual(new Set([0, 1, 2]));
  });

  it('starts at `from` (a resumed run)', async () => {
    const { run, stored } = job({ total: 9, from: 5 });
    await runInLanes(run);
    expect(stored).toEqual([5, 6, 7, 8]);
  });

  it('a failure stops every lane, keeps what was stored before it, and is thrown', async () => {
    const { run, stored } = job({
      total: 30,
      run: async (index, _lane, signal) => {
        await new Promise((r) => setTimeout(r, 2));
        if (index === 6) throw new Error('model worker crashed for good');
        if (signal.aborted) throw new CancelledError();
        return `episode ${index}`;
      },
    });
    await expect(runInLanes(run)).rejects.toThrow('crashed for good');
    expect(stored).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('a cancel from the host stops the lanes with CancelledError; episodes before it stay stored', async () => {
    const host = new AbortController();
    const { run, stored } = job({
      total: 40,
      signal: host.signal,
      store: async (index) => {
        stored.push(index);
        if (index === 4) host.abort();
      },
    });
    const error = await runInLanes(run).catch((e: unknown) => e);
    expect(isCancelledError(error)).toBe(true);
    expect(stored.slice(0, 5)).toEqual([0, 1, 2, 3, 4]);
    expect(stored.length).toBeLessThan(40);
  });

  it('a storage failure stops the run with its error', async () => {
    const { run } = job({
      total: 10,
      store: async (index) => {
        if (index === 3) throw new Error('the disk is full');
      },
    });
    await expect(runInLanes(run)).rejects.toThrow('the disk is full');
  });

  it('a lane that cannot get ready is reported, and the other lanes run its episodes', async () => {
    const lost: number[] = [];
    const { run, stored, ranOn } = job({
      total: 12,
      prepare: async (lane) => {
        if (lane === 2) throw new Error('out of memory');
      },
      onLaneLost: (lane) => lost.push(lane),
    });
    await runInLanes(run);
    expect(lost).toEqual([2]);
    expect(stored).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(ranOn.every(([, lane]) => lane !== 2)).toBe(true);
  });
});

describe('LaneProgress', () => {
  it('counts finished episodes and the parts of those under way; a failed one counts nothing', () => {
    const p = new LaneProgress(2, 10);
    expect(p.fraction).toBeCloseTo(0.2, 12);
    p.set(2, 0.5);
    p.set(3, 0.25);
    expect(p.fraction).toBeCloseTo(0.275, 12);
    p.end(2, true);
    p.end(3, false);
    expect(p.fraction).toBeCloseTo(0.3, 12);
  });
});
