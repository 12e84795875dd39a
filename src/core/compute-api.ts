/**
 * Everything the compute worker exposes. Pure functions from src/core, gathered in one object so that
 * workers/compute.worker.ts and the Node CLI call the very same code. Add entries as modules land.
 */
export const computeApi = {
  ping(): string {
    return 'pong';
  },
};

export type ComputeApi = typeof computeApi;
