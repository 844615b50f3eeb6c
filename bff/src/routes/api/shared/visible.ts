import type { Knex } from 'knex';
import type { ContentTableName, ContentType } from '@media-site/db/reports';

const TYPE_OF: Record<ContentTableName, ContentType> = {
  photosets: 'photoset',
  freephotosets: 'freephotoset',
  videos: 'video',
  vods: 'vod',
};

/**
 * Leaves out taken-down items (docs/compliance.md). `id NOT IN (a small subquery)` is answered from
 * any secondary index (they all carry the id), so listing and search scans stay index-only; the
 * takedown that changes the set also bumps the catalog generation, so nothing cached outlives it.
 */
export function visibleOnly<Q extends Knex.QueryBuilder>(query: Q, knex: Knex, table: ContentTableName, column = 'id'): Q {
  return query.whereNotIn(column, knex('takedowns').where('content_type', TYPE_OF[table]).select('content_id')) as Q;
}
