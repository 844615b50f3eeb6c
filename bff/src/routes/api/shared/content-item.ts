import { tagsOf, type TaggedType } from '@media-site/db/content';
import type { Knex } from 'knex';
import type { CachedBody } from '../../../cache/catalog-cache';
import { NotFoundError } from '../../../errors';
import type { ApiDeps } from '../deps';
import type { ContentRow, ListingOrder } from './content-page';
import { contentPage, type ListingQuery } from './repository';

type CommonFields = Omit<ContentRow, 'id'> & { thumbnail: string };

/**
 * The list item a content row is sent as: its id under the listing's own name (`photos_id`,
 * `video_id`, `vod_id`), the common fields, any fields of that listing, and the thumbnail last.
 */
export function contentItem<K extends string, Extra extends object = object>(
  idField: K,
  row: ContentRow,
  thumbnail: string,
  extra?: Extra,
): Record<K, number> & CommonFields & Extra {
  return {
    [idField]: Number(row.id),
    path: row.path,
    updatename: row.updatename,
    modelname: row.modelname,
    datetoupload: row.datetoupload,
    ...extra,
    thumbnail,
  } as Record<K, number> & CommonFields & Extra;
}

/** How one content table is listed: what is read (the resource's repository), how many rows a page holds, how a row is sent. */
export interface ContentListing<Row> {
  query: ListingQuery;
  pageSize: number;
  toItem: (row: Row) => unknown;
}

/** One listing page, cached under `key` per catalog generation. */
export function contentListing<Row>(
  { knex, cache, anchors }: ApiDeps,
  key: string,
  listing: ContentListing<Row>,
  order: ListingOrder,
  page: number,
): Promise<CachedBody> {
  return cache.get(key, async () =>
    (
      await contentPage<Row>(
        knex,
        anchors,
        listing.query.table,
        order,
        page,
        listing.pageSize,
        listing.query.columns,
        listing.query.computed,
      )
    ).map(listing.toItem),
  );
}

/**
 * One item's page, cached under `key` per catalog generation, with its tags (links to the search
 * filtered by each); 404 `missing` when `find` finds none visible.
 */
export function contentDetail<Row extends { id: number | string }>(
  { knex, cache }: ApiDeps,
  key: string,
  type: TaggedType,
  find: (knex: Knex) => Promise<Row | undefined>,
  missing: string,
  answer: (row: Row) => object,
): Promise<CachedBody> {
  return cache.get(key, async () => {
    const row = await find(knex);
    if (!row) throw new NotFoundError(missing);
    const id = Number(row.id);
    return { ...answer(row), tags: (await tagsOf(knex, type, [id])).get(id) ?? [] };
  });
}
