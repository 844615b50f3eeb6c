import type { Knex } from 'knex';

const FILES = {
  photosets: { table: 'photoset_files', fk: 'photoset_id' },
  freephotosets: { table: 'freephotoset_files', fk: 'freephotoset_id' },
} as const;

export type SetTable = keyof typeof FILES;

/**
 * How many photos each of these sets holds (0 for a set without files), in one grouped read over
 * the (set id, position) unique index: a card's "24 photos". Listings call it with one page's ids.
 */
export async function photoCounts(knex: Knex, table: SetTable, ids: readonly number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>(ids.map((id) => [id, 0]));
  if (ids.length === 0) return counts;
  const { table: files, fk } = FILES[table];
  const rows: { id: number | string; n: number | string }[] = await knex(files)
    .whereIn(fk, ids)
    .groupBy(fk)
    .select({ id: fk })
    .count({ n: '*' });
  for (const row of rows) counts.set(Number(row.id), Number(row.n));
  return counts;
}

/** A clip's stored running time as the API sends it: whole seconds, or null while unknown. */
export const durationOf = (value: number | string | null | undefined): number | null =>
  value === null || value === undefined || !(Number(value) > 0) ? null : Number(value);
