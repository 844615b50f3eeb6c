import type { VideoItem, VideoPrename } from '@media-site/contracts/api';
import { videoDownloadName } from '@media-site/contracts/download-name';
import type { CachedBody } from '../../../cache/catalog-cache';
import { NotFoundError } from '../../../errors';
import type { ApiDeps } from '../deps';
import type { ListingOrder } from '../shared/content-page';
import { videoThumbnail } from '../shared/media-urls';
import { videoByPath, videoPage, type VideoRow } from './repository';

export const VIDEO_PAGE_SIZE = 10;

export function toVideoItem(row: VideoRow): VideoItem {
  return {
    video_id: Number(row.id),
    path: row.path,
    updatename: row.updatename,
    modelname: row.modelname,
    datetoupload: row.datetoupload,
    thumbnail: videoThumbnail(row.path),
  };
}

export function videoListing({ knex, cache, anchors }: ApiDeps, order: ListingOrder, page: number): Promise<CachedBody> {
  return cache.get(`videos:${order}:${page}`, async () => (await videoPage(knex, anchors, order, page, VIDEO_PAGE_SIZE)).map(toVideoItem));
}

/**
 * Spec §3's video prename plus the download path and, for the video page, the list item's title,
 * model and date (added fields; `prename` stays as the spec names it).
 */
export function videoDownload({ knex, cache }: ApiDeps, folder: string): Promise<CachedBody> {
  return cache.get(`video-prename:${folder}`, async () => {
    const row = await videoByPath(knex, folder);
    if (!row) throw new NotFoundError(`no video in folder ${folder}`);
    const answer: VideoPrename = {
      prename: row.prename,
      download: `/members/video/${folder}/${videoDownloadName(row.prename)}`,
      ...toVideoItem(row),
    };
    return answer;
  });
}
