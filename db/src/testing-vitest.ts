import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The vitest project of a workspace whose tests use MySQL and Redis (db, encoder, ops): their URLs come from the environment or from containers `testing-global-setup.ts` starts. */
export function databaseProject(name: string) {
  return defineConfig({
    test: {
      name,
      include: ['src/**/*.test.ts'],
      globalSetup: [fileURLToPath(new URL('./testing-global-setup.ts', import.meta.url))],
      // New password hashes at 2^12 instead of 2^17 (PASSWORD_HASH_LOG_N, refused in production): the
      // suite signs in hundreds of times, each a 0.4 s scrypt at the real cost.
      env: { PASSWORD_HASH_LOG_N: '12' },
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  });
}
