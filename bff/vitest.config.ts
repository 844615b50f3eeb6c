import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'bff',
    include: ['src/**/*.test.ts'],
    // New password hashes at 2^12 instead of 2^17 (PASSWORD_HASH_LOG_N, refused in production): the
    // suite signs in hundreds of times, each a 0.4 s scrypt at the real cost.
    env: { PASSWORD_HASH_LOG_N: '12' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
