import { pino } from 'pino';
import supertest from 'supertest';
import type { TestDb } from '@media-site/db/testing';
import { createApp } from '../app';
import { startCatalogCache } from '../cache/create';
import type { BffConfig } from '../config';
import { memoryRateLimiter, type RateLimiter } from '../security/rate-limit';
import type { AccountDeps } from '../account/deps';
import { accountSettings, providerClient } from '../account/start';

/** The site the tests post as: supertest's Host carries an ephemeral port, so it is an allowed origin. */
export const ORIGIN = 'http://127.0.0.1';

export interface AccountAppOptions {
  /** The clock the routes see. */
  now: () => number;
  /** Another rate limiter than the in-process one (a Redis one, for example). */
  limiter?: RateLimiter;
  pageAnchorEvery?: number;
}

/** The whole bff app (catalog and account routes) over `db`, silent; `close` stops its cache and drops the database. */
export async function startAccountApp(db: TestDb, config: BffConfig, options: AccountAppOptions) {
  const logger = pino({ level: 'silent' });
  const deps: AccountDeps = {
    knex: db.knex,
    logger,
    provider: providerClient(config),
    limiter: options.limiter ?? memoryRateLimiter(),
    settings: accountSettings(config),
    now: options.now,
  };
  const started = await startCatalogCache({ ...config, REDIS_URL: undefined }, db.knex, logger);
  const app = createApp({ knex: db.knex, cache: started.cache, logger, account: deps, pageAnchorEvery: options.pageAnchorEvery });
  return {
    deps,
    app,
    cache: started.cache,
    request: supertest(app.callback()),
    async close() {
      await started.close();
      await db.destroy();
    },
  };
}
