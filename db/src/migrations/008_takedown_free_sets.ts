import type { Knex } from 'knex';

// Free photo sets can be taken down too: their content type, `freephotoset`, is longer than the
// 8 characters 004_reports allowed. Widening a varchar is an in-place change on MySQL/MariaDB.
const TABLES = ['takedowns', 'takedown_log'] as const;

async function contentTypeLength(knex: Knex, length: number): Promise<void> {
  for (const table of TABLES) {
    await knex.schema.alterTable(table, (t) => {
      t.string('content_type', length).notNullable().alter();
    });
  }
}

export async function up(knex: Knex): Promise<void> {
  await contentTypeLength(knex, 16);
}

export async function down(knex: Knex): Promise<void> {
  await knex('takedowns').where({ content_type: 'freephotoset' }).delete();
  await knex('takedown_log').where({ content_type: 'freephotoset' }).delete();
  await contentTypeLength(knex, 8);
}
