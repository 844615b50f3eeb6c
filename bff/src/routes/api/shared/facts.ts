import type { Knex } from 'knex';

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

/** A clip's stored running time as the API sends it: whole seconds, or null while unknown. */
export const durationOf = (value: number | string | null | undefined): number | null =>
  value === null || value === undefined || !(Number(value) > 0) ? null : Number(value);
