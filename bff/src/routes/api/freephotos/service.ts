import type { FreeSetItem } from '@media-site/contracts/api';
import type { CachedBody } from '../../../cache/catalog-cache';
import type { ApiDeps } from '../deps';
import { countOf } from '../shared/facts';
import { freeSetPage, type FreeSetRow } from './repository';

/** The same page size as the photo listings. */
export const FREE_SET_PAGE_SIZE = 10;
/** A card-sized rendering of the first free photo (the media service renders free photos at these widths too). */
export const FREE_SET_THUMBNAIL_WIDTH = 640;

/** The first file's public URL: free photos are served to anyone under /members/freephotos/{path}/{file}. */
export function freeSetThumbnail(path: string, file: string | null): string | null {
  if (file === null) return null;
  return `/members/freephotos/${encodeURIComponent(path)}/${encodeURIComponent(file)}?w=${FREE_SET_THUMBNAIL_WIDTH}`;
}

export function toFreeSetItem(row: FreeSetRow): FreeSetItem {
  return {
    path: row.path,
    updatename: row.updatename,
    thumbnail: freeSetThumbnail(row.path, row.first_file),
    photocount: countOf(row.photocount),
  };
}

/** Cached per catalog generation like the other listings, so a takedown leaves the list as soon as it moves the generation. */
export function freeSetListing({ knex, cache }: ApiDeps, page: number): Promise<CachedBody> {
  return cache.get(`freephotos:${page}`, async () => (await freeSetPage(knex, page, FREE_SET_PAGE_SIZE)).map(toFreeSetItem));
}
