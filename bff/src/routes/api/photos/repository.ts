import type { Knex } from 'knex';
import { contentPage, type ListingOrder } from '../shared/content-page';
import type { PageAnchors } from '../shared/page-anchors';

export interface PhotoSetRow {
  id: number;
  path: string;
  updatename: string;
  modelname: string;
  datetoupload: string;
}

const COLUMNS = ['id', 'path', 'updatename', 'modelname', 'datetoupload'] as const;

export function photoSetPage(knex: Knex, anchors: PageAnchors, order: ListingOrder, page: number, pageSize: number): Promise<PhotoSetRow[]> {
  return contentPage(knex, anchors, 'photosets', order, page, pageSize, COLUMNS);
}
