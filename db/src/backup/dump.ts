import type { Knex } from 'knex';
import { bumpGeneration, readGeneration } from '../generation';
import { isSqlite } from '../knex';
import { migrateLatest, migrateUpTo, migrationNames } from '../migrate';

// A logical dump of the whole catalog database, the same on SQLite and MariaDB/MySQL: one header
// line per table ({table, columns}) followed by its rows as JSON arrays, read inside one read
// transaction (a WAL snapshot on SQLite, InnoDB's consistent snapshot on MariaDB), so the set is as
// of one instant while the site keeps writing. Every column is a string, a number or null (times
// are unix milliseconds in bigint columns), so a set restores on either engine: the embedded
// default's catalog moves to MariaDB the same way it comes back after a lost disk.

/** knex's own bookkeeping: the set records the migrations by name instead. */
const SKIPPED = new Set(['knex_migrations', 'knex_migrations_lock']);

export interface DumpHeader {
  table: string;
  columns: string[];
}

export interface DumpSummary {
  client: 'sqlite' | 'mysql';
  /** The migrations applied when the dump was read, in order. */
  migrations: string[];
  /** Rows per table, in the order they were written (parents before children). */
  tables: Record<string, number>;
}

/** Rows whose presence means "this database is in use": restore refuses to write over them. */
const IN_USE_TABLES = ['members', 'admins', 'models', 'photosets', 'freephotosets', 'videos', 'vods'];

type Row = Record<string, unknown>;

async function tableNames(knex: Knex | Knex.Transaction, sqlite: boolean): Promise<string[]> {
  const rows: Row[] = sqlite
    ? await knex('sqlite_master').where({ type: 'table' }).whereNot('name', 'like', 'sqlite_%').select('name')
    : await knex('information_schema.tables')
        .whereRaw('table_schema = database()')
        .andWhere({ table_type: 'BASE TABLE' })
        .select({ name: 'table_name' });
  return rows.map((r) => String(r.name)).filter((name) => !SKIPPED.has(name));
}

async function parentsOf(knex: Knex | Knex.Transaction, sqlite: boolean, table: string): Promise<string[]> {
  if (sqlite) {
    const rows = (await knex.raw(`pragma foreign_key_list(${JSON.stringify(table)})`)) as Row[];
    return rows.map((r) => String(r.table));
  }
  const rows: Row[] = await knex('information_schema.key_column_usage')
    .whereRaw('table_schema = database()')
    .andWhere({ table_name: table })
    .whereNotNull('referenced_table_name')
    .select({ parent: 'referenced_table_name' });
  return rows.map((r) => String(r.parent));
}

/** The tables, each after the tables its foreign keys name (a self-reference does not count). */
export async function tablesInOrder(knex: Knex | Knex.Transaction): Promise<string[]> {
  const sqlite = isSqlite(knex as Knex);
  const names = (await tableNames(knex, sqlite)).sort();
  const parents = new Map<string, string[]>();
  for (const name of names)
    parents.set(
      name,
      (await parentsOf(knex, sqlite, name)).filter((p) => p !== name && names.includes(p)),
    );
  const ordered: string[] = [];
  const placed = new Set<string>();
  const visit = (name: string, path: Set<string>) => {
    if (placed.has(name) || path.has(name)) return;
    path.add(name);
    for (const parent of parents.get(name) ?? []) visit(parent, path);
    placed.add(name);
    ordered.push(name);
  };
  for (const name of names) visit(name, new Set());
  return ordered;
}

async function appliedMigrations(knex: Knex | Knex.Transaction): Promise<string[]> {
  if (!(await knex.schema.hasTable('knex_migrations'))) return [];
  const rows: Row[] = await knex('knex_migrations').orderBy('id').select('name');
  return rows.map((r) => String(r.name));
}

/** A table's columns in their order, and its primary key's (the dump's row order: the same set, the same file). */
async function columnsOf(trx: Knex.Transaction, sqlite: boolean, table: string): Promise<{ columns: string[]; key: string[] }> {
  if (sqlite) {
    const info = (await trx.raw(`pragma table_info(${JSON.stringify(table)})`)) as Row[];
    const key = info.filter((c) => Number(c.pk) > 0).sort((a, b) => Number(a.pk) - Number(b.pk));
    return { columns: info.map((c) => String(c.name)), key: key.map((c) => String(c.name)) };
  }
  const info: Row[] = await trx('information_schema.columns')
    .whereRaw('table_schema = database()')
    .andWhere({ table_name: table })
    .orderBy('ordinal_position')
    .select({ name: 'column_name', key: 'column_key' });
  return { columns: info.map((c) => String(c.name)), key: info.filter((c) => c.key === 'PRI').map((c) => String(c.name)) };
}

/** JSON has no bytes: a binary value is written as {"b64": "..."} and read back as a Buffer. */
function encodeValue(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return { b64: value.toString('base64') };
  if (typeof value === 'bigint') return value.toString();
  return value;
}

function decodeValue(value: unknown): unknown {
  if (value && typeof value === 'object' && 'b64' in value) return Buffer.from(String((value as { b64: unknown }).b64), 'base64');
  return value;
}

/**
 * Writes every table (but knex's own) as lines through `write` (which may wait: it returns a
 * promise a slow sink resolves later), inside one read transaction.
 */
