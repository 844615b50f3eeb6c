import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { afterAll, beforeAll } from 'vitest';
import { createKnex } from './knex';
import { migrateLatest } from './migrate';

export type Backend = 'mysql' | 'sqlite';

export interface TestDb {
  backend: Backend;
  url: string;
  knex: Knex;
  destroy(): Promise<void>;
}

/**
 * Backends the current run tests against: SQLite always, MySQL/MariaDB when DATABASE_URL names one
 * (CI sets it; testcontainers sets it in the global setup when Docker works). With
 * REQUIRE_SERVICES=1 a missing DATABASE_URL is an error, never a silent skip.
 */
export function testBackends(): Backend[] {
  const url = process.env.DATABASE_URL;
  if (url && /^(?:mysql2?|mariadb):\/\//.test(url)) return ['mysql', 'sqlite'];
  if (process.env.REQUIRE_SERVICES === '1') {
    throw new Error('REQUIRE_SERVICES=1 but DATABASE_URL does not name a MySQL/MariaDB server');
  }
  return ['sqlite'];
}

/** A fresh, migrated (unless told not to) database of its own for one test file. */
export async function createTestDb(backend: Backend, options: { migrate?: boolean } = {}): Promise<TestDb> {
  const migrate = options.migrate ?? true;
  if (backend === 'sqlite') {
    const url = 'sqlite::memory:';
    const knex = createKnex(url);
    if (migrate) await migrateLatest(knex);
    return { backend, url, knex, destroy: () => knex.destroy() };
  }
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('DATABASE_URL is not set');
  const name = `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = createKnex(base);
  await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.destroy();
  const u = new URL(base);
  u.pathname = `/${name}`;
  const url = u.toString();
  const knex = createKnex(url);
  if (migrate) await migrateLatest(knex);
  return {
    backend,
    url,
    knex,
    async destroy() {
      await knex.destroy();
      const cleanup = createKnex(base);
      await cleanup.raw(`DROP DATABASE IF EXISTS \`${name}\``);
      await cleanup.destroy();
    },
  };
}

/**
 * A fresh database (as `createTestDb` makes it) for the enclosing `describe`: made in a `beforeAll`
 * registered here, so before the describe's own `beforeAll` hooks, and dropped in an `afterAll`.
 * Its `url` and `knex` are there from that hook on: read them inside hooks and tests.
 */
export function useTestDb(backend: Backend, options: { migrate?: boolean } = {}): TestDb {
  let db: TestDb | undefined;
  beforeAll(async () => {
    db = await createTestDb(backend, options);
  });
  afterAll(async () => {
    await db?.destroy();
  });
  const made = (): TestDb => {
    if (!db) throw new Error('the test database is made in beforeAll: use it inside hooks and tests');
    return db;
  };
  return {
    backend,
    get url() {
      return made().url;
    },
    get knex() {
      return made().knex;
    },
    destroy: () => made().destroy(),
  };
}

/** Redis for tests: REDIS_URL, or an error under REQUIRE_SERVICES=1, else undefined (skip Redis cases). */
export function testRedisUrl(): string | undefined {
  const url = process.env.REDIS_URL;
  if (!url && process.env.REQUIRE_SERVICES === '1') {
    throw new Error('REQUIRE_SERVICES=1 but REDIS_URL is not set');
  }
  return url || undefined;
}

/** A `media_jobs` row as a test sets it up: an encoded item (done, with its manifest) or one still queued (no manifest). */
export const encodeJobRow = (contentType: string, path: string, manifest: string | null) => ({
  content_type: contentType,
  path,
  source_sig: 's',
  status: manifest ? 'done' : 'queued',
  manifest,
  created_at: 1,
  updated_at: 1,
});

/** Gives a member an active purchase of a VOD, as a settled payment would (tests that need a VOD's member files). */
export async function grantVod(knex: Knex, memberId: number, vodId: number): Promise<void> {
  const now = Date.now();
  await knex('subscriptions').insert({
    member_id: memberId,
    kind: 'vod',
    vod_id: vodId,
    provider_subscription_id: null,
    status: 'active',
    paid_until: null,
    created_at: now,
    updated_at: now,
  });
}
