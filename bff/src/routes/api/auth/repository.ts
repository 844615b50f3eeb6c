import type { Knex } from 'knex';
import { CONTENT_TABLE } from '@media-site/db/content';

/** The item kinds a download link can name (photos, video, vod): the families with originals. */
export type LinkedType = 'photoset' | 'video' | 'vod';
export type LinkedItemState = 'released' | 'scheduled' | 'taken down';

/**
 * Whether the item in `folder` is released, scheduled for later or taken down, and its id; undefined
 * when there is none. One statement whatever the answer (the item's unique path, then the takedowns' unique
 * type and path), so the three hidden answers cost the same. Exact on every backend: MariaDB's
 * collation would also match another case.
 */
export async function linkedItemState(
  knex: Knex,
  type: LinkedType,
  folder: string,
  now: number,
): Promise<{ state: LinkedItemState; id: number } | undefined> {
  const row: { id: number | string; path: string; publishAt: number | string | null; takedown: number | string | null } | undefined =
    await knex({
      t: CONTENT_TABLE[type],
    })
      .leftJoin({ d: 'takedowns' }, function () {
        this.on('d.path', '=', 't.path').andOn('d.content_type', '=', knex.raw('?', [type]));
      })
      .where('t.path', folder)
      .first('t.id', 't.path', 't.publish_at as publishAt', 'd.id as takedown');
  if (!row || row.path !== folder) return undefined;
  const id = Number(row.id);
  if (row.takedown !== null) return { state: 'taken down', id };
  return { state: row.publishAt !== null && Number(row.publishAt) > now ? 'scheduled' : 'released', id };
}
