import type { Knex } from 'knex';
import { contentPage } from '../shared/content-page';
import type { PageAnchors } from '../shared/page-anchors';
import { visibleOnly } from '../shared/visible';

export interface VodRow {
  id: number;
  path: string;
  updatename: string;
  modelname: string;
  datetoupload: string;
  prename: string;
  format: number;
  price: string | number;
}

const COLUMNS = ['id', 'path', 'updatename', 'modelname', 'datetoupload', 'prename', 'format', 'price'] as const;

export function vodPage(knex: Knex, anchors: PageAnchors, page: number, pageSize: number): Promise<VodRow[]> {
  return contentPage(knex, anchors, 'vods', 'date', page, pageSize, COLUMNS);
}

export async function vodByPath(knex: Knex, path: string): Promise<VodRow | undefined> {
  return (await visibleOnly(knex('vods').where({ path }), knex, 'vods').first(COLUMNS)) as VodRow | undefined;
}
