import type { PhotoItem, PhotoSetDetail } from '@media-site/contracts/api';
import type { Knex } from 'knex';
import type { CachedBody } from '../../../cache/catalog-cache';
import type { ApiDeps } from '../deps';
import { contentDetail, contentItem, contentListing, type ContentListing } from '../shared/content-item';
import { CONTENT_COLUMNS, type ListingOrder } from '../shared/content-page';
import { photoCounts } from '../shared/facts';
import { photoSetThumbnail } from '../shared/media-urls';
import { photoSetByPath, type PhotoSetRow } from './repository';

export const PHOTO_PAGE_SIZE = 10;

export function toPhotoItem(row: PhotoSetRow, photocount: number): PhotoItem {
  return contentItem('photos_id', row, photoSetThumbnail(row.path), { photocount });
}

/** A page of sets with each set's photo count, read for the whole page at once. */
async function toPhotoItems(knex: Knex, rows: PhotoSetRow[]): Promise<PhotoItem[]> {
  const counts = await photoCounts(
    knex,
    'photosets',
    rows.map((r) => Number(r.id)),
  );
  return rows.map((row) => toPhotoItem(row, counts.get(Number(row.id)) ?? 0));
}

const PHOTO_LISTING: ContentListing<PhotoSetRow> = {
  table: 'photosets',
  columns: CONTENT_COLUMNS,
  pageSize: PHOTO_PAGE_SIZE,
  toItems: toPhotoItems,
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
    (knex) => photoSetByPath(knex, folder),
    `no photo set in folder ${folder}`,
    (row): PhotoSetDetail => ({ ...toPhotoItem(row, row.files.length), count: row.files.length, files: row.files }),
  );
}
