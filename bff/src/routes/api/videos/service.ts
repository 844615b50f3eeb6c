import type { VideoItem, VideoPrename } from '@media-site/contracts/api';
import { videoDownloadName } from '@media-site/contracts/download-name';
import type { CachedBody } from '../../../cache/catalog-cache';
import type { ApiDeps } from '../deps';
import { contentDetail, contentListing, plainListing } from '../shared/content-item';
import type { ListingOrder } from '../shared/content-page';
import { videoThumbnail } from '../shared/media-urls';
import { videoByPath, type VideoRow } from './repository';

export const VIDEO_PAGE_SIZE = 10;

const VIDEO_LISTING = plainListing('videos', 'video_id', videoThumbnail, VIDEO_PAGE_SIZE);

export const toVideoItem: (row: VideoRow) => VideoItem = VIDEO_LISTING.toItem;

export function videoListing(deps: ApiDeps, order: ListingOrder, page: number): Promise<CachedBody> {
  return contentListing(deps, `videos:${order}:${page}`, VIDEO_LISTING, order, page);
}

/**
 * Spec §3's video prename plus the download path and, for the video page, the list item's title,
 * model and date (added fields; `prename` stays as the spec names it).
 */
export function videoDownload(deps: ApiDeps, folder: string): Promise<CachedBody> {
  return contentDetail(
    deps,
    `video-prename:${folder}`,
    (knex) => videoByPath(knex, folder),
    `no video in folder ${folder}`,
    (row): VideoPrename => ({
      prename: row.prename,
      download: `/members/video/${folder}/${videoDownloadName(row.prename)}`,
      ...toVideoItem(row),
    }),
  );
}
