import type { Knex } from 'knex';

// Console sign-in hardening: a console session may make a sensitive change (a passkey, an admin,
// a role, a secret) only for a few minutes after the admin confirmed it is them with a fresh TOTP
// code or passkey (`fresh_until`); wrong codes on that confirmation end the session
// (`reauth_failures`). Passkeys get a name the admin chose, so a list of them can be read and
// one revoked. An admin may have an e-mail address: a new passkey is announced there.
// `admins.failed_signins` and `locked_until` (migration 016) are no longer read or written: failed
// sign-ins are budgeted per address and per browser in the rate limiter, never per account.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('admin_sessions', (t) => {
    t.bigInteger('fresh_until').nullable();
    t.integer('reauth_failures').notNullable().defaultTo(0);
  });
  await knex.schema.alterTable('admin_passkeys', (t) => {
    t.string('name', 64).notNullable().defaultTo('');
  });
  await knex.schema.alterTable('admins', (t) => {
    t.string('email', 254).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('admins', (t) => t.dropColumn('email'));
  await knex.schema.alterTable('admin_passkeys', (t) => t.dropColumn('name'));
  await knex.schema.alterTable('admin_sessions', (t) => {
    t.dropColumn('reauth_failures');
    t.dropColumn('fresh_until');
  });
}
