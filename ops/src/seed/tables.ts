import type { Knex } from 'knex';

// Children before parents, so deleting in this order never trips a foreign key. content_tags and
// content_stats_daily have no foreign key (they name an item by type and id), so they are emptied
// here or their rows would name the next seed's items.
const CATALOG_TABLES = [
  'content_tags',
  'content_stats_daily',
  'photoset_files',
  'freephotoset_files',
  'photosets',
  'freephotosets',
  'videos',
  'vods',
  'models',
] as const;

export const DEMO_MARKER = 'demo_seed';

/** Empties the catalog tables (the generation counter stays; callers bump it). */
export async function wipeCatalog(trx: Knex | Knex.Transaction): Promise<void> {
  for (const table of CATALOG_TABLES) await trx(table).del();
  await trx('catalog_meta').where({ name: DEMO_MARKER }).del();
}

export async function catalogIsEmpty(knex: Knex | Knex.Transaction): Promise<boolean> {
  for (const table of ['models', 'photosets', 'videos', 'vods', 'freephotosets']) {
    if (await knex(table).first('id')) return false;
  }
  return true;
}

/** Whether the rows in the catalog are the demo seed's (and so the demo media tree belongs with them). */
export async function hasDemoMarker(knex: Knex | Knex.Transaction): Promise<boolean> {
  return Boolean(await knex('catalog_meta').where({ name: DEMO_MARKER }).first('value'));
}

/** Multi-row inserts in chunks. SQLite compiles them as UNION ALL selects, capped at 500 terms. */
export async function insertInChunks(trx: Knex.Transaction, table: string, rows: readonly object[]): Promise<void> {
  const size = trx.client.config.client === 'better-sqlite3' ? 400 : 1000;
  for (let i = 0; i < rows.length; i += size) {
    await trx(table).insert(rows.slice(i, i + size));
  }
}
