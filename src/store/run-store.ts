import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Episode, RunMeta, RunResult, StoredRecord } from '../core/runs/types';
import type { SafeTensor } from '../core/safetensors';
import type { RunBundle } from '../core/runs/bundle';

interface LabDB extends DBSchema {
  runs: { key: string; value: RunMeta };
  episodes: { key: [string, number]; value: { runId: string; index: number; records: StoredRecord[] }; indexes: { byRun: string } };
  tensors: { key: [string, number, string]; value: { runId: string; episode: number; name: string; tensor: SafeTensor }; indexes: { byRun: string } };
  results: { key: [string, string]; value: RunResult & { runId: string }; indexes: { byRun: string } };
}

export const DB_NAME = 'social-minds-lab';

/** The browser's QuotaExceededError, turned into a message a person can act on. */
export class StorageFullError extends Error {
  constructor(what: string) {
    super(
      `The browser's storage for this site is full, so ${what} was not saved. Everything stored before it is intact. Free space by exporting and deleting old runs, then resume.`,
    );
    this.name = 'StorageFullError';
  }
}

function isQuotaError(e: unknown): boolean {
  const name = (e as { name?: string })?.name;
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED';
}

/**
 * Runs, their episodes, tensors and derived results in IndexedDB. An episode is written in ONE transaction
 * together with the run's progress, so a crash, a reload or a full disk never leaves half an episode.
 */
export class RunStore {
  private constructor(private db: IDBPDatabase<LabDB>) {}

  static async open(name = DB_NAME): Promise<RunStore> {
    const db = await openDB<LabDB>(name, 1, {
      upgrade(db) {
        db.createObjectStore('runs', { keyPath: 'id' });
        db.createObjectStore('episodes', { keyPath: ['runId', 'index'] }).createIndex('byRun', 'runId');
        db.createObjectStore('tensors', { keyPath: ['runId', 'episode', 'name'] }).createIndex('byRun', 'runId');
        db.createObjectStore('results', { keyPath: ['runId', 'name'] }).createIndex('byRun', 'runId');
      },
    });
    return new RunStore(db);
  }

  close() {
    this.db.close();
  }

  async putRun(meta: RunMeta): Promise<void> {
    await this.guard('the run', () => this.db.put('runs', meta));
  }

  getRun(id: string): Promise<RunMeta | undefined> {
    return this.db.get('runs', id);
  }

