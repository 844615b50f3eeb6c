import type { Knex } from 'knex';
import { CLIP_COLUMNS, type ClipRow } from '../shared/content-page';
import { contentByPath, encodedColumn, type ListingQuery } from '../shared/repository';

export interface VodRow extends ClipRow {
  prename: string;
  format: number;
  price: string | number;
}

export const VOD_COLUMNS = [...CLIP_COLUMNS, 'prename', 'format', 'price'] as const;

/** What the VOD listing reads: its columns and whether it is encoded. */
export const VOD_LISTING_QUERY: ListingQuery = {
  table: 'vods',
  columns: VOD_COLUMNS,
  computed: (knex) => [encodedColumn(knex, 'vod', 't.path')],
};

export function vodByPath(knex: Knex, path: string): Promise<VodRow | undefined> {
  return contentByPath(knex, 'vods', path, VOD_COLUMNS, (k) => [encodedColumn(k, 'vod', 'vods.path')]);
}
