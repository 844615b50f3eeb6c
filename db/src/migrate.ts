import type { Knex } from 'knex';
import * as m001 from './migrations/001_catalog';
import * as m002 from './migrations/002_catalog_indexes';
import * as m003 from './migrations/003_members';
import * as m004 from './migrations/004_reports';
import * as m005 from './migrations/005_member_disable';
import * as m006 from './migrations/006_username_nocase';
import * as m007 from './migrations/007_media_jobs';
import * as m008 from './migrations/008_takedown_free_sets';
import * as m009 from './migrations/009_search_fold';
import * as m010 from './migrations/010_payment_binding';
import * as m011 from './migrations/011_access_valid_from';
import * as m012 from './migrations/012_mail';
import * as m013 from './migrations/013_clip_duration';
import * as m014 from './migrations/014_purge_outbox';
import * as m015 from './migrations/015_publish_at';
import * as m016 from './migrations/016_admins';
import * as m017 from './migrations/017_admin_totp_sealed';
import * as m018 from './migrations/018_ingest_runs_teased';
import * as m019 from './migrations/019_media_list_polls';
import * as m023 from './migrations/023_members_access_indexes';
import * as m024 from './migrations/024_admin_reauth_passkey_names';
import * as m025 from './migrations/025_backup_runs';
import * as m026 from './migrations/026_switches';
import * as m027 from './migrations/027_ingest_attempts';
import * as m028 from './migrations/028_saved_items';
import * as m029 from './migrations/029_release_mail';
import * as m030 from './migrations/030_content_tags';
import * as m031 from './migrations/031_membership_offers';
import * as m032 from './migrations/032_content_stats';
import * as m033 from './migrations/033_vod_price_defaults';

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
  '006_username_nocase': m006,
  '007_media_jobs': m007,
  '008_takedown_free_sets': m008,
  '009_search_fold': m009,
  '010_payment_binding': m010,
  '011_access_valid_from': m011,
  '012_mail': m012,
  '013_clip_duration': m013,
  '014_purge_outbox': m014,
  '015_publish_at': m015,
  '016_admins': m016,
  '017_admin_totp_sealed': m017,
  '018_ingest_runs_teased': m018,
  '019_media_list_polls': m019,
  '023_members_access_indexes': m023,
  '024_admin_reauth_passkey_names': m024,
  '025_backup_runs': m025,
  '026_switches': m026,
  '027_ingest_attempts': m027,
  '028_saved_items': m028,
  '029_release_mail': m029,
  '030_content_tags': m030,
  '031_membership_offers': m031,
  '032_content_stats': m032,
  '033_vod_price_defaults': m033,
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

/** Every migration this version knows, in the order they apply. */
export function migrationNames(): string[] {
  return Object.keys(migrations);
}

export async function migrateLatest(knex: Knex): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest({ migrationSource: source })) as [number, string[]];
  return applied;
}

/** Applies the migrations up to and including `last`, on a database that has none of them yet (tests of one migration). */
export async function migrateUpTo(knex: Knex, last: string): Promise<void> {
  const names = Object.keys(migrations);
  const end = names.indexOf(last);
  if (end < 0) throw new Error(`unknown migration ${last}`);
  for (const name of names.slice(0, end + 1)) await knex.migrate.up({ migrationSource: source, name });
}

export async function migrateRollbackAll(knex: Knex): Promise<void> {
  await knex.migrate.rollback({ migrationSource: source }, true);
}
