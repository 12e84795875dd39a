import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one on a 2-core CI machine, where the unit and runtime files
    // then ran one after another (476 s here). Two side by side took 392 s: the light files fill the gaps of the heavy
    // ones. The browser project still runs its files one at a time (fileParallelism below).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['test/support/wasm-features.ts'],
          // The unit files share no state that a fresh module graph would reset: without isolation, the project took
          // 45.6 s here against 75.9 s (most of it importing the same modules 77 times). The runtime files keep it:
          // six of their tests (Node's wasm runtime, the hub download, the full disk) failed without it.
          isolate: false,
        },
      },
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
