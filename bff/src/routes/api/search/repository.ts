import type { Knex } from 'knex';
import { isSqlite } from '@media-site/db';
import { tagsOf, type TaggedType } from '@media-site/db/content';
import { LISTING_KEYS, type ContentTable } from '../shared/content-page';
import { encodedColumn, orderByKey, photoCountColumn, TYPE_OF, visibleOnly, whereAfter } from '../shared/repository';
import { dateFloor, type FacetRow, type SearchFilters } from './filters';
import { DURATION_RANGE_S } from '@media-site/contracts/search-filters';

export interface SearchRow extends FacetRow {
  path: string;
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

export interface IndexSourceRow extends Omit<SearchRow, 'tags'> {
  search_text: string;
}

/** A LIKE pattern matching `text` literally anywhere; `\` is the escape character (ESCAPE clause). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

// search_text and the words are folded in JS (foldForSearch), so the comparison must be exact: MySQL's
// default _ci collations fold by their own rules (ß = s, ligatures…), which SQLite and the
// in-process index do not. A binary collation keeps every path answering the same.
function binary(knex: Knex, column: string): string {
  return isSqlite(knex) ? column : `${column} COLLATE utf8mb4_bin`;
}

const typeOf = (table: ContentTable) => TYPE_OF[table] as TaggedType;

/** The visible ids of a table holding every word (none: every visible id). */
function matchingIds(knex: Knex, table: ContentTable, words: readonly string[]): Knex.QueryBuilder {
  const ids = visibleOnly(knex(table), knex, table);
  for (const word of words) ids.whereRaw(`${binary(knex, 'search_text')} LIKE ? ESCAPE ?`, [containsPattern(word), '\\']);
  return ids;
}

/** The filters in SQL, as filters.ts applies them to the index's rows (the type filter picks tables). */
function whereFilters(knex: Knex, query: Knex.QueryBuilder, table: ContentTable, f: SearchFilters, now: number): Knex.QueryBuilder {
  if (f.model !== undefined) query.whereRaw(`${binary(knex, 'modelname')} = ?`, [f.model]);
  if (f.tag !== undefined)
    query.whereIn(
      'id',
      knex('content_tags')
        .where({ content_type: typeOf(table), tag: f.tag })
        .select('content_id'),
    );
  if (f.duration !== undefined) {
    const [from, to] = DURATION_RANGE_S[f.duration];
    query.where('duration', '>=', Math.max(from, 1));
    if (Number.isFinite(to)) query.where('duration', '<', to);
  }
  if (f.date !== undefined) query.where('datetoupload', '>=', dateFloor(f.date, now));
  return query;
}

function orderBySort(query: Knex.QueryBuilder, table: ContentTable, f: SearchFilters): Knex.QueryBuilder {
  if (f.sort === 'newest') return query.orderBy('datetoupload', 'desc').orderBy('id', 'desc');
  if (f.sort === 'longest') {
    if (table === 'photosets') query.orderByRaw('(select count(*) from photoset_files f where f.photoset_id = photosets.id) desc');
    else query.orderBy('duration', 'desc');
  }
  return query.orderBy('updatename').orderBy('id');
}

/**
 * Items holding every (folded) word, in any order, that pass the filters, in the sort's order. The
 * words run over the narrow (updatename, id, search_text) index in listing order, so an A–Z search
 * stops after `limit` matches; only the matching rows are read from the table, in the ids' order.
 */
export async function searchContent(
  knex: Knex,
  table: ContentTable,
  words: readonly string[],
  f: SearchFilters,
  now: number,
  limit: number,
): Promise<SearchRow[]> {
  if (f.duration !== undefined && table === 'photosets') return [];
  const ids: number[] = (
    await orderBySort(whereFilters(knex, matchingIds(knex, table, words), table, f, now).select('id'), table, f).limit(limit)
  ).map((r: { id: number | string }) => Number(r.id));
  if (!ids.length) return [];
  const [rows, tags] = await Promise.all([
    knex({ t: table })
      .whereIn('t.id', ids)
      .select('t.id', 't.path', 't.updatename', 't.modelname', 't.datetoupload', ...factColumns(knex, table, 't')) as Promise<SearchRow[]>,
    tagsOf(knex, typeOf(table), ids),
  ]);
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  return ids.map((id) => ({
    ...byId.get(id)!,
    id,
    datetoupload: String(byId.get(id)!.datetoupload).slice(0, 10),
    tags: tags.get(id) ?? [],
  }));
}

/**
 * The facts the counts read of at most `limit` rows holding every word (A–Z, like the index),
 * filters not applied: the database path's counts (FacetCounter), "at least" when `limit` is met.
 */
export async function scanFacetRows(knex: Knex, table: ContentTable, words: readonly string[], limit: number): Promise<FacetRow[]> {
  const columns = ['id', 'updatename', 'modelname', 'datetoupload', ...(table === 'photosets' ? [] : ['duration'])];
  const rows: Array<Record<string, unknown>> = await orderByKey(matchingIds(knex, table, words).select(columns), LISTING_KEYS.alpha).limit(
    limit,
  );
  const tags = await tagsOf(
    knex,
    typeOf(table),
    rows.map((r) => Number(r.id)),
  );
  return rows.map((r) => ({
    id: Number(r.id),
    updatename: String(r.updatename),
    modelname: String(r.modelname),
    datetoupload: String(r.datetoupload).slice(0, 10),
    duration: r.duration == null ? null : Number(r.duration),
    tags: tags.get(Number(r.id)) ?? [],
  }));
}

/**
 * The next `limit` searchable rows of a table after `after`, in search result order (the
 * database's ORDER BY updatename, id, so the index needs no collation of its own), with their tags.
 * Rows excluded from the catalog must be excluded here and in searchContent alike.
 */
export async function loadIndexSource(
  knex: Knex,
  table: ContentTable,
  after: { updatename: string; id: number } | undefined,
  limit: number,
): Promise<{ rows: IndexSourceRow[]; tags: Map<number, string[]> }> {
  const query = visibleOnly(knex(table), knex, table).select(
    `${table}.id`,
    'path',
    'updatename',
    'modelname',
    'datetoupload',
    'search_text',
    ...factColumns(knex, table, table),
  );
  if (after) whereAfter(query, LISTING_KEYS.alpha, { updatename: after.updatename, id: after.id });
  const rows: IndexSourceRow[] = await orderByKey(query, LISTING_KEYS.alpha).limit(limit);
  return {
    rows,
    tags: await tagsOf(
      knex,
      typeOf(table),
      rows.map((r) => Number(r.id)),
    ),
  };
}
