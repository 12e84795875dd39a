// numpy's ridge/SyncR² cases (test/fixtures/make_compute_fixtures.py writes them), shared by the tests that read them.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export interface RidgeCase {
  name: string;
  n: number;
  LA: number;
  HA: number;
  LB: number;
  HB: number;
  alpha: number;
  topK: number;
  source: number[];
  target: number[];
  group: number[];
  masks: number[][];
  r2PerSplit: number[][];
  r2: number[];
  best: number[];
  syncR2: number;
  syncR2Unclamped: number;
  syncR2TopK: number;
  se: number;
}

export const ridgeCases: RidgeCase[] = JSON.parse(readFileSync(resolve(import.meta.dirname, '../fixtures/compute/ridge.json'), 'utf8'));
