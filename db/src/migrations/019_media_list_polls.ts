import type { Knex } from 'knex';

// The console dashboard's "media services' lists": each media service polls the bff for its
// revocation and takedown lists (ETag/304) and names itself on the request (`X-Media-Instance`,
// host:port) with the age past which it reports itself unready (`X-Media-List-Max-Age`). The bff
// that answers writes when it last did so, here, so any bff's console can tell a media service that
// stopped fetching (a takedown it would not know about) from one that is current.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('media_list_polls', (t) => {
    t.string('instance', 120).notNullable();
    t.string('list', 20).notNullable(); // revocations | takedowns
    t.bigInteger('fetched_at').notNullable();
    t.integer('max_age_s').nullable();
    t.primary(['instance', 'list']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('media_list_polls');
}
