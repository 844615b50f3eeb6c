import type { Knex } from 'knex';
import * as m001 from './migrations/001_catalog';
import * as m002 from './migrations/002_catalog_indexes';
import * as m003 from './migrations/003_members';
import * as m004 from './migrations/004_reports';
import * as m005 from './migrations/005_member_disable';
import * as m007 from './migrations/007_media_jobs';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

// Migrations are listed here rather than globbed from disk so they load the same way under
// tsx, vitest and a bundled build. Append new ones; never edit or reorder a released one.
const migrations: Record<string, Migration> = {
  '001_catalog': m001,
  '002_catalog_indexes': m002,
  '003_members': m003,
  '004_reports': m004,
  '005_member_disable': m005,
  // 006 and 008 are reserved for work on other branches.
  '007_media_jobs': m007,
};

const source: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations),
  getMigrationName: (name) => name,
  getMigration: async (name) => {
    const migration = migrations[name];
    if (!migration) throw new Error(`unknown migration ${name}`);
    return migration;
  },
};

export async function migrateLatest(knex: Knex): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest({ migrationSource: source })) as [number, string[]];
  return applied;
}

export async function migrateRollbackAll(knex: Knex): Promise<void> {
  await knex.migrate.rollback({ migrationSource: source }, true);
}
