import { createWriteStream, existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { Knex } from 'knex';
import { dumpDatabase, loadDatabase, recordBackupRun, restoreProblem, RestoreRefused } from '@media-site/db/backup';
import { hostname } from 'node:os';
import { safeSegments, type MediaSource, type MediaTarget, type SourceFile } from './media';
import {
  BackupError,
  type BackupStore,
  DATABASE_FILE,
  Digest,
  DIR_MODE,
  FILE_MODE,
  FORMAT,
  gzLines,
  MEDIA_FILE,
  setIdAt,
  sha256OfFile,
  type Manifest,
  type MediaEntry,
} from './store';

/**
 * Files copied at once: the work is mostly waiting (a disk, the bucket's round trips), and the
 * set's list keeps the walk's order.
 */
const IN_FLIGHT = 8;

/**
 * `fn` over `source` with up to `limit` calls running, the results in the source's order. A call
 * that fails fails the loop when its turn comes (the others are left to settle).
 */
export async function* mapOrdered<T, R>(source: AsyncIterable<T>, limit: number, fn: (item: T) => Promise<R>): AsyncIterable<R> {
  const running: Promise<R>[] = [];
  for await (const item of source) {
    const result = fn(item);
    result.catch(() => {});
    running.push(result);
    if (running.length >= limit) yield await running.shift()!;
  }
  while (running.length > 0) yield await running.shift()!;
}

/** A gzipped line file being written, with the sha256 and size of what lands on disk. */
function lineWriter(file: string) {
  const gzip = createGzip({ level: 6 });
  const digest = new Digest();
  const done = pipeline(gzip, digest, createWriteStream(file, { mode: FILE_MODE }));
  return {
    async write(line: string): Promise<void> {
      if (!gzip.write(`${line}\n`)) await once(gzip, 'drain');
    },
    async close(): Promise<{ sha256: string; bytes: number }> {
      gzip.end();
      await done;
      return { sha256: digest.hex(), bytes: digest.bytes };
    },
    /** A run that failed: the file is let go (the next run clears the unfinished set). */
    abort(): void {
      gzip.destroy();
      done.catch(() => {});
    },
  };
}

export interface BackupOptions {
  knex: Knex;
  store: BackupStore;
  media: MediaSource;
  keepDaily: number;
  keepWeekly: number;
  now?: () => number;
  log?: (line: string) => void;
  /** Stops the run between files (a service told to stop): no set is written, the next run starts over. */
  signal?: AbortSignal;
}

export interface BackupResult {
  manifest: Manifest;
  /** Files listed by the walk that were gone when their turn came (deleted meanwhile). */
  vanished: number;
  pruned: string[];
  objectsRemoved: number;
}

/**
 * Writes a new set: the database as of one instant, then every media file, copying only bytes no
 * earlier set holds; then retention. The set exists once its manifest is written (last).
 */
export function backup(options: BackupOptions): Promise<BackupResult> {
  const { store, knex } = options;
  const now = options.now ?? Date.now;
  return store.locked('backup', async () => {
    const startedAt = now();
    try {
      const result = await writeSet(options, startedAt);
      const { manifest: m } = result;
      await recordBackupRun(knex, {
        status: 'ok',
        setId: m.id,
        host: hostname(),
        startedAt,
        finishedAt: m.finishedAt,
        rows: m.database.rows,
        files: m.media.files,
        bytes: m.media.bytes,
        copiedBytes: m.media.copiedBytes,
      });
      return result;
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      await recordBackupRun(knex, { status: 'failed', host: hostname(), startedAt, finishedAt: now(), error }).catch(() => {});
      throw err;
    }
  });
}

/** The set itself (backup() holds the lock and records the run). */
async function writeSet(options: BackupOptions, startedAt: number): Promise<BackupResult> {
  const { store, knex, media } = options;
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => {});
  await store.clearUnfinished();
  const previous = (await store.sets()).at(-1);
  const known = new Map<string, MediaEntry>();
  if (previous) for await (const entry of store.mediaEntries(previous)) known.set(entry.path, entry);
  const id = setIdAt(startedAt);
  const dir = store.setDir(id);
  if (existsSync(dir)) throw new BackupError(`set ${id} exists already`);
  await mkdir(dir, { recursive: true, mode: DIR_MODE });

  options.signal?.throwIfAborted();
  const dbOut = lineWriter(join(dir, DATABASE_FILE));
  const dump = await dumpDatabase(knex, (line) => dbOut.write(line)).catch((err: unknown) => {
    dbOut.abort();
    throw err;
  });
  const dbFile = await dbOut.close();
  const rows = Object.values(dump.tables).reduce((a, b) => a + b, 0);
  log(`database: ${rows} rows in ${Object.keys(dump.tables).length} tables (${dbFile.bytes} bytes compressed)`);

  const mediaOut = lineWriter(join(dir, MEDIA_FILE));
  let files = 0;
  let bytes = 0;
  let copiedFiles = 0;
  let copiedBytes = 0;
  let vanished = 0;
  const copy = async (file: SourceFile): Promise<{ entry: MediaEntry; added: boolean } | null> => {
    const before = known.get(file.path);
    if (before && before.version === file.version && existsSync(store.objectPath(before.sha256))) return { entry: before, added: false };
    const opened = await media.open(file.path);
    if (!opened) return null;
    const stored = await store.putObject(opened.body);
    const entry = {
      path: file.path,
      size: stored.bytes,
      mtimeMs: Math.round(opened.mtimeMs),
      sha256: stored.sha256,
      version: file.version,
    };
    return { entry, added: stored.added };
  };
  try {
    for await (const copied of mapOrdered(media.walk(), IN_FLIGHT, copy)) {
      options.signal?.throwIfAborted();
      if (!copied) {
        vanished += 1;
        continue;
      }
      const { entry } = copied;
      if (copied.added) {
        copiedFiles += 1;
        copiedBytes += entry.size;
      }
      await mediaOut.write(JSON.stringify([entry.path, entry.size, entry.mtimeMs, entry.sha256, entry.version]));
      files += 1;
      bytes += entry.size;
    }
  } catch (err) {
    mediaOut.abort();
    throw err;
  }
  const mediaFile = await mediaOut.close();
  log(`media: ${files} files, ${bytes} bytes; copied ${copiedFiles} new (${copiedBytes} bytes)`);

  const manifest: Manifest = {
    format: FORMAT,
    id,
    startedAt,
    finishedAt: now(),
    database: { ...dump, file: DATABASE_FILE, bytes: dbFile.bytes, sha256: dbFile.sha256, rows },
    media: { storage: media.kind, file: MEDIA_FILE, sha256: mediaFile.sha256, files, bytes, copiedFiles, copiedBytes },
  };
  await store.writeManifest(manifest);
  const pruned = await store.prune(options.keepDaily, options.keepWeekly);
  if (pruned.removed.length > 0) log(`retention: removed sets ${pruned.removed.join(', ')} and ${pruned.objectsRemoved} objects`);
  return { manifest, vanished, pruned: pruned.removed, objectsRemoved: pruned.objectsRemoved };
}

