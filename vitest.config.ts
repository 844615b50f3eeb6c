import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Two test files at a time in the workspaces' own projects (vitest's default on two cores is
    // one: cores - 1). Their files wait on MariaDB, Redis, SMTP and timers more than they compute, and
    // each has a database of its own. The cross-service project (tests/) stays one file at a time and
    // runs after these, alone: it starts nginx, the services and Chromium.
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
