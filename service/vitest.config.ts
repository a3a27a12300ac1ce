import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Test files share one PostgreSQL server; each suite uses its own rows (own merchant), never truncates.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
