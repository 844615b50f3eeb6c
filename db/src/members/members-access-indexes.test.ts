import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { testBackends, useTestDb } from '../testing';
import { isSqlite } from '../index';

/** The first column of every index on `table`. */
async function leadingIndexColumns(knex: Knex, table: string): Promise<string[]> {
  if (isSqlite(knex)) {
    const indexes = (await knex.raw(`PRAGMA index_list(${table})`)) as { name: string }[];
    const first = await Promise.all(
      indexes.map(async (i) => ((await knex.raw(`PRAGMA index_info(${i.name})`)) as { seqno: number; name: string }[])[0]?.name ?? ''),
    );
    return first;
  }
  const [rows] = (await knex.raw(`SHOW INDEX FROM ${table}`)) as [{ Column_name: string; Seq_in_index: number }[]];
  return rows.filter((r) => Number(r.Seq_in_index) === 1).map((r) => r.Column_name);
}

// The media service polls the revocation list every few seconds: its two queries read the members
// revoked, disabled or signed out everywhere recently by index, never the whole members table.
describe.each(testBackends())('members on %s', (backend) => {
  const db = useTestDb(backend);

  it("indexes the columns the media service's revocation list reads", async () => {
    expect(await leadingIndexColumns(db.knex, 'members')).toEqual(
      expect.arrayContaining(['access_valid_from', 'revoked_at', 'disabled_at']),
    );
  });
});
