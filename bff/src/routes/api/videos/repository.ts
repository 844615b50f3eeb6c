import type { Knex } from 'knex';
import { CONTENT_COLUMNS, contentByPath, type ContentRow } from '../shared/content-page';

export type VideoRow = ContentRow;

export function videoByPath(knex: Knex, path: string): Promise<(VideoRow & { prename: string }) | undefined> {
  return contentByPath(knex, 'videos', path, [...CONTENT_COLUMNS, 'prename']);
}
