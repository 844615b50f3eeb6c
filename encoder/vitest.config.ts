import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'encoder',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['../db/src/testing-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
