import type { Knex } from 'knex';

// The operator console's own accounts, separate from members'. An admin signs in with a
// passkey (admin_passkeys) or, as a fallback, a TOTP code; sessions are short (admin_sessions);
// every change is appended to admin_audit, which no code path updates or deletes.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('admins', (t) => {
    t.increments('id').primary();
    t.string('name', 32).notNullable().unique();
    t.string('role', 10).notNullable(); // owner | moderator | support
    // Base32 TOTP secret: never logged, never returned by the API (only printed once by `admin add`).
    t.string('totp_secret', 64).notNullable();
    t.integer('failed_signins').notNullable().defaultTo(0);
    t.bigInteger('locked_until').nullable();
    // The last TOTP time step accepted: a code is good once (no replay within its 30 s window).
    t.bigInteger('totp_last_step').nullable();
    t.bigInteger('disabled_at').nullable();
    t.bigInteger('created_at').notNullable();
  });
  await knex.schema.createTable('admin_passkeys', (t) => {
    t.increments('id').primary();
    t.integer('admin_id').unsigned().notNullable().references('admins.id');
    t.string('credential_id', 255).notNullable().unique(); // base64url
    t.text('public_key').notNullable(); // COSE key, base64url
    t.bigInteger('counter').notNullable().defaultTo(0);
    t.string('transports', 100).notNullable().defaultTo('');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('last_used_at').nullable();
  });
  // WebAuthn challenges the bff issued, each good once and for a few minutes.
  await knex.schema.createTable('admin_challenges', (t) => {
    t.string('challenge', 64).primary();
    t.string('purpose', 12).notNullable(); // signin | register
    t.integer('admin_id').unsigned().nullable();
    t.bigInteger('expires_at').notNullable().index();
  });
  await knex.schema.createTable('admin_sessions', (t) => {
    t.string('id_hash', 64).primary();
    t.integer('admin_id').unsigned().notNullable().references('admins.id');
    t.bigInteger('created_at').notNullable();
    t.bigInteger('last_seen_at').notNullable();
    t.index(['admin_id']);
  });
  await knex.schema.createTable('admin_audit', (t) => {
    t.bigIncrements('id').primary();
    t.bigInteger('at').notNullable();
    t.string('actor', 80).notNullable(); // an admin's name, or cli:<user>
    t.string('action', 40).notNullable();
    t.string('target', 200).notNullable().defaultTo('');
    t.text('before_json').nullable();
    t.text('after_json').nullable();
    t.string('address', 64).notNullable().defaultTo('');
    t.index(['at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['admin_audit', 'admin_sessions', 'admin_challenges', 'admin_passkeys', 'admins']) await knex.schema.dropTable(table);
}
