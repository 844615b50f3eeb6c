import type { Knex } from 'knex';

// Tags of photo sets, videos and VODs (content/tags.ts): folded words ("beach", "black and white")
// from the ingest folder's meta.json or the console's edit screen. Named by type and id, like
// saved_items. The second index serves the search filter "items of this type with this tag".
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('content_tags', (t) => {
    t.string('content_type', 8).notNullable();
    t.integer('content_id').unsigned().notNullable();
    t.string('tag', 32).notNullable();
    t.primary(['content_type', 'content_id', 'tag']);
    t.index(['content_type', 'tag', 'content_id'], 'content_tags_by_tag');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('content_tags');
}
