import type { Knex } from 'knex';

const ITEM_TABLES = ['photosets', 'freephotosets', 'videos', 'vods'] as const;

// Two console features:
// - `ingest_runs`: an ingest the console asked for (a folder under INGEST_ROOT), picked up by the
//   operator's ingest worker (`catalog ingest-worker`), which writes its progress and report here; the
//   console polls the row. `active_folder` is the folder while the run is queued or running and NULL
//   after: its unique index makes "one ingest at a time per folder" a database rule (NULLs never clash).
// - `teased` on every item table: an operator's "Coming soon" mark; visitors see a teaser card for a
//   teased item while its `publish_at` is in the future, and nothing of its media.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ingest_runs', (t) => {
    t.increments('id').primary();
    t.string('folder', 200).notNullable();
    t.string('active_folder', 200).nullable().unique();
    t.string('status', 10).notNullable(); // queued | running | done | failed
    t.string('requested_by', 80).notNullable();
    t.integer('total').notNullable().defaultTo(0);
    t.integer('done').notNullable().defaultTo(0);
    t.string('last_line', 300).notNullable().defaultTo('');
    t.text('report_json').nullable();
    t.string('error', 300).nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('started_at').nullable();
    t.bigInteger('heartbeat_at').nullable();
    t.bigInteger('finished_at').nullable();
    t.index(['status', 'id']);
  });
  for (const table of ITEM_TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.boolean('teased').notNullable().defaultTo(false);
    });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ITEM_TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn('teased');
    });
  }
  await knex.schema.dropTable('ingest_runs');
}
