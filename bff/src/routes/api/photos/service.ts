import type { PhotoItem, PhotoSetDetail } from '@media-site/contracts/api';
import type { CachedBody } from '../../../cache/catalog-cache';
import { NotFoundError } from '../../../errors';
import type { ApiDeps } from '../deps';
import type { ListingOrder } from '../shared/content-page';
import { photoSetThumbnail } from '../shared/media-urls';
import { photoSetByPath, photoSetPage, type PhotoSetRow } from './repository';

export const PHOTO_PAGE_SIZE = 10;

export function toPhotoItem(row: PhotoSetRow): PhotoItem {
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

/**
 * A set's page: its list item (title, model, date, cover) plus `count` and the file names in
 * order, so the set page and the photo viewer need one request. Cached per generation like the
 * listings; a taken-down set is a 404 as soon as the takedown moves the generation.
 */
export function photoSetDetail({ knex, cache }: ApiDeps, folder: string): Promise<CachedBody> {
  return cache.get(`photoset:${folder}`, async () => {
    const row = await photoSetByPath(knex, folder);
    if (!row) throw new NotFoundError(`no photo set in folder ${folder}`);
    const detail: PhotoSetDetail = { ...toPhotoItem(row), count: row.files.length, files: row.files };
    return detail;
  });
}
