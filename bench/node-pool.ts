/** Node's grid pool for the benchmark suites: the worker counts to compare, and a pool that is always closed. */
import { cpus } from 'node:os';
import { createNodeGridPool } from '../cli/grid-pool-node.ts';
import type { GridPool } from '../workers/grid-pool.ts';

/** 1 and 2 workers, and 4 where the machine has the cores. */
export const WORKER_COUNTS = cpus().length >= 4 ? [1, 2, 4] : [1, 2];

export async function withPool<T>(workers: number, use: (pool: GridPool) => Promise<T>): Promise<T> {
  const pool = createNodeGridPool(workers);
  try {
    return await use(pool);
  } finally {
    pool.close();
  }
}
