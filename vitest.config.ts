import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Two cores on CI: the simulator-backed suites are I/O bound, so a small pool keeps them from starving each other.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // The public entry points' type tests (STYLE.md #18): tsc compiles test/types/*.test-d.ts against the built
    // declarations, as a user's project would, in the same run as the tests.
    typecheck: {
      enabled: true,
      include: ['test/types/**/*.test-d.ts'],
      tsconfig: 'test/types/tsconfig.json',
    },
  },
});
