import type { Knex } from 'knex';
import { isSqlite } from '../knex';

// A username is unique in any letter case on both backends. MySQL/MariaDB already compare through a
// case-insensitive collation unless the database was created with a binary or case-sensitive one;
// SQLite compared exactly, so "DEMO" beside "demo" were two accounts. Existing clashes are not
// renamed here (a member would no longer know their username): the migration stops and lists them.
export async function up(knex: Knex): Promise<void> {
  const clashes: { id: unknown; username: unknown; created_at: unknown }[] = await knex('members')
    .whereRaw('lower(username) in (select lower(username) from members group by lower(username) having count(*) > 1)')
    .orderByRaw('lower(username)')
    .orderBy('id')
    .select('id', 'username', 'created_at');
  if (clashes.length > 0) {
    const list = clashes
      .map((r) => `id ${String(r.id)} "${String(r.username)}" (created ${new Date(Number(r.created_at)).toISOString()})`)
      .join(', ');
    throw new Error(
      `usernames must be unique in any letter case, and these members differ only in case: ${list}. ` +
        `Rename all but one of each (UPDATE members SET username = '<new name>' WHERE id = <id>), tell those members their new username, then migrate again.`,
    );
  }
  if (isSqlite(knex)) {
    await knex.raw('CREATE UNIQUE INDEX members_username_nocase_unique ON members (username COLLATE NOCASE)');
    return;
  }
  const column = await knex('information_schema.COLUMNS')
    .where({ TABLE_NAME: 'members', COLUMN_NAME: 'username' })
    .whereRaw('TABLE_SCHEMA = DATABASE()')
    .first('COLLATION_NAME as collation');
  if (!/_ci$/i.test(String(column?.collation ?? ''))) {
    await knex.raw('ALTER TABLE members MODIFY username varchar(15) CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci NOT NULL');
  }
}

export async function down(knex: Knex): Promise<void> {
  // MySQL/MariaDB keep the collation: a case-insensitive unique username is what 003 meant.
  if (isSqlite(knex)) await knex.raw('DROP INDEX IF EXISTS members_username_nocase_unique');
}
