import type { Knex } from 'knex';

// "My list": what a signed-in member saved (a photo set, video, VOD or model), newest first. The
// item is named by type and id, like playback_positions; a takedown or a schedule hides it from the
// list at read time, so a restore brings it back where it was.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('saved_items', (t) => {
    t.integer('member_id').unsigned().notNullable().references('id').inTable('members').onDelete('CASCADE');
    t.string('content_type', 8).notNullable();
    t.integer('content_id').unsigned().notNullable();
    t.bigInteger('saved_at').notNullable();
    t.primary(['member_id', 'content_type', 'content_id']);
    t.index(['member_id', 'saved_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('saved_items');
}
