import type { Knex } from 'knex';
import { parseManifest } from '../encode/manifest';

// Listing cards show a video's or VOD's running time. Whole seconds, null while unknown
// (ingest without ffprobe, a row added by hand); ingest writes what ffprobe reads of the original,
// the encoder what its renditions last (db/src/encode/duration.ts). Items already encoded take it
// from their manifest here.
const TABLES = { video: 'videos', vod: 'vods' } as const;

export async function up(knex: Knex): Promise<void> {
  for (const table of Object.values(TABLES)) {
    await knex.schema.alterTable(table, (t) => {
      t.integer('duration').unsigned().nullable();
    });
  }
  const jobs: { content_type: string; path: string; manifest: string | null }[] = await knex('media_jobs')
    .whereNotNull('manifest')
    .select('content_type', 'path', 'manifest');
  for (const job of jobs) {
    const table = TABLES[job.content_type as keyof typeof TABLES];
    const seconds = parseManifest(job.manifest)?.duration;
    if (table && seconds)
      await knex(table)
        .where({ path: job.path })
        .update({ duration: Math.round(seconds) });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of Object.values(TABLES)) {
    await knex.schema.alterTable(table, (t) => {
      t.dropColumn('duration');
    });
  }
}
