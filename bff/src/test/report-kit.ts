import type { Knex } from 'knex';
import { pino } from 'pino';
import supertest from 'supertest';
import { createTestDb, type Backend, type TestDb } from '@media-site/db/testing';
import { createApp } from '../app';
import type { CatalogCache } from '../cache/catalog-cache';
import { startCatalogCache } from '../cache/create';
import { loadConfig } from '../config';
import { memoryRateLimiter } from '../security/rate-limit';
import type { AccountDeps } from '../account/deps';
import { accountSettings, providerClient } from '../account/start';

export const ORIGIN = 'http://127.0.0.1';

export interface ReportKit {
  db: TestDb;
  deps: AccountDeps;
  cache: CatalogCache;
  request: ReturnType<typeof supertest>;
  /** Moves the clock the routes see. */
  setNow(ms: number): void;
  close(): Promise<void>;
}

/** A POST from the site's own pages (Origin: ORIGIN), as the report and appeal forms send it. */
export function postFromSite(kit: ReportKit, path: string, body: unknown) {
  return kit.request
    .post(path)
    .set('Origin', ORIGIN)
    .send(body as object);
}

/** The whole bff app (catalog and account routes) over a fresh database; `seed` fills it first. */
export async function startReportKit(backend: Backend, seed?: (knex: Knex) => Promise<unknown>): Promise<ReportKit> {
  const db = await createTestDb(backend);
  await seed?.(db.knex);
  // supertest's Host carries an ephemeral port; the tests post as the site at ORIGIN.
  const config = loadConfig({ CACHE_GENERATION_POLL_MS: '3600000', ALLOWED_ORIGINS: ORIGIN });
  const logger = pino({ level: 'silent' });
  let now = Date.now();
  const deps: AccountDeps = {
    knex: db.knex,
    logger,
    provider: providerClient(config),
    limiter: memoryRateLimiter(),
    settings: accountSettings(config),
    now: () => now,
  };
  const started = await startCatalogCache({ ...config, REDIS_URL: undefined }, db.knex, logger);
  const app = createApp({ knex: db.knex, cache: started.cache, logger, account: deps, pageAnchorEvery: 4 });
  return {
    db,
    deps,
    cache: started.cache,
    request: supertest(app.callback()),
    setNow: (ms) => {
      now = ms;
    },
    async close() {
      await started.close();
      await db.destroy();
    },
  };
}
