import type { Knex } from 'knex';

// A member's "valid from" time (unix ms). Sign out everywhere, a password change, a
// disable and a chargeback set it to now; the bff lists it on the media service's revocation list,
// which then refuses every token, download link and edge URL minted before it. Null: never bumped.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('members', (t) => {
    t.bigInteger('access_valid_from').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('members', (t) => {
    t.dropColumn('access_valid_from');
  });
}
