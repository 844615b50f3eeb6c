import type { Knex } from 'knex';

// The encode queue (db/src/encode/queue.ts) and members' playback positions. Times are unix
// milliseconds in bigint columns, as in 003_members.
export async function up(knex: Knex): Promise<void> {
  // One row per video or VOD: make its browser renditions, poster, sprite, thumbnails track and
  // trailer. A worker claims a row with a compare-and-set UPDATE and holds it by renewing a lease;
  // `slot` (0..limit-1, unique while set) is how the concurrency limit holds across workers on
  // MySQL, MariaDB and SQLite alike.
  await knex.schema.createTable('media_jobs', (t) => {
    t.increments('id').primary();
    t.string('content_type', 8).notNullable(); // video | vod
    t.string('path', 150).notNullable();
    // size-mtime of the original the outputs must be made from; a changed original re-queues.
    t.string('source_sig', 64).notNullable();
    t.string('status', 10).notNullable(); // queued | running | done | failed
    t.integer('attempts').notNullable().defaultTo(0);
    t.bigInteger('run_after').notNullable().defaultTo(0);
    t.integer('slot').nullable().unique();
    t.string('claim', 100).nullable(); // host:pid:random of the worker holding it
    t.bigInteger('lease_until').nullable();
    t.integer('progress').notNullable().defaultTo(0); // per mille
    t.string('error', 500).nullable();
    // What the last successful run made (JSON, db/src/encode/manifest.ts); kept while a re-encode runs.
    t.text('manifest').nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.bigInteger('started_at').nullable();
    t.bigInteger('finished_at').nullable();
    t.unique(['content_type', 'path']);
    t.index(['status', 'run_after', 'id']);
  });
  // "Continue watching": where a signed-in member stopped, per video or VOD.
  await knex.schema.createTable('playback_positions', (t) => {
    t.integer('member_id').unsigned().notNullable().references('id').inTable('members').onDelete('CASCADE');
    t.string('content_type', 8).notNullable();
    t.integer('content_id').unsigned().notNullable();
    t.integer('position_ms').unsigned().notNullable();
    t.integer('duration_ms').unsigned().nullable();
    t.bigInteger('updated_at').notNullable();
    t.primary(['member_id', 'content_type', 'content_id']);
    t.index(['member_id', 'updated_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('playback_positions');
  await knex.schema.dropTableIfExists('media_jobs');
}
