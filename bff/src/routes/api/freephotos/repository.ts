import type { Knex } from 'knex';
import { photoCountColumn, visibleOnly } from '../shared/repository';

export interface FreeSetRow {
  id: number;
  path: string;
  updatename: string;
  /** The set's first file (lowest position); null for a set without files. */
  first_file: string | null;
  photocount: number | string;
}

/**
 * One page of the visible free photo sets, newest first (datetoupload, then id, both descending,
 * as the other date listings). A plain OFFSET rather than the page anchors of page-anchors.ts: the
 * free sets are a handful of previews, so even the deepest page walks a few rows. Each row brings its
 * first file through the (freephotoset_id, position) unique index, for the card's picture.
 */
export function freeSetPage(knex: Knex, page: number, pageSize: number): Promise<FreeSetRow[]> {
  const firstFile = knex('freephotoset_files').where('freephotoset_id', knex.ref('f.id')).orderBy('position').limit(1).select('filename');
  return visibleOnly(knex({ f: 'freephotosets' }), knex, 'freephotosets', 'f.id')
    .select('f.id', 'f.path', 'f.updatename', firstFile.as('first_file'), photoCountColumn(knex, 'freephotosets', 'f.id'))
    .orderBy('f.datetoupload', 'desc')
    .orderBy('f.id', 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize) as Promise<FreeSetRow[]>;
}
