import type { Knex } from 'knex';

// A takedown or restore records the CDN purge it needs in the same transaction, and a
// worker (in each bff that runs one) delivers it until the CDN accepts it, across restarts.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('purge_outbox', (t) => {
    t.increments('id').primary();
    t.string('event', 10).notNullable(); // takedown | restore
    // The media folder prefixes (JSON array), as the takedown list names them: ["video/x/"].
    t.text('prefixes').notNullable();
    t.bigInteger('created_at').notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.bigInteger('next_attempt_at').notNullable();
    // A worker's lease while it delivers: another worker skips the row until then.
    t.bigInteger('claimed_until').nullable();
    t.bigInteger('done_at').nullable();
    t.string('last_error', 300).nullable();
    t.index(['done_at', 'next_attempt_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('purge_outbox');
}
