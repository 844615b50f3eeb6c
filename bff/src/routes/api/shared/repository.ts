import type { Knex } from 'knex';
import type { PlayableType } from '@media-site/contracts/playback-layout';
import {
  CONTENT_TABLE,
  contentRefOf,
  unreleasedIds,
  type ContentRef,
  type ContentTableName,
  type ContentType,
} from '@media-site/db/content';
import { LISTING_KEYS, contentListName, type ContentTable, type ListingOrder } from './content-page';
import type { AnchorKey, AnchorList, KeyColumn, PageAnchors } from './page-anchors';

// The catalog's queries every listing, search and signing route shares: what is visible, one page
// of a content table, the per-row facts (photo count, encoded), the page anchors' window query, and
// whether a media folder's item is taken down or not yet released.

export const TYPE_OF: Record<ContentTableName, ContentType> = {
  photosets: 'photoset',
  freephotosets: 'freephotoset',
  videos: 'video',
  vods: 'vod',
};

/**
 * Leaves out taken-down items (docs/compliance.md) and items scheduled for later (`publish_at` in
 * the future). `id NOT IN (a small subquery)` is answered from any secondary index (they all carry
 * the id), so listing and search scans stay index-only; the scheduled subquery is a range of the
 * publish_at index. The takedown or schedule that changes either set bumps the catalog generation,
 * and so does each bff's release timer when a release falls due, so nothing cached outlives it.
 */
export function visibleOnly<Q extends Knex.QueryBuilder>(
  query: Q,
  knex: Knex,
  table: ContentTableName,
  column = 'id',
  now = Date.now(),
): Q {
  return query
    .whereNotIn(column, knex('takedowns').where('content_type', TYPE_OF[table]).select('content_id'))
    .whereNotIn(column, unreleasedIds(knex, table, now)) as Q;
}

function refOf(family: string | undefined, folder: string): ContentRef | undefined {
  return family === undefined ? undefined : contentRefOf(`/${family}/${encodeURIComponent(folder)}`);
}

/**
 * Whether the item a media folder belongs to (`video`, `some-folder`) is taken down: the bff signs
 * no new link to it (the media service answers 410 for its files anyway, but a fresh link or edge
 * URL for removed content should not be handed out at all). The takedowns table names the item by
 * content type and folder, which is what a media path carries.
 */
export async function isTakenDown(knex: Knex, family: string | undefined, folder: string): Promise<boolean> {
  const ref = refOf(family, folder);
  if (!ref) return false;
  return (await knex('takedowns').where({ content_type: ref.type, path: ref.path }).first('id')) !== undefined;
}

/** Whether that item is scheduled for later (`publish_at` after `now`): no link is signed before its release. */
export async function isUnreleased(knex: Knex, family: string | undefined, folder: string, now: number): Promise<boolean> {
  const ref = refOf(family, folder);
  if (!ref) return false;
  return (await knex(CONTENT_TABLE[ref.type]).where({ path: ref.path }).where('publish_at', '>', now).first('id')) !== undefined;
}

const FILES = {
  photosets: { table: 'photoset_files', fk: 'photoset_id' },
  freephotosets: { table: 'freephotoset_files', fk: 'freephotoset_id' },
} as const;

export type SetTable = keyof typeof FILES;

/**
 * A set's photo count (a card's "24 photos") as a column of the query that reads the set: a
 * correlated COUNT over the (set id, position) unique index, so a page of sets stays one query.
 * `idColumn` is the set's id as that query names it (`t.id`).
 */
export function photoCountColumn(knex: Knex, table: SetTable, idColumn: string): Knex.QueryBuilder {
  const { table: files, fk } = FILES[table];
  return knex(files).count('*').where(fk, knex.ref(idColumn)).as('photocount');
}

/**
 * Whether a video or VOD has been encoded (its job has a manifest: poster, sprite, thumbnails track),
 * as a 0/1 column `encoded` of the query that reads it, over media_jobs' (content_type, path) unique
 * index. A first encode moves the catalog generation (db/src/encode/duration.ts), so cached answers follow.
 */
export function encodedColumn(knex: Knex, type: PlayableType, pathColumn: string): Knex.QueryBuilder {
  return knex('media_jobs')
    .count('*')
    .where('media_jobs.content_type', type)
    .where('media_jobs.path', knex.ref(pathColumn))
    .whereNotNull('media_jobs.manifest')
    .as('encoded');
}

/** Columns computed per row in the same query as the row (a set's photo count, whether a clip is encoded). */
export type ComputedColumns = (knex: Knex) => ReadonlyArray<Knex.QueryBuilder | Knex.Raw>;

/** What a content listing reads of its table: the columns, and the computed ones (the page's table aliased `t`). */
export interface ListingQuery {
  table: ContentTable;
  columns: readonly string[];
  computed?: ComputedColumns;
}

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
  computed: ComputedColumns = () => [],
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
  /** Columns computed per row, the table under its own name. */
  computed: ComputedColumns = () => [],
): Promise<Row | undefined> {
  const query = visibleOnly(knex(table).where(`${table}.path`, path), knex, table, `${table}.id`);
  return (await query.select([...columns.map((c) => `${table}.${c}`), ...computed(knex)]).first()) as Row | undefined;
}

/** Rows strictly after `key` in the order of `columns` (a lexicographic comparison spelt out for any SQL). */
export function whereAfter(query: Knex.QueryBuilder, columns: readonly KeyColumn[], key: AnchorKey, alias?: string): Knex.QueryBuilder {
  const c = (column: string) => (alias ? `${alias}.${column}` : column);
  return query.where((outer) => {
    columns.forEach((col, i) => {
      outer.orWhere((inner) => {
        for (const prev of columns.slice(0, i)) inner.where(c(prev.column), '=', key[prev.column]!);
        inner.where(c(col.column), col.direction === 'asc' ? '>' : '<', key[col.column]!);
      });
    });
  });
}

export function orderByKey(query: Knex.QueryBuilder, columns: readonly KeyColumn[], alias?: string): Knex.QueryBuilder {
  for (const col of columns) query.orderBy(alias ? `${alias}.${col.column}` : col.column, col.direction);
  return query;
}

/** Every `every`-th key of `source` in key order, via ROW_NUMBER (MySQL 8, MariaDB 10.2+, SQLite 3.25+). */
export async function buildAnchors(
  knex: Knex,
  source: Knex.QueryBuilder,
  columns: readonly KeyColumn[],
  every: number,
): Promise<AnchorList> {
  const names = columns.map((c) => c.column);
  const order = columns.map((c) => `${c.column} ${c.direction}`).join(', ');
  const numbered = knex.select(...names, knex.raw(`row_number() over (order by ${order}) as rn_`)).from(source.as('s'));
  const [rows, count] = await Promise.all([
    knex
      .select(...names)
      .from(numbered.as('n'))
      .whereRaw('rn_ % ? = 0', [every])
      .orderBy('rn_'),
    knex.count({ n: '*' }).from(source.clone().as('s')),
  ]);
  const anchors = (rows as AnchorKey[]).map((r) => Object.fromEntries(names.map((n) => [n, r[n]!])));
  return { anchors, total: Number((count[0] as { n: number | string }).n) };
}
