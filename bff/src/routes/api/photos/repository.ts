import type { Knex } from 'knex';
import { CONTENT_COLUMNS, contentByPath, type ContentRow } from '../shared/content-page';

export type PhotoSetRow = ContentRow;

/** One visible photo set with its file names in position order; undefined when none (or taken down). */
export async function photoSetByPath(knex: Knex, path: string): Promise<(PhotoSetRow & { files: string[] }) | undefined> {
  const row = await contentByPath<PhotoSetRow>(knex, 'photosets', path, CONTENT_COLUMNS);
  if (!row) return undefined;
  const files = await knex('photoset_files').where({ photoset_id: row.id }).orderBy('position').select('filename');
  return { ...row, files: files.map((f: { filename: string }) => f.filename) };
}
