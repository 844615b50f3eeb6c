import type { Knex } from 'knex';
import { formatJobCounts, jobCounts, type JobStatus } from '@media-site/db/encode';
import { readGeneration } from '@media-site/db';

export interface TypeStats {
  items: number;
  /** Images listed across the sets (photos and free photos). */
  files?: number;
  newest: string | null;
}

export interface CatalogStats {
  photos: TypeStats;
  freephotos: TypeStats;
  videos: TypeStats;
  vods: TypeStats;
  models: { total: number; withoutContent: number };
  newestUpload: string | null;
  generation: number;
  /** Encode jobs per state (`npm run ops -- jobs` lists them). */
  encode: Record<JobStatus, number>;
}

async function typeStats(knex: Knex, table: string, filesTable?: string): Promise<TypeStats> {
  const row = (await knex(table).count({ n: '*' }).max({ newest: 'datetoupload' }).first()) as
    { n: number | string; newest: string | null } | undefined;
  const stats: TypeStats = { items: Number(row?.n ?? 0), newest: row?.newest ?? null };
  if (filesTable) {
    const files = (await knex(filesTable).count({ n: '*' }).first()) as { n: number | string } | undefined;
    stats.files = Number(files?.n ?? 0);
  }
  return stats;
}

export async function catalogStats(knex: Knex): Promise<CatalogStats> {
  const [photos, freephotos, videos, vods] = [
    await typeStats(knex, 'photosets', 'photoset_files'),
    await typeStats(knex, 'freephotosets', 'freephotoset_files'),
    await typeStats(knex, 'videos'),
    await typeStats(knex, 'vods'),
  ];
  const total = (await knex('models').count({ n: '*' }).first()) as { n: number | string } | undefined;
  const linked = knex.union([knex('photosets').select('model_id'), knex('videos').select('model_id'), knex('vods').select('model_id')]);
  const orphans = (await knex('models')
    .whereNotIn('id', knex.select('model_id').from(linked.as('u')).whereNotNull('model_id'))
    .count({ n: '*' })
    .first()) as { n: number | string } | undefined;
  const dates = [photos.newest, freephotos.newest, videos.newest, vods.newest].filter((d): d is string => d !== null).sort();
  return {
    photos,
    freephotos,
    videos,
    vods,
    models: { total: Number(total?.n ?? 0), withoutContent: Number(orphans?.n ?? 0) },
    newestUpload: dates.at(-1) ?? null,
    generation: await readGeneration(knex),
    encode: await jobCounts(knex),
  };
}

export function formatStats(s: CatalogStats): string {
  const line = (label: string, t: TypeStats, unit?: string) =>
    `${label.padEnd(12)} ${String(t.items).padStart(7)}${t.files !== undefined ? `  (${t.files} ${unit})` : ''}${t.newest ? `  newest ${t.newest}` : ''}`;
  return [
    line('photo sets', s.photos, 'images'),
    line('free sets', s.freephotos, 'images'),
    line('videos', s.videos),
    line('vods', s.vods),
    `${'models'.padEnd(12)} ${String(s.models.total).padStart(7)}  (${s.models.withoutContent} without content)`,
    `newest upload ${s.newestUpload ?? 'none'}`,
    `catalog generation ${s.generation}`,
    `encode jobs  ${formatJobCounts(s.encode)}`,
  ].join('\n');
}
