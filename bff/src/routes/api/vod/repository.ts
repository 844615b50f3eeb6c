import type { Knex } from 'knex';
import { CONTENT_COLUMNS, contentByPath, type ContentRow } from '../shared/content-page';

export interface VodRow extends ContentRow {
  prename: string;
  format: number;
  price: string | number;
}

export const VOD_COLUMNS = [...CONTENT_COLUMNS, 'prename', 'format', 'price'] as const;

export function vodByPath(knex: Knex, path: string): Promise<VodRow | undefined> {
  return contentByPath(knex, 'vods', path, VOD_COLUMNS);
}
