import type { Knex } from 'knex';
import { contentPage, type ListingOrder } from '../shared/content-page';
import type { PageAnchors } from '../shared/page-anchors';
import { visibleOnly } from '../shared/visible';

export interface VideoRow {
  id: number;
  path: string;
  updatename: string;
  modelname: string;
  datetoupload: string;
}

const COLUMNS = ['id', 'path', 'updatename', 'modelname', 'datetoupload'] as const;

export function videoPage(knex: Knex, anchors: PageAnchors, order: ListingOrder, page: number, pageSize: number): Promise<VideoRow[]> {
  return contentPage(knex, anchors, 'videos', order, page, pageSize, COLUMNS);
}

export async function videoByPath(knex: Knex, path: string): Promise<(VideoRow & { prename: string }) | undefined> {
  return (await visibleOnly(knex('videos').where({ path }), knex, 'videos').first(...COLUMNS, 'prename')) as
    (VideoRow & { prename: string }) | undefined;
}
