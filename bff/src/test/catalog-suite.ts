import { expect } from 'vitest';
import { createTestDb, type TestDb } from '@media-site/db/testing';
import { insertCatalog, type Catalog, type ContentFixture } from './fixtures';
import { testApp, type TestApp, type TestAppOptions } from './harness';
import { describeWithKit } from './suite';

export interface CatalogContext extends TestApp {
  db: TestDb;
  catalog: Catalog;
}

/** Runs `define` once per backend (MariaDB/MySQL when DATABASE_URL names one, SQLite always) over the fixture catalog. */
export function describeCatalog(name: string, define: (ctx: () => CatalogContext) => void, options: TestAppOptions = {}): void {
  describeWithKit(
    name,
    async (backend): Promise<CatalogContext> => {
      const db = await createTestDb(backend);
      const catalog = await insertCatalog(db.knex);
      const app = await testApp(db.knex, options);
      return {
        ...app,
        db,
        catalog,
        async close() {
          await app.close();
          await db.destroy();
        },
      };
    },
    define,
  );
}

/** Splits `items` into pages of `size`, as the API should. */
export function pageOf<T>(items: T[], size: number, page: number): T[] {
  return items.slice((page - 1) * size, page * size);
}

export const BAD_PAGES = ['0', '-1', '1.5', 'abc', '99999', '10001', '01', '1e3', '%20'];

/**
 * The list item a content listing should send for a fixture row: its id under `idField`, the common
 * fields, `thumbnail` and the card's fact (a set's `photocount`, a clip's `duration`).
 */
export function listItem<K extends string>(
  idField: K,
  row: ContentFixture & { photocount?: number; duration?: number | null; preview?: string | null },
  thumbnail: string,
) {
  return {
    [idField]: row.id,
    path: row.path,
    updatename: row.updatename,
    modelname: row.modelname,
    datetoupload: row.datetoupload,
    thumbnail,
    ...('photocount' in row ? { photocount: row.photocount } : {}),
    ...('duration' in row ? { duration: row.duration, preview: row.preview ?? null } : {}),
  } as Record<K, number> & Omit<ContentFixture, 'id' | 'model_id'> & { thumbnail: string };
}

/** Asks for each path and checks its status, naming the path when one differs. */
export async function expectStatuses(
  request: TestApp['request'],
  cases: ReadonlyArray<readonly [path: string, status: number]>,
): Promise<void> {
  for (const [path, status] of cases) expect((await request.get(path)).status, path).toBe(status);
}
