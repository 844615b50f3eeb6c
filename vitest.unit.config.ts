import { defineConfig } from 'vitest/config';

// `npm run test:unit`: the inner loop. The tier is in the file name: `*.unit.test.ts` needs no server
// at all (no MariaDB, Redis, nginx, browser or ffmpeg) and no built SPA; so do the contracts' tests
// and the workspace boundaries. Well under a minute; `npm test` stays the full suite (its projects
// include these files too).
export default defineConfig({
  test: {
    projects: [
      'contracts',
      { test: { name: 'tools', include: ['tools/**/*.test.mjs'] } },
      { test: { name: 'unit', include: ['*/src/**/*.unit.test.ts'], exclude: ['**/node_modules/**'] } },
    ],
  },
});
