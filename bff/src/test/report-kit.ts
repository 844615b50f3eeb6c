import type { Knex } from 'knex';
import type supertest from 'supertest';
import { createTestDb, type Backend, type TestDb } from '@media-site/db/testing';
import type { CatalogCache } from '../cache/catalog-cache';
import { loadConfig } from '../config';
import type { AccountDeps } from '../account/deps';
import { ORIGIN, startAccountApp } from './account-app';

export { ORIGIN };

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
  const config = loadConfig({ CACHE_GENERATION_POLL_MS: '3600000', ALLOWED_ORIGINS: ORIGIN });
  let now = Date.now();
  const started = await startAccountApp(db, config, { now: () => now, pageAnchorEvery: 4 });
  return {
    db,
    deps: started.deps,
    cache: started.cache,
    request: started.request,
    setNow: (ms) => {
      now = ms;
    },
    close: started.close,
  };
}
