/**
 * Everything the compute worker exposes. Pure functions from src/core, gathered in one object so that
 * workers/compute.worker.ts and the Node CLI call the very same code. Add entries as modules land.
 */
import { opinionsCompute } from './opinions-api';
import { analysisCompute } from './analysis-api';

export const computeApi = {
  ...opinionsCompute,
  ...analysisCompute,
  ping(): string {
    return 'pong';
  },
};

export type ComputeApi = typeof computeApi;
