import type { Knex } from 'knex';
import { bumpGeneration } from '../generation';
import { searchText } from '../initial';

// search_text becomes diacritic-folded ("Émilie" is stored as "emilie"; see initial.ts searchText),
// so an unaccented search finds accented titles and model names on every backend. The column and
// its index stay as they are; this recomputes the existing rows (ingest writes new ones folded) and
// moves the catalog generation so no cached search answer or in-process index outlives it.
// Down leaves the folded text in place: the unfolded search of before 009 still reads it, only
// without matching accented terms.
const TABLES = ['photosets', 'videos', 'vods'] as const;
const BATCH = 500;

interface Row {
  id: number;
  updatename: string;
  modelname: string;
  search_text: string;
}

async function refold(knex: Knex, table: string): Promise<number> {
  let after = 0;
  let total = 0;
  for (;;) {
    const rows: Row[] = await knex(table)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .select('id', 'updatename', 'modelname', 'search_text');
    if (rows.length === 0) return total;
    const changed = rows
      .map((r) => ({ id: Number(r.id), text: searchText(r.updatename, r.modelname), old: r.search_text }))
      .filter((r) => r.text !== r.old);
    total += changed.length;
    if (changed.length) {
      // One statement per batch: a CASE over the batch's ids.
      const cases = changed.map(() => 'WHEN ? THEN ?').join(' ');
      await knex(table)
        .whereIn(
          'id',
          changed.map((r) => r.id),
        )
        .update({
          search_text: knex.raw(
            `CASE id ${cases} END`,
            changed.flatMap((r) => [r.id, r.text]),
          ),
        });
    }
    after = Number(rows.at(-1)!.id);
  }
}

export async function up(knex: Knex): Promise<void> {
  let changed = 0;
  for (const table of TABLES) changed += await refold(knex, table);
  // Nothing refolded (a new, empty catalog): no cached answer to retire, the generation stays.
  if (changed > 0) await bumpGeneration(knex);
}

export async function down(): Promise<void> {}
