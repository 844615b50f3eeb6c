import type { Knex } from 'knex';
import { CONTENT_COLUMNS, type ContentRow } from '../shared/content-page';
import { contentByPath, photoCountColumn, type ListingQuery } from '../shared/repository';

export type PhotoSetRow = ContentRow;

/** What the photo set listing reads: a set's columns and its photo count. */
export const PHOTO_LISTING_QUERY: ListingQuery = {
  table: 'photosets',
  columns: CONTENT_COLUMNS,
  computed: (knex) => [photoCountColumn(knex, 'photosets', 't.id')],
};

/** One visible photo set with its file names in position order; undefined when none (or taken down). */
export async function photoSetByPath(knex: Knex, path: string): Promise<(PhotoSetRow & { files: string[] }) | undefined> {
  const row = await contentByPath<PhotoSetRow>(knex, 'photosets', path, CONTENT_COLUMNS);
  if (!row) return undefined;
  const files = await knex('photoset_files').where({ photoset_id: row.id }).orderBy('position').select('filename');
  return { ...row, files: files.map((f: { filename: string }) => f.filename) };
}
