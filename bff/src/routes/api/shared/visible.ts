import type { Knex } from 'knex';
import { unreleasedIds, type ContentTableName, type ContentType } from '@media-site/db/content';

const TYPE_OF: Record<ContentTableName, ContentType> = {
  photosets: 'photoset',
  freephotosets: 'freephotoset',
  videos: 'video',
  vods: 'vod',
};

/**
 * Leaves out taken-down items (docs/compliance.md) and items scheduled for later (`publish_at` in
 * the future). `id NOT IN (a small subquery)` is answered from any secondary index (they all carry
 * the id), so listing and search scans stay index-only; the scheduled subquery is a range of the
 * publish_at index. The takedown or schedule that changes either set bumps the catalog generation,
 * and so does each bff's release timer when a release falls due, so nothing cached outlives it.
 */
export function visibleOnly<Q extends Knex.QueryBuilder>(
  query: Q,
  knex: Knex,
  table: ContentTableName,
  column = 'id',
  now = Date.now(),
): Q {
  return query
    .whereNotIn(column, knex('takedowns').where('content_type', TYPE_OF[table]).select('content_id'))
    .whereNotIn(column, unreleasedIds(knex, table, now)) as Q;
}
