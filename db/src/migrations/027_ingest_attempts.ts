import type { Knex } from 'knex';

// A console ingest's tries: a run whose worker died (its heartbeat stopped) goes back to the queue
// with the try counted, and fails only after INGEST_MAX_ATTEMPTS (db/src/admin/ingests.ts).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ingest_runs', (t) => {
    t.integer('attempts').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('ingest_runs', (t) => {
    t.dropColumn('attempts');
  });
}
