import type { Knex } from 'knex';

// Content reports and takedowns (docs/compliance.md). Times are unix milliseconds in bigint
// columns, as in 003_members. Rows are never deleted: they are the record card networks and
// regulators may ask for.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('content_reports', (t) => {
    t.increments('id').primary();
    t.string('reference', 16).notNullable().unique();
    t.string('content_url', 500).notNullable();
    t.string('reason', 24).notNullable();
    t.string('details', 2000).notNullable();
    t.string('reporter_email', 254).nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('acknowledged_at').nullable();
    t.string('acknowledged_by', 64).nullable();
    t.bigInteger('resolved_at').nullable();
    t.string('resolved_by', 64).nullable();
    t.string('outcome', 16).nullable();
    t.string('resolution_note', 1000).nullable();
    t.bigInteger('appealed_at').nullable();
    t.string('appeal_text', 2000).nullable();
    t.string('appeal_email', 254).nullable();
    t.bigInteger('appeal_decided_at').nullable();
    t.string('appeal_decided_by', 64).nullable();
    t.string('appeal_decision', 16).nullable();
    t.string('appeal_note', 1000).nullable();
    t.index(['resolved_at', 'created_at']);
    t.index(['created_at']);
  });
  // What is down now: one row per taken-down item, read by the bff once per catalog generation.
  await knex.schema.createTable('takedowns', (t) => {
    t.increments('id').primary();
    t.string('content_type', 8).notNullable(); // photoset | video | vod
    t.string('path', 150).notNullable();
    t.integer('content_id').unsigned().notNullable();
    t.bigInteger('taken_down_at').notNullable();
    t.unique(['content_type', 'path']);
  });
  await knex.schema.createTable('takedown_log', (t) => {
    t.increments('id').primary();
    t.string('action', 8).notNullable(); // takedown | restore
    t.string('content_type', 8).notNullable();
    t.string('path', 150).notNullable();
    t.string('actor', 64).notNullable();
    t.string('reason', 1000).notNullable();
    t.string('report_reference', 16).nullable();
    t.bigInteger('at').notNullable();
    t.index(['content_type', 'path']);
    t.index(['at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['takedown_log', 'takedowns', 'content_reports']) await knex.schema.dropTableIfExists(table);
}
