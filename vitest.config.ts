import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
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
