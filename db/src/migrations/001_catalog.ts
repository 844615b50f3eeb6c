import type { Knex } from 'knex';

// Listing orders: alpha = (updatename, id); date = (datetoupload DESC, id DESC), served by a
// backward scan of (datetoupload, id). search_text is lower(updatename) + "\n" + lower(modelname),
// lower-cased in JS so that case-insensitive search behaves the same on MySQL, MariaDB and SQLite.
function contentColumns(t: Knex.CreateTableBuilder): void {
  t.increments('id').primary();
  t.string('path', 150).notNullable().unique();
  t.string('updatename', 200).notNullable();
  t.string('modelname', 100).notNullable();
  t.integer('model_id').unsigned().nullable().references('id').inTable('models').onDelete('SET NULL');
  t.date('datetoupload').notNullable();
  t.string('search_text', 310).notNullable();
  t.index(['updatename', 'id']);
  t.index(['datetoupload', 'id']);
  t.index(['model_id']);
}

function fileList(t: Knex.CreateTableBuilder, parent: string): void {
  t.increments('id').primary();
  t.integer(`${parent}_id`).unsigned().notNullable().references('id').inTable(`${parent}s`).onDelete('CASCADE');
  t.integer('position').notNullable();
  t.string('filename', 200).notNullable();
  t.unique([`${parent}_id`, 'position']);
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('models', (t) => {
    t.increments('id').primary();
    t.string('modelname', 100).notNullable().unique();
    // First letter A–Z after stripping diacritics ("Émilie" → E); '#' for anything else.
    t.string('initial', 1).notNullable();
    t.string('thumbnail', 255).nullable();
    t.index(['initial', 'modelname']);
  });
  await knex.schema.createTable('photosets', (t) => contentColumns(t));
  await knex.schema.createTable('photoset_files', (t) => fileList(t, 'photoset'));
  await knex.schema.createTable('freephotosets', (t) => {
    t.increments('id').primary();
    t.string('path', 150).notNullable().unique();
    t.string('updatename', 200).notNullable();
    t.date('datetoupload').notNullable();
  });
  await knex.schema.createTable('freephotoset_files', (t) => fileList(t, 'freephotoset'));
  await knex.schema.createTable('videos', (t) => {
    contentColumns(t);
    t.string('prename', 200).notNullable();
  });
  await knex.schema.createTable('vods', (t) => {
    contentColumns(t);
    t.string('prename', 200).notNullable();
    t.tinyint('format').notNullable().defaultTo(0);
    t.decimal('price', 8, 2).notNullable();
  });
  await knex.schema.createTable('catalog_meta', (t) => {
    t.string('name', 50).primary();
    t.bigInteger('value').notNullable();
  });
  await knex('catalog_meta').insert({ name: 'generation', value: 1 });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['catalog_meta', 'vods', 'videos', 'freephotoset_files', 'freephotosets', 'photoset_files', 'photosets', 'models']) {
    await knex.schema.dropTableIfExists(table);
  }
}
