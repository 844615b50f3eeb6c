import type { Knex } from 'knex';

// Search is a contains-match (LIKE '%term%'), which no B-tree can seek. This index lets it scan
// (updatename, id, search_text) in the result order without touching the table, stopping after
// the first 50 matches; only the matching rows are then read. Added by the bff's search.
const TABLES = ['photosets', 'videos', 'vods'] as const;

export async function up(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.index(['updatename', 'id', 'search_text'], `${table}_search_scan_index`);
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.dropIndex(['updatename', 'id', 'search_text'], `${table}_search_scan_index`);
    });
  }
}
