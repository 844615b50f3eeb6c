import type { VodDetail, VodItem } from '@media-site/contracts/api';
import { vodDownloadName } from '@media-site/contracts/download-name';
import type { CachedBody } from '../../../cache/catalog-cache';
import { NotFoundError } from '../../../errors';
import type { ApiDeps } from '../deps';
import { vodThumbnail } from '../shared/media-urls';
import { vodByPath, vodPage, type VodRow } from './repository';

export const VOD_PAGE_SIZE = 20;

export function toVodItem(row: VodRow): VodItem {
  return {
    vod_id: Number(row.id),
    path: row.path,
    updatename: row.updatename,
    modelname: row.modelname,
    datetoupload: row.datetoupload,
    prename: row.prename,
    format: Number(row.format),
    // DECIMAL arrives as a string from mysql2 and a number from SQLite; the API sends a number.
    price: Number(row.price),
    thumbnail: vodThumbnail(row.path),
  };
}

export function vodListing({ knex, cache, anchors }: ApiDeps, page: number): Promise<CachedBody> {
  return cache.get(`vod:${page}`, async () => (await vodPage(knex, anchors, page, VOD_PAGE_SIZE)).map(toVodItem));
}

export function vodDetail({ knex, cache }: ApiDeps, folder: string): Promise<CachedBody> {
  return cache.get(`vod-prename:${folder}`, async () => {
    const row = await vodByPath(knex, folder);
    if (!row) throw new NotFoundError(`no VOD in folder ${folder}`);
    const item = toVodItem(row);
    const detail: VodDetail = { ...item, download: `/members/vod/${item.path}/${vodDownloadName(item)}` };
    return detail;
  });
}
