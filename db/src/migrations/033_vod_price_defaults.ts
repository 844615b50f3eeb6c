import type { Knex } from 'knex';

// The default VOD price (payments/vod-price.ts): what a VOD ingested without a price in its
// meta.json costs, set by the owner on the console's Prices screen. One row per change, the newest
// in force; a row with a NULL price clears it (every VOD then needs its own price again). A VOD's
// own price (meta.json, the console's edit) is stored on the VOD and never follows this.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('vod_price_defaults', (t) => {
    t.increments('id');
    t.string('price', 12).nullable();
    t.string('set_by', 80).notNullable();
    t.bigInteger('set_at').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('vod_price_defaults');
}
