import type { Knex } from 'knex';
import type Koa from 'koa';
import { pino } from 'pino';
import supertest from 'supertest';
import { createApp } from '../app';
import type { CatalogCache } from '../cache/catalog-cache';
import { startCatalogCache } from '../cache/create';
import { catalogSearchIndex, type CatalogSearchIndex, type CatalogSearchIndexOptions } from '../routes/api/search/catalog-index';

export const silentLogger = pino({ level: 'silent' });

export interface TestApp {
  app: Koa;
  cache: CatalogCache;
  searchIndex?: CatalogSearchIndex | undefined;
  request: ReturnType<typeof supertest>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  redisUrl?: string | undefined;
  keyPrefix?: string;
  pollMs?: number;
  ttlSeconds?: number;
  /** Small by default so the fixture catalog's later pages go through page anchors. */
  pageAnchorEvery?: number;
  /** Serve search from the in-process index (built on the first search of each generation). */
  searchIndex?: CatalogSearchIndexOptions;
}

/** The bff app over a test database, driven through app.callback() with no port. */
export async function testApp(knex: Knex, options: TestAppOptions = {}): Promise<TestApp> {
  const started = await startCatalogCache(
    {
      REDIS_URL: options.redisUrl,
      REDIS_COMMAND_TIMEOUT_MS: 150,
      CACHE_TTL_SECONDS: options.ttlSeconds ?? 300,
      CACHE_GENERATION_POLL_MS: options.pollMs ?? 60_000,
      CACHE_LOCAL_MAX_ENTRIES: 1000,
      // Per process: several test files run at once (vitest's maxWorkers), each over its own database.
      CACHE_KEY_PREFIX: options.keyPrefix ?? `test:${process.pid}:`,
    },
    knex,
    silentLogger,
  );
  const searchIndex = options.searchIndex && catalogSearchIndex(knex, options.searchIndex);
  const app = createApp({ knex, cache: started.cache, logger: silentLogger, pageAnchorEvery: options.pageAnchorEvery ?? 4, searchIndex });
  return {
    app,
    cache: started.cache,
    searchIndex,
    request: supertest(app.callback()),
    async close() {
      // A build still reading must not outlive the test database.
      await searchIndex?.settled();
      await started.close();
    },
  };
}

/** Counts SQL statements that touch catalog content (the generation poll is not one of them). */
export function countContentQueries(knex: Knex): { readonly count: number; stop(): void } {
  let count = 0;
  const listener = (q: { sql: string }) => {
    if (!q.sql.includes('catalog_meta')) count++;
  };
  knex.on('query', listener);
  return {
    get count() {
      return count;
    },
    stop: () => knex.off('query', listener),
  };
}
