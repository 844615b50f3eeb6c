import knexFactory, { type Knex } from 'knex';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

export type DbClient = 'mysql2' | 'better-sqlite3';

/**
 * DATABASE_URL forms: mysql://user:pass@host:3306/db (MySQL 8 / MariaDB 10.11+),
 * sqlite:relative/or/absolute/path.sqlite, sqlite::memory:.
 */
export function clientOf(url: string): DbClient {
  if (/^mysql2?:\/\//.test(url) || /^mariadb:\/\//.test(url)) return 'mysql2';
  if (url.startsWith('sqlite:')) return 'better-sqlite3';
  throw new Error(`DATABASE_URL must start with mysql:// or sqlite: (got ${url.split(':')[0]}:)`);
}

export interface KnexOptions {
  /** Max connections in the pool (MySQL only). */
  poolMax?: number;
  /** How long a query may wait for a connection before failing; keeps "database down" answers fast. */
  acquireTimeoutMs?: number;
  /** Where knex's own warnings go (default: console.log, several lines each). */
  log?: Knex.Config['log'];
}

export function createKnex(url: string, options: KnexOptions = {}): Knex {
  const client = clientOf(url);
  const acquireTimeoutMillis = options.acquireTimeoutMs ?? 1500;
  if (client === 'mysql2') {
    const u = new URL(url.replace(/^(mariadb|mysql2):/, 'mysql:'));
    return knexFactory({
      client: 'mysql2',
      connection: {
        host: u.hostname,
        port: Number(u.port || 3306),
        user: decodeURIComponent(u.username),
        password: decodeURIComponent(u.password),
        database: decodeURIComponent(u.pathname.replace(/^\//, '')),
        charset: 'utf8mb4',
        dateStrings: true,
        supportBigNumbers: true,
        bigNumberStrings: true,
        connectTimeout: 1500,
        timezone: 'Z',
      },
      pool: { min: 0, max: options.poolMax ?? 10, idleTimeoutMillis: 30_000 },
      acquireConnectionTimeout: acquireTimeoutMillis,
      ...(options.log ? { log: options.log } : {}),
    });
  }
  const filename = url.slice('sqlite:'.length);
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  return knexFactory({
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    acquireConnectionTimeout: acquireTimeoutMillis,
    ...(options.log ? { log: options.log } : {}),
    pool: {
      min: 1,
      max: 1,
      afterCreate: (conn: { pragma: (s: string) => void }, done: (err: Error | null, conn: unknown) => void) => {
        conn.pragma('journal_mode = WAL');
        conn.pragma('foreign_keys = ON');
        conn.pragma('busy_timeout = 2000');
        done(null, conn);
      },
    },
  });
}

export function isSqlite(knex: Knex): boolean {
  return knex.client.config.client === 'better-sqlite3';
}

/** A unique or primary key refused the row (MySQL/MariaDB ER_DUP_ENTRY, SQLite's constraint codes). */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return (
    code === 'ER_DUP_ENTRY' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === 'SQLITE_CONSTRAINT'
  );
}

/** Whether the database answers a trivial query now (a readiness probe); never throws. */
export function databaseAnswers(knex: Knex): Promise<boolean> {
  return knex.raw('select 1').then(
    () => true,
    () => false,
  );
}
