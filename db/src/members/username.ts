import type { Knex } from 'knex';
import { isSqlite } from '../knex';

/**
 * `members` rows with this username in any letter case: "Demo" is "demo". The one lookup the bff and
 * the operator CLI share. Migration 006 makes the unique index agree on both backends: MySQL/MariaDB
 * compare through the column's case-insensitive collation, SQLite through a NOCASE index (which this
 * comparison uses; `lower(username)` would scan the table).
 */
export function memberNamed(db: Knex, username: string): Knex.QueryBuilder {
  return isSqlite(db) ? db('members').whereRaw('username = ? COLLATE NOCASE', [username]) : db('members').where({ username });
}
