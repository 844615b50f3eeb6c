import type { Knex } from 'knex';

// A payment is bound to the browser that started it, so a payment token learnt elsewhere buys nothing. Step 1 records who is paying
// (a new username, or the member and the VOD) under the hash of a nonce that only that browser
// holds in an HttpOnly cookie; step 3's handle names that record and the one payment token it may
// be spent on. A payment token is claimed once (unique): a token learnt elsewhere cannot be
// claimed again by another browser, and step 4 refuses any other pairing.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('payment_starts', (t) => {
    t.string('nonce_hash', 64).primary();
    t.string('username', 32).nullable();
    t.integer('member_id').unsigned().nullable();
    t.integer('vod_id').unsigned().nullable();
    t.bigInteger('expires_at').notNullable();
    t.index(['expires_at']);
  });
  await knex.schema.alterTable('payment_handles', (t) => {
    t.string('start_hash', 64).nullable();
    t.string('bound_token', 64).nullable().unique();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('payment_handles', (t) => {
    t.dropUnique(['bound_token']);
    t.dropColumn('bound_token');
    t.dropColumn('start_hash');
  });
  await knex.schema.dropTableIfExists('payment_starts');
}
