import type { Knex } from 'knex';

// Operator switches, one row while a switch is on: `pause:<queue>` (the queue screen's pause: its
// workers claim nothing new) and `maintenance`. Who set it and when, for the console and the CLI.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('switches', (t) => {
    t.string('name', 40).primary();
    t.string('set_by', 80).notNullable();
    t.bigInteger('set_at').notNullable();
    t.string('note', 300).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('switches');
}
