import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'encoder',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['../db/src/testing-global-setup.ts'],
    // New password hashes at 2^12 instead of 2^17 (PASSWORD_HASH_LOG_N, refused in production).
    env: { PASSWORD_HASH_LOG_N: '12' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
