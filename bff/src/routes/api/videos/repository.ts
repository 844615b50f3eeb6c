import type { Knex } from 'knex';
import { CLIP_COLUMNS, type ClipRow } from '../shared/content-page';
import { contentByPath, encodedColumn, type ListingQuery } from '../shared/repository';

export type VideoRow = ClipRow;

/** What the video listing reads: a clip's columns and whether it is encoded. */
export const VIDEO_LISTING_QUERY: ListingQuery = {
  table: 'videos',
  columns: CLIP_COLUMNS,
  computed: (knex) => [encodedColumn(knex, 'video', 't.path')],
};

export function videoByPath(knex: Knex, path: string): Promise<(VideoRow & { prename: string }) | undefined> {
  return contentByPath(knex, 'videos', path, [...CLIP_COLUMNS, 'prename'], (k) => [encodedColumn(k, 'video', 'videos.path')]);
}