export async function dumpDatabase(knex: Knex, write: (line: string) => Promise<void> | void): Promise<DumpSummary> {
  const sqlite = isSqlite(knex);
  return knex.transaction(
    async (trx) => {
      const migrations = await appliedMigrations(trx);
      const tables: Record<string, number> = {};
      for (const table of await tablesInOrder(trx)) {
        const { columns, key } = await columnsOf(trx, sqlite, table);
        await write(JSON.stringify({ table, columns } satisfies DumpHeader));
        let count = 0;
        const stream = trx(table).select(columns).orderBy(key).stream({ highWaterMark: 500 });
        for await (const row of stream as AsyncIterable<Row>) {
          await write(JSON.stringify(columns.map((c) => encodeValue(row[c]))));
          count += 1;
        }
        tables[table] = count;
      }
      return { client: sqlite ? 'sqlite' : 'mysql', migrations, tables };
    },
    // InnoDB's default, said out loud: every read sees the snapshot the first one took.
    sqlite ? undefined : { isolationLevel: 'repeatable read' },
  );
}

/** A restore that must not go ahead: the message says why and what to do. */
export class RestoreRefused extends Error {}

/**
 * What stands in the way of loading a dump taken at `migrations` into this database: a set from a
 * newer version, or rows a site in use would have; null when it may go ahead.
 */
export async function restoreProblem(knex: Knex, migrations: string[]): Promise<string | null> {
  const known = migrationNames();
  const unknown = migrations.filter((m) => !known.includes(m));
  if (unknown.length > 0)
    return `the set was made by a newer version (migrations ${unknown.join(', ')} are unknown here): restore it with that version`;
  if (migrations.some((m, i) => known[i] !== m))
    return "the set's migrations are not a prefix of this version's: restore it with the version that made it";
  for (const table of IN_USE_TABLES) {
    if (!(await knex.schema.hasTable(table))) continue;
    const row = (await knex(table).count({ n: '*' }).first()) as { n: number | string } | undefined;
    if (Number(row?.n ?? 0) > 0) return `this database is in use (${table} has ${Number(row?.n)} rows): restore into an empty database`;
  }
  return null;
}

/**
 * The empty database's schema at exactly `migrations`: as it is when it is there already, else
 * built from nothing (a started stack has migrated to this version's latest; its tables hold no
 * site data, restoreProblem made sure, and are dropped).
 */
async function schemaAt(knex: Knex, migrations: string[]): Promise<void> {
  const applied = await appliedMigrations(knex);
  if (applied.join() === migrations.join()) return;
  if (applied.length > 0) {
    const sqlite = isSqlite(knex);
    const tables = [...(await tablesInOrder(knex)), 'knex_migrations', 'knex_migrations_lock'];
    await knex.transaction(async (trx) => {
      if (!sqlite) await trx.raw('set foreign_key_checks = 0');
      try {
        for (const table of tables.reverse()) await trx.schema.dropTableIfExists(table);
      } finally {
        if (!sqlite) await trx.raw('set foreign_key_checks = 1');
      }
    });
  }
  if (migrations.length > 0) await migrateUpTo(knex, migrations.at(-1)!);
}

/** The dump's rows into `trx`, each table emptied first; counts them per table into `counts`. */
async function loadRows(trx: Knex.Transaction, lines: AsyncIterable<string>, counts: Record<string, number>): Promise<void> {
  const order = await tablesInOrder(trx);
  for (const table of [...order].reverse()) await trx(table).del();
  let header: DumpHeader | undefined;
  let batch: Row[] = [];
  const flush = async () => {
    for (let i = 0; header && i < batch.length; i += 200) await trx(header.table).insert(batch.slice(i, i + 200));
    batch = [];
  };
  for await (const line of lines) {
    if (line === '') continue;
    const parsed = JSON.parse(line) as unknown;
    if (!Array.isArray(parsed)) {
      await flush();
      header = parsed as DumpHeader;
      if (!order.includes(header.table)) throw new RestoreRefused(`the set has a table this schema lacks: ${header.table}`);
      counts[header.table] = 0;
      continue;
    }
    if (!header) throw new RestoreRefused('the database dump starts with a row, not a table header');
    const { columns } = header;
    batch.push(Object.fromEntries(columns.map((c, i) => [c, decodeValue(parsed[i])])));
    counts[header.table]! += 1;
    if (batch.length >= 1000) await flush();
  }
  await flush();
}

/**
 * Loads a dump (its lines, in order) into an empty database: the schema at the set's migrations,
 * every row in one transaction (the tables' own rows first removed: a started stack's bookkeeping),
 * then this version's migrations since the set's. The catalog generation ends above both the set's and the database's
 * own, so no running bff keeps a listing it cached while the database was empty.
 */
export async function loadDatabase(knex: Knex, migrations: string[], lines: AsyncIterable<string>): Promise<Record<string, number>> {
  const problem = await restoreProblem(knex, migrations);
  if (problem) throw new RestoreRefused(problem);
  const before = (await knex.schema.hasTable('catalog_meta')) ? await readGeneration(knex) : 0;
  await schemaAt(knex, migrations);
  const sqlite = isSqlite(knex);
  const counts: Record<string, number> = {};
  await knex.transaction(async (trx) => {
    // Rows go in parents first; the checks wait for the commit anyway (a table that names itself).
    await trx.raw(sqlite ? 'pragma defer_foreign_keys = on' : 'set foreign_key_checks = 0');
    try {
      await loadRows(trx, lines, counts);
    } finally {
      if (!sqlite) await trx.raw('set foreign_key_checks = 1');
    }
  });
  await migrateLatest(knex);
  if (await knex.schema.hasTable('catalog_meta')) {
    const restored = await readGeneration(knex);
    if (restored <= before) await knex('catalog_meta').where({ name: 'generation' }).update({ value: before });
    await bumpGeneration(knex);
  }
  return counts;
}
