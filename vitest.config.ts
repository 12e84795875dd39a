import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node', setupFiles: ['test/support/wasm-features.ts'] } },
      {
        test: {
          name: 'runtime',
          include: ['test/runtime/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['test/support/wasm-features.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          environment: 'node',
          // the page runs the fused kernel (Chromium has relaxed SIMD): the Node side of a bitwise comparison must too
          setupFiles: ['test/support/wasm-features.ts'],
          globalSetup: ['test/browser/setup/global.ts'],
          testTimeout: 240_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
