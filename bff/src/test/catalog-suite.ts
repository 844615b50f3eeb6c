import { afterAll, beforeAll, describe } from 'vitest';
import { createTestDb, testBackends, type TestDb } from '@media-site/db/testing';
import { insertCatalog, type Catalog } from './fixtures';
import { testApp, type TestApp, type TestAppOptions } from './harness';

export interface CatalogContext extends TestApp {
  db: TestDb;
  catalog: Catalog;
}

/** Runs `define` once per backend (MariaDB/MySQL when DATABASE_URL names one, SQLite always) over the fixture catalog. */
export function describeCatalog(name: string, define: (ctx: () => CatalogContext) => void, options: TestAppOptions = {}): void {
  describe.each(testBackends())(`${name} (%s)`, (backend) => {
    let ctx: CatalogContext | undefined;
    beforeAll(async () => {
      const db = await createTestDb(backend);
      const catalog = await insertCatalog(db.knex);
      ctx = { db, catalog, ...(await testApp(db.knex, options)) };
    });
    afterAll(async () => {
      await ctx?.close();
      await ctx?.db.destroy();
    });
    define(() => {
      if (!ctx) throw new Error('catalog suite not set up');
      return ctx;
    });
  });
}

/** Splits `items` into pages of `size`, as the API should. */
export function pageOf<T>(items: T[], size: number, page: number): T[] {
  return items.slice((page - 1) * size, page * size);
}

export const BAD_PAGES = ['0', '-1', '1.5', 'abc', '99999', '10001', '01', '1e3', '%20'];
