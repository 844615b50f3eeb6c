import type { Knex } from 'knex';

// `ops backup`'s runs, one row each, written after the set (so a set never holds its own row): the
// console's dashboard and `ops dashboard` tell from them how old the last good backup is.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('backup_runs', (t) => {
    t.increments('id').primary();
    t.string('status', 10).notNullable(); // ok | failed
    t.string('set_id', 40).nullable();
    t.string('host', 100).notNullable();
    t.bigInteger('started_at').notNullable();
    t.bigInteger('finished_at').notNullable();
    t.integer('db_rows').nullable();
    t.integer('files').nullable();
    t.bigInteger('bytes').nullable();
    t.bigInteger('copied_bytes').nullable();
    t.string('error', 500).nullable();
    t.index(['status', 'finished_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('backup_runs');
}
