import type { Knex } from 'knex';

// An operator's `member disable`: unlike a chargeback's revoked_at (which ages out of the media
// service's revocation list once every token and link it could hold has expired), a disabled
// member can neither sign in nor hold a session, and stays on the revocation list until enabled.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('members', (t) => {
    t.bigInteger('disabled_at').nullable();
    t.string('disabled_reason', 200).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('members', (t) => {
    t.dropColumn('disabled_reason');
    t.dropColumn('disabled_at');
  });
}
