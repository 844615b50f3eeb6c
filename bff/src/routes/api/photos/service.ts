import type { PhotoItem, PhotoSetDetail } from '@media-site/contracts/api';
import type { CachedBody } from '../../../cache/catalog-cache';
import type { ApiDeps } from '../deps';
import { contentDetail, contentItem, contentListing, type ContentListing } from '../shared/content-item';
import type { ListingOrder } from '../shared/content-page';
import { countOf } from '../shared/facts';
import { photoSetThumbnail } from '../shared/media-urls';
import { PHOTO_LISTING_QUERY, photoSetByPath, type PhotoSetRow } from './repository';

export const PHOTO_PAGE_SIZE = 10;

export function toPhotoItem(row: PhotoSetRow & { photocount: number | string }): PhotoItem {
  return contentItem('photos_id', row, photoSetThumbnail(row.path), { photocount: countOf(row.photocount) });
}

const PHOTO_LISTING: ContentListing<PhotoSetRow & { photocount: number | string }> = {
  query: PHOTO_LISTING_QUERY,
  pageSize: PHOTO_PAGE_SIZE,
  toItem: toPhotoItem,
};

export function photoListing(deps: ApiDeps, order: ListingOrder, page: number): Promise<CachedBody> {
  return contentListing(deps, `photos:${order}:${page}`, PHOTO_LISTING, order, page);
}

/**
 * A set's page: its list item (title, model, date, cover, photo count) plus `count` and the file
 * names in order, so the set page and the photo viewer need one request. Cached per generation like
 * the listings; a taken-down set is a 404 as soon as the takedown moves the generation.
 */
export function photoSetDetail(deps: ApiDeps, folder: string): Promise<CachedBody> {
  return contentDetail(
    deps,
    `photoset:${folder}`,
    'photoset',
    (knex) => photoSetByPath(knex, folder),
    `no photo set in folder ${folder}`,
    (row): Omit<PhotoSetDetail, 'tags'> => ({
      ...toPhotoItem({ ...row, photocount: row.files.length }),
      count: row.files.length,
      files: row.files,
    }),
  );
}
