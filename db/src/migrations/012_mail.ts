import type { Knex } from 'knex';
import { isSqlite } from '../knex';

// Mail goes through an outbox. A row is written in the same transaction as what caused
// it (a payment settled, a webhook applied, a reset asked for) under a unique key per event, so a
// replay adds nothing; a worker sends it with retries and marks it sent. Password resets and
// e-mail changes keep only the SHA-256 of their link's token.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mail_outbox', (t) => {
    t.increments('id').primary();
    // One mail per event: 'welcome:attempt:12', 'webhook:345', 'reset:<token hash>'.
    t.string('mail_key', 120).notNullable().unique();
    t.string('to_address', 254).notNullable();
    t.string('template', 40).notNullable();
    t.string('subject', 200).notNullable();
    t.text('text_body').notNullable();
    t.text('html_body').notNullable();
    t.string('status', 8).notNullable(); // pending | sent | failed
    t.integer('attempts').notNullable().defaultTo(0);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('next_attempt_at').notNullable();
    // A worker's lease on the row while it sends: another worker (another bff) skips it until then.
    t.bigInteger('claimed_until').nullable();
    t.bigInteger('sent_at').nullable();
    t.string('last_error', 300).nullable();
    t.index(['status', 'next_attempt_at']);
  });
  await knex.schema.createTable('password_resets', (t) => {
    t.string('token_hash', 64).primary();
    t.integer('member_id').unsigned().notNullable().references('id').inTable('members').onDelete('CASCADE');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('used_at').nullable();
    t.index(['member_id']);
  });
  await knex.schema.createTable('email_changes', (t) => {
    t.string('token_hash', 64).primary();
    t.integer('member_id').unsigned().notNullable().references('id').inTable('members').onDelete('CASCADE');
    t.string('new_email', 254).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('used_at').nullable();
    t.index(['member_id']);
  });
  // "Forgot password?" by e-mail address, in any letter case: MySQL/MariaDB compare through the
  // column's _ci collation, SQLite through a NOCASE index.
  if (isSqlite(knex)) await knex.raw('CREATE INDEX members_email_nocase ON members (email COLLATE NOCASE)');
  else await knex.schema.alterTable('members', (t) => t.index(['email'], 'members_email_index'));
}

export async function down(knex: Knex): Promise<void> {
  if (isSqlite(knex)) await knex.raw('DROP INDEX IF EXISTS members_email_nocase');
  else await knex.schema.alterTable('members', (t) => t.dropIndex(['email'], 'members_email_index'));
  for (const table of ['email_changes', 'password_resets', 'mail_outbox']) await knex.schema.dropTableIfExists(table);
}
