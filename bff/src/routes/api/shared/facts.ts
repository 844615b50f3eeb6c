import type { Knex } from 'knex';
import { previewUrl, type PlayableType } from '@media-site/contracts/playback-layout';

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

/** A count as the driver returns it (mysql2 may send a string). */
export const countOf = (value: number | string | null | undefined): number => Number(value ?? 0);

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

/** The card's hover preview: the public thumbnails track once encoded, else null (nothing to ask for). */
export const previewOf = (type: PlayableType, path: string, encoded: number | string | null | undefined): string | null =>
  Number(encoded ?? 0) > 0 ? previewUrl(type, path, 'thumbnails') : null;

/** A clip's stored running time as the API sends it: whole seconds, or null while unknown. */
export const durationOf = (value: number | string | null | undefined): number | null =>
  value === null || value === undefined || !(Number(value) > 0) ? null : Number(value);
