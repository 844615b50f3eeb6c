import type { Knex } from 'knex';

// Admins' TOTP secrets are stored sealed (AES-256-GCM under ADMIN_SECRET_KEYS, db/src/admin/secret-box.ts):
// `v1.<kid>.<iv>.<tag>.<ciphertext>` needs more room than the 32-character base32 secret did. A
// plain row written before this still signs in and is sealed at its next good sign-in, or at once
// by `admin rekey` (the migration cannot: the key is configuration, not in the database).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('admins', (t) => {
    t.string('totp_secret', 255).notNullable().alter();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('admins', (t) => {
    t.string('totp_secret', 64).notNullable().alter();
  });
}
