import type { Knex } from 'knex';
import { isSqlite } from '@media-site/db';
import { LISTING_KEYS, type ContentTable } from '../shared/content-page';
import { encodedColumn, orderByKey, photoCountColumn, visibleOnly, whereAfter } from '../shared/repository';

export interface SearchRow {
  id: number;
  path: string;
  updatename: string;
  modelname: string;
  /** Photo sets: how many photos (a correlated count over the set's files). */
  photocount?: number | string;
  /** Videos and VODs: the stored running time, and 1 once encoded. */
  duration?: number | string | null;
  encoded?: number | string;
}

/**
 * The card's facts of a hit, read with the row so the in-process index answers with no query: a
 * set's photo count, a clip's duration and whether it is encoded (its hover preview).
 */
function factColumns(knex: Knex, table: ContentTable, alias: string): Array<Knex.Raw | Knex.QueryBuilder> {
  if (table === 'photosets') return [photoCountColumn(knex, 'photosets', `${alias}.id`)];
  return [knex.ref(`${alias}.duration`).as('duration'), encodedColumn(knex, table === 'vods' ? 'vod' : 'video', `${alias}.path`)];
}

export interface IndexSourceRow extends SearchRow {
  search_text: string;
}

/** A LIKE pattern matching `text` literally anywhere; `\` is the escape character (ESCAPE clause). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

// search_text and the words are folded in JS (foldForSearch), so the comparison must be exact: MySQL's
// default _ci collations fold by their own rules (ß = s, ligatures…), which SQLite and the
// in-process index do not. A binary collation keeps every path answering the same.
function searchTextColumn(knex: Knex): string {
  return isSqlite(knex) ? 'search_text' : 'search_text COLLATE utf8mb4_bin';
}

/**
 * Titles and model names containing every (folded) word, in any order, alphabetical. The filter
 * runs over the narrow (updatename, id, search_text) index in listing order, so it stops after
 * `limit` matches; only the matching rows are read from the table.
 */
export function searchContent(knex: Knex, table: ContentTable, words: readonly string[], limit: number): Promise<SearchRow[]> {
  const ids = visibleOnly(knex(table), knex, table).select('id');
  for (const word of words) ids.whereRaw(`${searchTextColumn(knex)} LIKE ? ESCAPE ?`, [containsPattern(word), '\\']);
  ids.orderBy('updatename').orderBy('id').limit(limit);
  return knex({ t: table })
    .join(ids.as('m'), 'm.id', 't.id')
    .select('t.id', 't.path', 't.updatename', 't.modelname', ...factColumns(knex, table, 't'))
    .orderBy('t.updatename')
    .orderBy('t.id');
}

/**
 * The next `limit` searchable rows of a table after `after`, in search result order (the
 * database's ORDER BY updatename, id, so the index needs no collation of its own). Rows excluded
 * from the catalog must be excluded here and in searchContent alike.
 */
export function loadIndexSource(knex: Knex, table: ContentTable, after: SearchRow | undefined, limit: number): Promise<IndexSourceRow[]> {
  const query = visibleOnly(knex(table), knex, table).select(
    `${table}.id`,
    'path',
    'updatename',
    'modelname',
    'search_text',
    ...factColumns(knex, table, table),
  );
  if (after) whereAfter(query, LISTING_KEYS.alpha, { updatename: after.updatename, id: after.id });
  return orderByKey(query, LISTING_KEYS.alpha).limit(limit);
}