/** What a verification found wrong with a set; empty when every byte is as recorded. */
export async function verifySet(store: BackupStore, manifest: Manifest, log: (line: string) => void = () => {}): Promise<string[]> {
  const problems: string[] = [];
  const dir = store.setDir(manifest.id);
  for (const [name, expected] of [
    [manifest.database.file, manifest.database.sha256],
    [manifest.media.file, manifest.media.sha256],
  ] as const) {
    const file = join(dir, name);
    if (!existsSync(file)) {
      problems.push(`${name}: missing`);
      continue;
    }
    const { sha256 } = await sha256OfFile(file);
    if (sha256 !== expected) problems.push(`${name}: damaged (sha256 differs from the manifest's)`);
  }
  if (problems.length > 0) return problems;
  let files = 0;
  let bytes = 0;
  for await (const entry of store.mediaEntries(manifest)) {
    files += 1;
    bytes += entry.size;
    try {
      safeSegments(entry.path);
    } catch (err) {
      problems.push((err as Error).message);
      continue;
    }
    const object = store.objectPath(entry.sha256);
    if (!existsSync(object)) {
      problems.push(`${entry.path}: its object ${entry.sha256.slice(0, 12)}… is missing`);
      continue;
    }
    const found = await sha256OfFile(object);
    if (found.sha256 !== entry.sha256 || found.bytes !== entry.size) problems.push(`${entry.path}: its object is damaged`);
    if (files % 1000 === 0) log(`verified ${files} of ${manifest.media.files} files`);
  }
  if (files !== manifest.media.files || bytes !== manifest.media.bytes) {
    problems.push(
      `the media list holds ${files} files (${bytes} bytes); the manifest says ${manifest.media.files} (${manifest.media.bytes})`,
    );
  }
  return problems;
}

