import type { VideoItem, VideoPrename } from '@media-site/contracts/api';
import { videoDownloadName } from '@media-site/contracts/download-name';
import type { CachedBody } from '../../../cache/catalog-cache';
import type { ApiDeps } from '../deps';
import { contentDetail, contentItem, contentListing, type ContentListing } from '../shared/content-item';
import type { ListingOrder } from '../shared/content-page';
import { durationOf, previewOf } from '../shared/facts';
import { videoThumbnail } from '../shared/media-urls';
import { VIDEO_LISTING_QUERY, videoByPath, type VideoRow } from './repository';

export const VIDEO_PAGE_SIZE = 10;

export function toVideoItem(row: VideoRow): VideoItem {
  return contentItem('video_id', row, videoThumbnail(row.path), {
    duration: durationOf(row.duration),
    preview: previewOf('video', row.path, row.encoded),
  });
}

const VIDEO_LISTING: ContentListing<VideoRow> = { query: VIDEO_LISTING_QUERY, pageSize: VIDEO_PAGE_SIZE, toItem: toVideoItem };

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
    'video',
    (knex) => videoByPath(knex, folder),
    `no video in folder ${folder}`,
    (row): Omit<VideoPrename, 'tags'> => ({
      prename: row.prename,
      download: `/members/video/${folder}/${videoDownloadName(row.prename)}`,
      ...toVideoItem(row),
    }),
  );
}
