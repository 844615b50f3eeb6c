import type { Knex } from 'knex';

/** The catalog generation number; cache keys carry it, so bumping it invalidates every listing. */
export async function readGeneration(knex: Knex | Knex.Transaction): Promise<number> {
  const row = await knex('catalog_meta').where({ name: 'generation' }).first('value');
  return row ? Number(row.value) : 1;
}

export async function bumpGeneration(knex: Knex | Knex.Transaction): Promise<number> {
  await knex('catalog_meta').where({ name: 'generation' }).increment('value', 1);
  return readGeneration(knex);
}
