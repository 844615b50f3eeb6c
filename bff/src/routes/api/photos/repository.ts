import type { Knex } from 'knex';
import { contentPage, type ListingOrder } from '../shared/content-page';
import type { PageAnchors } from '../shared/page-anchors';
import { visibleOnly } from '../shared/visible';

export interface PhotoSetRow {
  id: number;
  path: string;
  updatename: string;
  modelname: string;
  datetoupload: string;
}

const COLUMNS = ['id', 'path', 'updatename', 'modelname', 'datetoupload'] as const;

export function photoSetPage(
  knex: Knex,
  anchors: PageAnchors,
  order: ListingOrder,
  page: number,
  pageSize: number,
): Promise<PhotoSetRow[]> {
  return contentPage(knex, anchors, 'photosets', order, page, pageSize, COLUMNS);
}

/** One visible photo set with its file names in position order; undefined when none (or taken down). */
export async function photoSetByPath(knex: Knex, path: string): Promise<(PhotoSetRow & { files: string[] }) | undefined> {
  const row = (await visibleOnly(knex('photosets').where({ path }), knex, 'photosets').first(...COLUMNS)) as PhotoSetRow | undefined;
  if (!row) return undefined;
  const files = await knex('photoset_files').where({ photoset_id: row.id }).orderBy('position').select('filename');
  return { ...row, files: files.map((f: { filename: string }) => f.filename) };
}