  async listRuns(): Promise<RunMeta[]> {
    const runs = await this.db.getAll('runs');
    return runs.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  async updateRun(id: string, patch: Partial<RunMeta>): Promise<RunMeta> {
    const tx = this.db.transaction('runs', 'readwrite');
    const meta = await tx.store.get(id);
    if (!meta) throw new Error(`run ${id} does not exist`);
    const next = { ...meta, ...patch, id, updatedAt: new Date().toISOString() };
    await this.guard('the run status', async () => {
      await tx.store.put(next);
      await tx.done;
    });
    return next;
  }

  /** Appends episode `ep.index`, which must be the next one; records, tensors and progress land together. */
  async appendEpisode(runId: string, ep: Episode): Promise<RunMeta> {
    return this.guard(`episode ${ep.index}`, async () => {
      const tx = this.db.transaction(['runs', 'episodes', 'tensors'], 'readwrite');
      tx.done.catch(() => undefined); // failures are reported through the awaited writes below
      const runs = tx.objectStore('runs');
      const meta = await runs.get(runId);
      if (!meta) throw new Error(`run ${runId} does not exist`);
      if (ep.index !== meta.episodesDone) {
        tx.abort();
        throw new Error(`episode ${ep.index} arrived but run ${runId} expects episode ${meta.episodesDone}`);
      }
      const next: RunMeta = { ...meta, episodesDone: ep.index + 1, updatedAt: new Date().toISOString() };
      await allOrNothing(tx, (writes) => {
        writes.push(tx.objectStore('episodes').put({ runId, index: ep.index, records: ep.records }));
        for (const [name, tensor] of Object.entries(ep.tensors)) writes.push(tx.objectStore('tensors').put({ runId, episode: ep.index, name, tensor }));
        writes.push(runs.put(next));
      });
      return next;
    });
  }

  async episodes(runId: string): Promise<Episode[]> {
    const [eps, tensors] = await Promise.all([this.db.getAllFromIndex('episodes', 'byRun', runId), this.db.getAllFromIndex('tensors', 'byRun', runId)]);
    const byIndex = new Map<number, Episode>(eps.map((e) => [e.index, { index: e.index, records: e.records, tensors: {} }]));
    for (const t of tensors) {
      const ep = byIndex.get(t.episode);
      if (ep) ep.tensors[t.name] = t.tensor;
    }
    return [...byIndex.values()].sort((a, b) => a.index - b.index);
  }

  /**
   * Forgets episode `from` and every one after it, with the run's derived results, in one transaction, so that the
   * run can be resumed from there (a damaged stored record is run again from its seed instead of being read).
   */
  async truncateRun(runId: string, from: number): Promise<RunMeta> {
    return this.guard('the repaired run', async () => {
      const tx = this.db.transaction(['runs', 'episodes', 'tensors', 'results'], 'readwrite');
      tx.done.catch(() => undefined);
      const meta = await tx.objectStore('runs').get(runId);
      if (!meta) throw new Error(`run ${runId} does not exist`);
      const next: RunMeta = { ...meta, episodesDone: Math.min(meta.episodesDone, from), status: 'paused', updatedAt: new Date().toISOString() };
      const episodeKeys = (await tx.objectStore('episodes').index('byRun').getAllKeys(runId)).filter(([, index]) => index >= from);
      const tensorKeys = (await tx.objectStore('tensors').index('byRun').getAllKeys(runId)).filter(([, episode]) => episode >= from);
      const resultKeys = await tx.objectStore('results').index('byRun').getAllKeys(runId);
      await allOrNothing(tx, (writes) => {
        for (const k of episodeKeys) writes.push(tx.objectStore('episodes').delete(k));
        for (const k of tensorKeys) writes.push(tx.objectStore('tensors').delete(k));
        for (const k of resultKeys) writes.push(tx.objectStore('results').delete(k));
        writes.push(tx.objectStore('runs').put(next));
      });
      return next;
    });
  }

  /** `version`: the lab's result version it was computed with (RunResult.version). */
  async putResult(runId: string, name: string, value: unknown, version?: number): Promise<void> {
    await this.guard(`the result "${name}"`, () =>
      this.db.put('results', { runId, name, value, updatedAt: new Date().toISOString(), ...(version !== undefined ? { version } : {}) }),
    );
  }

  /**
   * The run's results, all of them replaced at once by a new summary's (computed with result version `version`): a
   * result of a name the summary no longer returns does not stay behind, in one transaction.
   */
  async replaceResults(runId: string, results: readonly Pick<RunResult, 'name' | 'value'>[], version: number): Promise<void> {
    await this.guard('the results', async () => {
      const tx = this.db.transaction('results', 'readwrite');
      const old = await tx.store.index('byRun').getAllKeys(runId);
      const updatedAt = new Date().toISOString();
      await allOrNothing(tx, (writes) => {
        for (const k of old) writes.push(tx.store.delete(k));
        for (const { name, value } of results) writes.push(tx.store.put({ runId, name, value, updatedAt, version }));
      });
    });
  }

  async results(runId: string): Promise<RunResult[]> {
    const rows = await this.db.getAllFromIndex('results', 'byRun', runId);
    return rows.map(({ runId: _, ...r }) => r);
  }

  async deleteRun(runId: string): Promise<void> {
    const tx = this.db.transaction(['runs', 'episodes', 'tensors', 'results'], 'readwrite');
    await tx.objectStore('runs').delete(runId);
    // One loop per store: each has its own key type ([runId, index], [runId, episode, name], [runId, name]).
    const episodes = tx.objectStore('episodes');
    for (const key of await episodes.index('byRun').getAllKeys(runId)) await episodes.delete(key);
    const tensors = tx.objectStore('tensors');
    for (const key of await tensors.index('byRun').getAllKeys(runId)) await tensors.delete(key);
    const results = tx.objectStore('results');
    for (const key of await results.index('byRun').getAllKeys(runId)) await results.delete(key);
    await tx.done;
  }

  async exportRun(runId: string): Promise<RunBundle> {
    const meta = await this.getRun(runId);
    if (!meta) throw new Error(`run ${runId} does not exist`);
    return { meta, episodes: await this.episodes(runId), results: await this.results(runId) };
  }

  /** Stores an imported bundle under a new id, all or nothing. */
  async importRun(bundle: RunBundle, newId: string): Promise<RunMeta> {
    const meta: RunMeta = { ...bundle.meta, id: newId, importedFrom: bundle.meta.id || undefined, episodesDone: bundle.episodes.length };
    await this.guard('the imported run', async () => {
      const tx = this.db.transaction(['runs', 'episodes', 'tensors', 'results'], 'readwrite');
      await allOrNothing(tx, (writes) => {
        writes.push(tx.objectStore('runs').put(meta));
        for (const ep of bundle.episodes) {
          writes.push(tx.objectStore('episodes').put({ runId: newId, index: ep.index, records: ep.records }));
          for (const [name, tensor] of Object.entries(ep.tensors))
            writes.push(tx.objectStore('tensors').put({ runId: newId, episode: ep.index, name, tensor }));
        }
        for (const r of bundle.results) writes.push(tx.objectStore('results').put({ ...r, runId: newId }));
      });
    });
    return meta;
  }

  private async guard<T>(what: string, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (e) {
      if (isQuotaError(e) || isQuotaError((e as { cause?: unknown })?.cause)) throw new StorageFullError(what);
      throw e;
    }
  }
}

/**
 * Issues the writes of one transaction; if any fails (synchronously or not) the whole transaction is aborted,
 * and the requests already issued (which then reject with AbortError) are not left unhandled.
 */
async function allOrNothing(tx: { abort(): void; done: Promise<void> }, issue: (writes: Promise<unknown>[]) => void): Promise<void> {
  const writes: Promise<unknown>[] = [];
  try {
    issue(writes);
    await Promise.all(writes);
    await tx.done;
  } catch (e) {
    for (const w of writes) w.catch(() => undefined);
    try {
      tx.abort();
    } catch {
      // Already finished or aborted by the browser itself.
    }
    await tx.done.catch(() => undefined);
    throw e;
  }
}

/** Bytes a run will need, checked against navigator.storage.estimate() before it starts. */
export async function checkStorageFor(
  bytesNeeded: number,
  storage: Pick<StorageManager, 'estimate'> | undefined = globalThis.navigator?.storage,
): Promise<{ ok: boolean; free: number | null; message: string }> {
  if (!storage?.estimate) return { ok: true, free: null, message: 'This browser does not report free storage; the run will stop cleanly if the disk fills.' };
  const { quota = 0, usage = 0 } = await storage.estimate();
  const free = Math.max(0, quota - usage);
  const mb = (n: number) => `${(n / 2 ** 20).toFixed(1)} MB`;
  if (free < bytesNeeded)
    return {
      ok: false,
      free,
      message: `This run needs about ${mb(bytesNeeded)} but only ${mb(free)} of browser storage is free. Export and delete old runs first.`,
    };
  return { ok: true, free, message: `Needs about ${mb(bytesNeeded)}; ${mb(free)} free.` };
}
