import type { UpdateItem } from '@media-site/contracts/api';
import type { CachedBody } from '../../../cache/catalog-cache';
import type { ApiDeps } from '../deps';
import { countOf, durationOf, previewOf } from '../shared/facts';
import { photoSetThumbnail, videoThumbnail, vodThumbnail } from '../shared/media-urls';
import { rowsByIds, TABLE_OF, updateKeys, type UpdateRow, type UpdateType } from './repository';

export const UPDATES_PAGE_SIZE = 30;

const THUMBNAIL: Record<UpdateType, (path: string) => string> = {
  photo: photoSetThumbnail,
  video: videoThumbnail,
  vod: vodThumbnail,
};

export function updatesFeed({ knex, cache, anchors }: ApiDeps, page: number): Promise<CachedBody> {
  return cache.get(`updates:${page}`, async () => {
    const keys = await updateKeys(knex, anchors, page, UPDATES_PAGE_SIZE);
    const types = Object.keys(TABLE_OF) as UpdateType[];
    const byType = new Map<UpdateType, Map<number, UpdateRow>>();
    await Promise.all(
      types.map(async (type) => {
        const ids = keys.filter((k) => k.type === type).map((k) => k.id);
        const rows = await rowsByIds(knex, TABLE_OF[type], ids);
        byType.set(type, new Map(rows.map((r) => [Number(r.id), r])));
      }),
    );
    return keys.flatMap(({ type, id }) => {
      const row = byType.get(type)?.get(id);
      // A row deleted between the two reads is left out rather than sent half-filled.
      if (!row) return [];
      return [
        {
          type,
          id,
          path: row.path,
          thumbnail: THUMBNAIL[type](row.path),
          updatename: row.updatename,
          modelname: row.modelname,
          datetoupload: row.datetoupload,
          photocount: type === 'photo' ? countOf(row.photocount) : null,
          duration: type === 'photo' ? null : durationOf(row.duration),
          preview: type === 'photo' ? null : previewOf(type, row.path, row.encoded),
        } satisfies UpdateItem,
      ];
    });
  });
}
