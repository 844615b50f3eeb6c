import type { Knex } from 'knex';

// What sells, by day (stats/daily.ts): one row per UTC day and item with the day's counts, added to
// as things happen (a play started or finished in a member's player, a download chosen, a save, a
// VOD sale and its revenue). Counts only: nothing names a member. The item is named by type and id
// like saved_items ('photo' | 'video' | 'vod', and 'model' for a follow); a deleted item's rows stay
// until the catalog is wiped. `day` is whole days since 1970-01-01 UTC, so every engine compares
// and groups it the same way.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('content_stats_daily', (t) => {
    t.integer('day').notNullable();
    t.string('content_type', 8).notNullable();
    t.integer('content_id').unsigned().notNullable();
    t.integer('plays').unsigned().notNullable().defaultTo(0);
    t.integer('completions').unsigned().notNullable().defaultTo(0);
    t.integer('downloads').unsigned().notNullable().defaultTo(0);
    t.integer('saves').unsigned().notNullable().defaultTo(0);
    t.integer('sales').unsigned().notNullable().defaultTo(0);
    // In the currency's smallest unit (cents), of the sales above.
    t.bigInteger('revenue_cents').notNullable().defaultTo(0);
    t.primary(['day', 'content_type', 'content_id']);
    // One item's (or one model's items') days.
    t.index(['content_type', 'content_id', 'day'], 'content_stats_by_item');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('content_stats_daily');
}
