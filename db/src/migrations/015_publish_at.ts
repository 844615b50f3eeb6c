import type { Knex } from 'knex';

const ITEM_TABLES = ['photosets', 'freephotosets', 'videos', 'vods'] as const;

// Scheduled releases: an item with a future `publish_at` (unix ms, like every time in this
// schema) is hidden everywhere until then; NULL means published. The index serves the small
// "scheduled now" subquery that listings leave out (bff visibleOnly) and the next-release lookup.
// `released_through` in catalog_meta is the latest release time the catalog generation was bumped
// for, so the bump at release time happens once across bff instances and restarts.
export async function up(knex: Knex): Promise<void> {
  for (const table of ITEM_TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.bigInteger('publish_at').nullable();
      t.index(['publish_at'], `${table}_publish_at_index`);
    });
  }
  await knex('catalog_meta').insert({ name: 'released_through', value: 0 });
}

export async function down(knex: Knex): Promise<void> {
  await knex('catalog_meta').where({ name: 'released_through' }).delete();
  for (const table of ITEM_TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.dropIndex(['publish_at'], `${table}_publish_at_index`);
      t.dropColumn('publish_at');
    });
  }
}
