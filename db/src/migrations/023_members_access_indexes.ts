import type { Knex } from 'knex';

// The media service polls the bff's revocation list every few seconds (MEDIA_REVOCATION_INTERVAL_S,
// 5 s): members revoked or signed out everywhere since the horizon, and every disabled member. With
// these the two queries read only those members, not the whole table, on each poll.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('members', (t) => {
    t.index(['access_valid_from'], 'members_access_valid_from_index');
    t.index(['revoked_at'], 'members_revoked_at_index');
    t.index(['disabled_at'], 'members_disabled_at_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('members', (t) => {
    t.dropIndex(['access_valid_from'], 'members_access_valid_from_index');
    t.dropIndex(['revoked_at'], 'members_revoked_at_index');
    t.dropIndex(['disabled_at'], 'members_disabled_at_index');
  });
}