export interface RestoreOptions {
  knex: Knex;
  store: BackupStore;
  media: MediaTarget;
  /** A set id or "latest". */
  set: string;
  /** Verify the set and say whether the target would accept it; change nothing. */
  dryRun?: boolean;
  log?: (line: string) => void;
}

export interface RestoreResult {
  manifest: Manifest;
  /** The dry run's findings (empty: the set is whole). */
  problems: string[];
  /** Why the database would refuse the set (dry run), null when it would take it. */
  refused: string | null;
  placed: number;
  same: number;
  rows: Record<string, number>;
}

/**
 * Puts a set back into an empty stack: the media first (a file already there with the same size
 * and mtime is kept, so a restore that stopped goes on where it was), each object's bytes checked
 * against the set on the way; then the database in one transaction, its row counts compared with
 * the manifest's.
 */
export function restore(options: RestoreOptions): Promise<RestoreResult> {
  const { store, knex } = options;
  const log = options.log ?? (() => {});
  return store.locked(
    options.dryRun ? 'restore --dry-run' : 'restore',
    async () => {
      const manifest = await store.resolve(options.set);
      const refused = await restoreProblem(knex, manifest.database.migrations);
      if (options.dryRun) {
        const problems = await verifySet(store, manifest, log);
        return { manifest, problems, refused, placed: 0, same: 0, rows: {} };
      }
      if (refused) throw new RestoreRefused(refused);
      const dbFile = join(store.setDir(manifest.id), manifest.database.file);
      if ((await sha256OfFile(dbFile)).sha256 !== manifest.database.sha256)
        throw new BackupError(`${DATABASE_FILE}: damaged (sha256 differs from the manifest's)`);
      let placed = 0;
      let same = 0;
      const place = async (entry: MediaEntry) => {
        const object = store.objectPath(entry.sha256);
        if (!existsSync(object)) throw new BackupError(`${entry.path}: its object ${entry.sha256.slice(0, 12)}… is missing from the set`);
        return options.media.place(entry, object);
      };
      for await (const outcome of mapOrdered(store.mediaEntries(manifest), IN_FLIGHT, place)) {
        if (outcome === 'placed') placed += 1;
        else same += 1;
        if ((placed + same) % 1000 === 0) log(`media: ${placed + same} of ${manifest.media.files} files`);
      }
      log(`media: ${placed} files placed, ${same} already there`);
      const rows = await loadDatabase(knex, manifest.database.migrations, gzLines(dbFile));
      for (const [table, count] of Object.entries(manifest.database.tables)) {
        if ((rows[table] ?? 0) !== count) throw new BackupError(`${table}: restored ${rows[table] ?? 0} rows, the set holds ${count}`);
      }
      log(`database: ${Object.values(rows).reduce((a, b) => a + b, 0)} rows restored`);
      return { manifest, problems: [], refused: null, placed, same, rows };
    },
    { readOnly: true },
  );
}
