import type { Knex } from 'knex';
import { buildAnchors, orderByKey, whereAfter, type KeyColumn, type PageAnchors } from './page-anchors';
import { visibleOnly } from './visible';

export type ContentTable = 'photosets' | 'videos' | 'vods';
export type ListingOrder = 'alpha' | 'date';

/** The columns every content list item is built from (shared/content-item.ts). */
export interface ContentRow {
  id: number;
  path: string;
  updatename: string;
  modelname: string;
  datetoupload: string;
}

export const CONTENT_COLUMNS = ['id', 'path', 'updatename', 'modelname', 'datetoupload'] as const;

/** A video's or VOD's row also brings its running time (migration 013; null while unknown). */
export interface ClipRow extends ContentRow {
  duration: number | string | null;
  /** 1 once encoded (shared/facts.ts, encodedColumn). */
  encoded: number | string;
}

export const CLIP_COLUMNS = [...CONTENT_COLUMNS, 'duration'] as const;

export const LISTING_KEYS: Record<ListingOrder, readonly KeyColumn[]> = {
  alpha: [
    { column: 'updatename', direction: 'asc' },
    { column: 'id', direction: 'asc' },
  ],
  date: [
    { column: 'datetoupload', direction: 'desc' },
    { column: 'id', direction: 'desc' },
  ],
};

export const contentListName = (table: ContentTable, order: ListingOrder) => `${table}:${order}`;

/** How the anchors of one content listing are built (also registered for warming). */
export function contentAnchorBuilder(knex: Knex, table: ContentTable, order: ListingOrder) {
  const keys = LISTING_KEYS[order];
  return (every: number) => buildAnchors(knex, visibleOnly(knex(table).select(keys.map((k) => k.column)), knex, table), keys, every);
}

/**
 * One page of a content table. The page's ids come from the narrow (updatename, id) or
 * (datetoupload, id) index alone, starting after the nearest page anchor; then only the page's
 * rows are read (a deferred join).
 */
export async function contentPage<Row>(
  knex: Knex,
  anchors: PageAnchors,
  table: ContentTable,
  order: ListingOrder,
  page: number,
  pageSize: number,
  columns: readonly string[],
  /** Columns computed per row (a set's photo count), given the page's table alias `t`. */
  computed: (knex: Knex) => ReadonlyArray<Knex.QueryBuilder | Knex.Raw> = () => [],
): Promise<Row[]> {
  const keys = LISTING_KEYS[order];
  const start = await anchors.locate(contentListName(table, order), (page - 1) * pageSize, contentAnchorBuilder(knex, table, order));
  if (!start) return [];
  const ids = orderByKey(visibleOnly(knex(table).select('id'), knex, table), keys)
    .limit(pageSize)
    .offset(start.skip);
  if (start.after) whereAfter(ids, keys, start.after);
  return orderByKey(
    knex({ t: table })
      .join(ids.as('p'), 'p.id', 't.id')
      .select([...columns.map((c) => `t.${c}`), ...computed(knex)]),
    keys,
    't',
  ) as Promise<Row[]>;
}

/** One visible row of a content table by its folder (`path`), or undefined when none (or taken down). */
export async function contentByPath<Row>(
  knex: Knex,
  table: ContentTable,
  path: string,
  columns: readonly string[],
  /** Columns computed per row (shared/facts.ts), the table under its own name. */
  computed: (knex: Knex) => ReadonlyArray<Knex.QueryBuilder | Knex.Raw> = () => [],
): Promise<Row | undefined> {
  const query = visibleOnly(knex(table).where(`${table}.path`, path), knex, table, `${table}.id`);
  return (await query.select([...columns.map((c) => `${table}.${c}`), ...computed(knex)]).first()) as Row | undefined;
}
