import { defineConfig } from 'vitest/config';

// Options both projects share.
const shared = {
  // Two cores on CI: the simulator-backed suites are I/O bound, so a small pool keeps them from starving each other.
  pool: 'forks' as const,
  maxWorkers: 2,
  testTimeout: 20_000,
  hookTimeout: 20_000,
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: 'main',
          include: ['test/**/*.test.ts'],
          exclude: ['test/browser/**', '**/node_modules/**'],
          // The public entry points' type tests (STYLE.md #18): tsc compiles test/types/*.test-d.ts against the built
          // declarations, as a user's project would, in the same run as the tests.
          typecheck: {
            enabled: true,
            include: ['test/types/**/*.test-d.ts'],
            tsconfig: 'test/types/tsconfig.json',
          },
        },
      },
      {
        // The pages we write, in a real headless Chromium: one group, after the others (groupOrder), one file at a
        // time, so that a browser never competes with the simulator-backed suites for the two cores, and the group's
        // cost to CI is one figure (README, Tests).
        test: {
          ...shared,
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
