import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two test files at a time, in every project (vitest's default on two cores is one: cores - 1).
    // The files wait on MariaDB, Redis, SMTP, browsers and timers more than they compute, and each
    // has a database, ports and a Redis prefix of its own.
    maxWorkers: 2,
    projects: [
      'contracts',
      'db',
      'encoder',
      'ops',
      'bff',
      'media-service',
      'frontend',
      'tests',
      // The workspace-boundary table and its checks (tools/boundaries).
      { test: { name: 'tools', include: ['tools/**/*.test.mjs'] } },
    ],
  },
});
