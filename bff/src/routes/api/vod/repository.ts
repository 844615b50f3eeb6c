import type { Knex } from 'knex';
import { encodedColumn } from '../shared/facts';
import { CLIP_COLUMNS, contentByPath, type ClipRow } from '../shared/content-page';

export interface VodRow extends ClipRow {
  prename: string;
  format: number;
  price: string | number;
}

export const VOD_COLUMNS = [...CLIP_COLUMNS, 'prename', 'format', 'price'] as const;

export function vodByPath(knex: Knex, path: string): Promise<VodRow | undefined> {
  return contentByPath(knex, 'vods', path, VOD_COLUMNS, (k) => [encodedColumn(k, 'vod', 'vods.path')]);
}
