/**
 * A full disk under `--out` (docs/reliability.md, "Faults tried"): the write of the fourth episode fails with
 * ENOSPC, as the kernel reports it. The run stops with a message that says what was kept; the three episodes saved
 * before are whole and load again, and no temporary file is left behind.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

const disk = vi.hoisted(() => ({ full: false }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const writeSync = ((...args: Parameters<typeof fs.writeSync>) => {
    if (disk.full) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    return fs.writeSync(...args);
  }) as typeof fs.writeSync;
  return { ...fs, default: { ...fs, writeSync }, writeSync };
});

const { openDurableOut, DurableOutError } = await import('../../cli/durable-out');
const { runHeadless } = await import('../../src/core/runs/headless');
const { openLabByName } = await import('../../src/labs/registry');
const { polarizationLab } = await import('../../src/labs/polarization/config');

const work = mkdtempSync(join(tmpdir(), 'disk-full-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a full disk under --out', () => {
  it('stops with a clear message, keeps the episodes saved before, and leaves no temporary file', async () => {
    const cfg = polarizationLab.schema.parse({ seed: 4, epochs: 8 });
    const out = openDurableOut(work, polarizationLab, cfg, 8);
    const run = runHeadless(polarizationLab, openLabByName('polarization'), cfg, {
      resume: { episodes: [], id: out.id, createdAt: out.createdAt },
      onEpisodeDone: (ep) => {
        disk.full = ep.index === 3;
        out.save(ep);
      },
    });
    await expect(run).rejects.toBeInstanceOf(DurableOutError);
    await expect(run).rejects.toThrow(/could not write episode 4 under .*: the disk is full\. The 3 episode\(s\) finished before are kept there/);
    disk.full = false;
    expect(readdirSync(out.partialDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(existsSync(join(out.partialDir, 'episode-3.json'))).toBe(false);
    const again = openDurableOut(work, polarizationLab, cfg, 8);
    expect(again.finished.map((e) => e.index)).toEqual([0, 1, 2]);
  });
});
