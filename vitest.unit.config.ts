import { defineConfig } from 'vitest/config';

// `npm run test:unit`: the inner loop. Tests that need no server at all (no MariaDB, Redis, nginx,
// browser or ffmpeg) and no built SPA: contracts, the workspace boundaries, and the pure modules of
// each workspace. Well under a minute; `npm test` stays the full suite.
export default defineConfig({
  test: {
    projects: [
      'contracts',
      { test: { name: 'tools', include: ['tools/**/*.test.mjs'] } },
      {
        test: {
          name: 'unit',
          include: [
            'bff/src/access-log.test.ts',
            'bff/src/cache/front-generation.test.ts',
            'bff/src/provider/config.test.ts',
            'bff/src/search-index/*.test.ts',
            'bff/src/security/device-cookie.test.ts',
            'encoder/src/ladder.test.ts',
            'ops/test/ingest-meta.test.ts',
            'db/test/members-password.test.ts',
            'db/test/reports-deadlines.test.ts',
            'media-service/test/config.test.ts',
            'media-service/test/edge-url.test.ts',
            'media-service/test/range.test.ts',
            'media-service/test/variant-store.test.ts',
            'frontend/test/payment.validation.test.ts',
          ],
        },
      },
    ],
  },
});
