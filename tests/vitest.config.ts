import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'tests',
    include: ['src/**/*.test.ts', 'e2e/**/*.test.ts', 'integration/**/*.test.ts', 'reliability/**/*.test.ts', 'compose/**/*.test.ts'],
    // New password hashes at 2^12 (PASSWORD_HASH_LOG_N; the services started here inherit it, and
    // refuse it under NODE_ENV=production): hundreds of sign-ins, each a 0.4 s scrypt at the real cost.
    env: { PASSWORD_HASH_LOG_N: '12' },
    testTimeout: 60_000,
    // Under CI, a failed cross-service test runs once more (three files at a time on two cores can
    // expose a race a quiet machine never shows); one that passes on the retry is named in the run's
    // output ("FLAKY: ...", tools/ci/file-times-reporter.mjs) to be fixed, not hidden. Locally: none.
    retry: process.env.CI ? 1 : 0,
    hookTimeout: 180_000,
    // Cross-service tests start real processes (nginx, services, Chromium), two files at a time
    // like every project (the root config's maxWorkers): each file has its own stack on free ports,
    // its own data folder and database, and its own Redis key prefix. They wait on browsers,
    // sockets and timers far more than they compute. What they all read (the SPA build, the
    // seeded demo template) is made once, before the first file.
    globalSetup: ['src/global-setup.ts'],
    // expect.poll waits for state, not time: 1 s (vitest's default) was too short for a render on a
    // loaded CI machine (the phone photo viewer's counter once missed it after a key press).
    expect: { poll: { timeout: 10_000, interval: 50 } },
  },
});
