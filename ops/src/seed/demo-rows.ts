import type { Knex } from 'knex';
import { bumpGeneration } from '@media-site/db';
import { buildDemoCatalog, type DemoCatalog } from './catalog';
import { demoStats } from './demo-stats';
import { DEMO_MARKER, insertInChunks, wipeCatalog } from './tables';

export interface SeedSummary {
  models: number;
  photosets: number;
  photosetFiles: number;
  freephotosets: number;
  videos: number;
  vods: number;
  tags: number;
  generation: number;
}

// Explicit ids here too: after --reset, auto-increment would carry on from the deleted rows.
function fileRows(parent: string, sets: ReadonlyArray<{ id: number; files: string[] }>): object[] {
  let id = 0;
  return sets.flatMap((set) => set.files.map((filename, i) => ({ id: ++id, [`${parent}_id`]: set.id, position: i + 1, filename })));
}

/**
 * Inserts the demo catalog (explicit ids, so two runs give identical rows) and 30 days of generated
 * stats before today in one transaction, and bumps the generation. With reset the catalog tables are emptied first; without it the caller
 * must know they are empty.
 */
export async function seedDemoCatalog(knex: Knex, options: { reset?: boolean; now?: number } = {}): Promise<SeedSummary> {
  const catalog: DemoCatalog = buildDemoCatalog();
  const withoutFiles = <T extends { files: string[] }>(rows: T[]) => rows.map(({ files: _files, ...row }) => row);
  return knex.transaction(async (trx) => {
    if (options.reset) await wipeCatalog(trx);
    await insertInChunks(trx, 'models', catalog.models);
    await insertInChunks(trx, 'photosets', withoutFiles(catalog.photosets));
    await insertInChunks(trx, 'photoset_files', fileRows('photoset', catalog.photosets));
    await insertInChunks(trx, 'freephotosets', withoutFiles(catalog.freephotosets));
    await insertInChunks(trx, 'freephotoset_files', fileRows('freephotoset', catalog.freephotosets));
    await insertInChunks(trx, 'videos', catalog.videos);
    await insertInChunks(trx, 'vods', catalog.vods);
    await insertInChunks(trx, 'content_tags', catalog.tags);
    // The console's Stats: the last 30 days before today, generated (demo-stats.ts).
    await insertInChunks(trx, 'content_stats_daily', demoStats(catalog, options.now ?? Date.now()));
    await trx('catalog_meta').insert({ name: DEMO_MARKER, value: 1 });
    const generation = await bumpGeneration(trx);
    return {
      models: catalog.models.length,
      photosets: catalog.photosets.length,
      photosetFiles: catalog.photosets.reduce((n, set) => n + set.files.length, 0),
      freephotosets: catalog.freephotosets.length,
      videos: catalog.videos.length,
      vods: catalog.vods.length,
      tags: catalog.tags.length,
      generation,
    };
  });
}
