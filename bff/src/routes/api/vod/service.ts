import type { VodDetail, VodItem } from '@media-site/contracts/api';
import { vodDownloadName } from '@media-site/contracts/download-name';
import type { CachedBody } from '../../../cache/catalog-cache';
import type { ApiDeps } from '../deps';
import { contentDetail, contentItem, contentListing, type ContentListing } from '../shared/content-item';
import { durationOf, previewOf } from '../shared/facts';
import { vodThumbnail } from '../shared/media-urls';
import { VOD_LISTING_QUERY, vodByPath, type VodRow } from './repository';

export const VOD_PAGE_SIZE = 20;

export function toVodItem(row: VodRow): VodItem {
  return contentItem('vod_id', row, vodThumbnail(row.path), {
    prename: row.prename,
    format: Number(row.format),
    // DECIMAL arrives as a string from mysql2 and a number from SQLite; the API sends a number.
    price: Number(row.price),
    duration: durationOf(row.duration),
    preview: previewOf('vod', row.path, row.encoded),
  });
}

const VOD_LISTING: ContentListing<VodRow> = { query: VOD_LISTING_QUERY, pageSize: VOD_PAGE_SIZE, toItem: toVodItem };

/** The VOD listing has one order: newest first. */
export function vodListing(deps: ApiDeps, page: number): Promise<CachedBody> {
  return contentListing(deps, `vod:${page}`, VOD_LISTING, 'date', page);
}

export function vodDetail(deps: ApiDeps, folder: string): Promise<CachedBody> {
  return contentDetail(
    deps,
    `vod-prename:${folder}`,
    'vod',
    (knex) => vodByPath(knex, folder),
    `no VOD in folder ${folder}`,
    (row): Omit<VodDetail, 'tags'> => {
      const item = toVodItem(row);
      return { ...item, download: `/members/vod/${item.path}/${vodDownloadName(item)}` };
    },
  );
}
