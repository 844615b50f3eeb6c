import type { Knex } from 'knex';
import { encodedColumn } from '../shared/facts';
import { CLIP_COLUMNS, contentByPath, type ClipRow } from '../shared/content-page';

export type VideoRow = ClipRow;

export function videoByPath(knex: Knex, path: string): Promise<(VideoRow & { prename: string }) | undefined> {
  return contentByPath(knex, 'videos', path, [...CLIP_COLUMNS, 'prename'], (k) => [encodedColumn(k, 'video', 'videos.path')]);
}
