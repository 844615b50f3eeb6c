import type { CachedBody } from '../../../cache/catalog-cache';
import type { ApiDeps } from '../deps';
import type { ListingOrder } from '../shared/content-page';
import { photoSetThumbnail } from '../shared/media-urls';
import { photoSetPage, type PhotoSetRow } from './repository';

export const PHOTO_PAGE_SIZE = 10;

export function toPhotoItem(row: PhotoSetRow) {
  return {
    photos_id: Number(row.id),
    path: row.path,
    updatename: row.updatename,
    modelname: row.modelname,
    datetoupload: row.datetoupload,
    thumbnail: photoSetThumbnail(row.path),
  };
}

export function photoListing({ knex, cache, anchors }: ApiDeps, order: ListingOrder, page: number): Promise<CachedBody> {
  return cache.get(`photos:${order}:${page}`, async () =>
    (await photoSetPage(knex, anchors, order, page, PHOTO_PAGE_SIZE)).map(toPhotoItem),
  );
}
