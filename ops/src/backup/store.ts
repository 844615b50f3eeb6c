import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { link, mkdir, open, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { Transform, Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { createInterface } from 'node:readline';
import type { DumpSummary } from '@media-site/db/backup';

// The backup folder (BACKUP_DIR):
//   sets/<id>/manifest.json        written last: a set without it never finished and is not a set
//   sets/<id>/database.ndjson.gz   the logical dump (db/src/backup/dump.ts)
//   sets/<id>/media.ndjson.gz      one line per media file: [path, size, mtimeMs, sha256, version]
//   objects/<2 hex>/<sha256>       each file's bytes once, whatever path or set names them
//   tmp/                           objects being written; emptied by the next run
//   lock                           held by the one backup, restore or pruning at work on the folder
// A new set copies only the bytes no earlier set holds (the media are compared by size and mtime,
// or ETag, with the newest set first), so a daily set of an unchanged site costs its dump only.

export const MANIFEST = 'manifest.json';
export const DATABASE_FILE = 'database.ndjson.gz';
export const MEDIA_FILE = 'media.ndjson.gz';
export const FORMAT = 1;

export interface Manifest {
  format: typeof FORMAT;
  id: string;
  startedAt: number;
  finishedAt: number;
  database: DumpSummary & { file: string; bytes: number; sha256: string; rows: number };
  media: {
    storage: 'local' | 's3';
    file: string;
    sha256: string;
    files: number;
    bytes: number;
    /** What this set copied that no earlier set held. */
    copiedFiles: number;
    copiedBytes: number;
  };
}

/** One media file of a set. `version` says whether the bytes may have changed since (size+mtime, or size+ETag). */
export interface MediaEntry {
  path: string;
  size: number;
  mtimeMs: number;
  sha256: string;
  version: string;
}

export class BackupError extends Error {}

/**
 * A set holds password and session hashes and members-only media: the folder and what is written
 * in it are its owner's alone (the images' user in compose, who reads it back to restore).
 */
export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

/** How often the lock's holder touches it, and how long untouched makes it a dead run's. */
export const LOCK_BEAT_MS = 20_000;
export const LOCK_STALE_MS = 120_000;

/** A set id: the UTC time it started, sortable as text (20261128T183000.123Z). */
export function setIdAt(ms: number): string {
  return new Date(ms).toISOString().replace(/[-:]/g, '');
}

const SET_ID = /^\d{8}T\d{6}\.\d{3}Z$/;

export function isSetId(id: string): boolean {
  return SET_ID.test(id);
}

/** sha256 and size of what passes through; the bytes go on unchanged. */
export class Digest extends Transform {
  private readonly hash = createHash('sha256');
  bytes = 0;
  constructor() {
    super({
      transform: (chunk: Buffer, _enc, done) => {
        this.hash.update(chunk);
        this.bytes += chunk.length;
        done(null, chunk);
      },
    });
  }
  hex(): string {
    return this.hash.digest('hex');
  }
}

export async function sha256OfFile(file: string): Promise<{ sha256: string; bytes: number }> {
  const digest = new Digest();
  await pipeline(createReadStream(file, { highWaterMark: 1024 * 1024 }), digest, new Writable({ write: (_chunk, _enc, done) => done() }));
  return { sha256: digest.hex(), bytes: digest.bytes };
}

/**
 * The lines of a gzipped text file, read from the first `next()` on (readline starts reading as it is
 * made, and lines it emits before the loop asks are lost: a restore migrates before it reads).
 */
export async function* gzLines(file: string): AsyncIterable<string> {
  const input = createReadStream(file);
  const gunzip = createGunzip();
  input.on('error', (err) => gunzip.destroy(err));
  yield* createInterface({ input: input.pipe(gunzip), crlfDelay: Infinity });
}

export class BackupStore {
  constructor(readonly dir: string) {}

  setDir(id: string): string {
    return join(this.dir, 'sets', id);
  }

  objectPath(sha256: string): string {
    return join(this.dir, 'objects', sha256.slice(0, 2), sha256);
  }

  /**
   * Takes the folder's lock (one backup, restore or prune at a time) for `work`, then gives it back.
   * The holder touches the lock every LOCK_BEAT_MS; a lock untouched for LOCK_STALE_MS, or left by a
   * process of this host that is gone, was left by a run that died (a container killed mid-set) and
   * is taken over.
   */
  async locked<T>(what: string, work: () => Promise<T>, options: { readOnly?: boolean } = {}): Promise<T> {
    if (!options.readOnly) await mkdir(this.dir, { recursive: true, mode: DIR_MODE });
    const file = join(this.dir, 'lock');
    const mine = JSON.stringify({ what, host: hostname(), pid: process.pid, since: new Date().toISOString() });
    for (let attempt = 0; ; attempt += 1) {
      try {
        const handle = await open(file, 'wx');
        await handle.writeFile(mine);
        await handle.close();
        break;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        // A reader (restore) of a folder it may not write (a read-only mount of the off-site copy):
        // nothing here can prune it, so it reads without the lock.
        if (options.readOnly && (code === 'EROFS' || code === 'EACCES' || code === 'EPERM')) return work();
        if (options.readOnly && code === 'ENOENT') throw new BackupError(`no finished set in ${this.dir}: the folder does not exist`);
        if (code !== 'EEXIST' || attempt > 0) throw err;
        const held = await readFile(file, 'utf8').catch(() => '');
        if (!(await this.stale(file, held))) {
          throw new BackupError(`another ${held ? describeLock(held) : 'run'} is using ${this.dir}; if none is running, remove ${file}`);
        }
        await rm(file, { force: true });
      }
    }
    const beat = setInterval(() => {
      const now = new Date();
      utimes(file, now, now).catch(() => {});
    }, LOCK_BEAT_MS);
    beat.unref();
    try {
      return await work();
    } finally {
      clearInterval(beat);
      await rm(file, { force: true });
    }
  }

  private async stale(file: string, held: string): Promise<boolean> {
    const touched = (await stat(file).catch(() => null))?.mtimeMs;
    if (touched !== undefined && Date.now() - touched > LOCK_STALE_MS) return true;
    try {
      const lock = JSON.parse(held) as { host?: string; pid?: number };
      if (lock.host !== hostname() || typeof lock.pid !== 'number' || lock.pid <= 0) return false;
      try {
        process.kill(lock.pid, 0);
        return false;
      } catch (err) {
        return (err as NodeJS.ErrnoException).code === 'ESRCH';
      }
    } catch {
      return false;
    }
  }

  /** The finished sets, oldest first. */
  async sets(): Promise<Manifest[]> {
    const dir = join(this.dir, 'sets');
    const names = (await readdir(dir).catch(() => [] as string[])).filter(isSetId).sort();
    const manifests: Manifest[] = [];
    for (const id of names) {
      const manifest = await this.manifest(id).catch(() => null);
      if (manifest) manifests.push(manifest);
    }
    return manifests;
  }

  async manifest(id: string): Promise<Manifest> {
    if (!isSetId(id)) throw new BackupError(`"${id}" is not a set id (like 20261128T183000.123Z)`);
    const file = join(this.setDir(id), MANIFEST);
    if (!existsSync(file)) throw new BackupError(`no finished set ${id} in ${this.dir}`);
    const manifest = JSON.parse(await readFile(file, 'utf8')) as Manifest;
    if (manifest.format !== FORMAT) throw new BackupError(`set ${id} has format ${String(manifest.format)}; this version reads ${FORMAT}`);
    return manifest;
  }

  /** `id`, or the newest set for "latest". */
  async resolve(id: string): Promise<Manifest> {
    if (id !== 'latest') return this.manifest(id);
    const newest = (await this.sets()).at(-1);
    if (!newest) throw new BackupError(`no finished set in ${this.dir}`);
    return newest;
  }

  async *mediaEntries(manifest: Manifest): AsyncIterable<MediaEntry> {
    for await (const line of gzLines(join(this.setDir(manifest.id), manifest.media.file))) {
      if (line === '') continue;
      const [path, size, mtimeMs, sha256, version] = JSON.parse(line) as [string, number, number, string, string];
      yield { path, size, mtimeMs, sha256, version };
    }
  }

  /**
   * Stores what `source` yields as an object (hashing it on the way into tmp/, then renaming), or
   * drops the copy when the object is there already; returns its hash and size and whether it was new.
   */
  async putObject(source: Readable): Promise<{ sha256: string; bytes: number; added: boolean }> {
    const tmpDir = join(this.dir, 'tmp');
    await mkdir(tmpDir, { recursive: true, mode: DIR_MODE });
    const tmp = join(tmpDir, randomBytes(8).toString('hex'));
    const digest = new Digest();
    try {
      await pipeline(source, digest, createWriteStream(tmp, { mode: FILE_MODE }));
      const sha256 = digest.hex();
      const dest = this.objectPath(sha256);
      await mkdir(join(dest, '..'), { recursive: true, mode: DIR_MODE });
      try {
        // link, not rename: it refuses an existing name, so of two copies of the same bytes at once
        // exactly one is added.
        await link(tmp, dest);
        return { sha256, bytes: digest.bytes, added: true };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') return { sha256, bytes: digest.bytes, added: false };
        throw err;
      }
    } finally {
      await rm(tmp, { force: true });
    }
  }

  /** Leftovers of a run that stopped: sets without a manifest and half-written objects. */
  async clearUnfinished(): Promise<void> {
    await rm(join(this.dir, 'tmp'), { recursive: true, force: true });
    for (const name of await readdir(join(this.dir, 'sets')).catch(() => [] as string[])) {
      if (!existsSync(join(this.setDir(name), MANIFEST))) await rm(this.setDir(name), { recursive: true, force: true });
    }
  }

  /**
   * Keeps the newest set of each of the last `daily` days and of each of the last `weekly` weeks
   * (UTC; weeks from Monday), and always the newest; removes the other sets, then every object no
   * kept set names. Returns the removed sets' ids.
   */
  async prune(daily: number, weekly: number): Promise<{ removed: string[]; objectsRemoved: number; bytesFreed: number }> {
    const sets = await this.sets();
    const keep = new Set(
      keptSets(
        sets.map((s) => s.id),
        daily,
        weekly,
      ),
    );
    const removed: string[] = [];
    for (const set of sets) {
      if (keep.has(set.id)) continue;
      // The manifest first: a prune that stops half-way leaves an unfinished set, not a broken one.
      await rm(join(this.setDir(set.id), MANIFEST), { force: true });
      await rm(this.setDir(set.id), { recursive: true, force: true });
      removed.push(set.id);
    }
    const named = new Set<string>();
    for (const set of sets) if (keep.has(set.id)) for await (const entry of this.mediaEntries(set)) named.add(entry.sha256);
    let objectsRemoved = 0;
    let bytesFreed = 0;
    const objects = join(this.dir, 'objects');
    for (const prefix of await readdir(objects).catch(() => [] as string[])) {
      for (const name of await readdir(join(objects, prefix)).catch(() => [] as string[])) {
        if (named.has(name)) continue;
        const file = join(objects, prefix, name);
        bytesFreed += (await stat(file).catch(() => ({ size: 0 }))).size;
        await rm(file, { force: true });
        objectsRemoved += 1;
      }
    }
    return { removed, objectsRemoved, bytesFreed };
  }

  async writeManifest(manifest: Manifest): Promise<void> {
    const dir = this.setDir(manifest.id);
    const tmp = join(dir, `${MANIFEST}.tmp`);
    await writeFile(tmp, `${JSON.stringify(manifest, null, 2)}\n`, { mode: FILE_MODE });
    const handle = await open(tmp, 'r');
    await handle.sync();
    await handle.close();
    await rename(tmp, join(dir, MANIFEST));
  }
}

function describeLock(held: string): string {
  try {
    const lock = JSON.parse(held) as { what?: string; host?: string; pid?: number; since?: string };
    return `${lock.what ?? 'run'} (pid ${lock.pid} on ${lock.host}, since ${lock.since})`;
  } catch {
    return 'run';
  }
}

/** Monday of the UTC week `ms` falls in, as YYYY-MM-DD. */
function weekOf(ms: number): string {
  const day = new Date(ms);
  const monday = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() - ((day.getUTCDay() + 6) % 7)));
  return monday.toISOString().slice(0, 10);
}

function idTime(id: string): number {
  return Date.parse(`${id.slice(0, 4)}-${id.slice(4, 6)}-${id.slice(6, 8)}T${id.slice(9, 11)}:${id.slice(11, 13)}:${id.slice(13)}`);
}

/** The ids retention keeps, from `ids` (any order): the newest per day for `daily` days, per week for `weekly` weeks. */
export function keptSets(ids: string[], daily: number, weekly: number): string[] {
  const newestFirst = [...ids].sort().reverse();
  const keep = new Set<string>(newestFirst.slice(0, 1));
  const pick = (bucket: (ms: number) => string, count: number) => {
    const seen = new Set<string>();
    for (const id of newestFirst) {
      const key = bucket(idTime(id));
      if (seen.has(key)) continue;
      if (seen.size >= count) break;
      seen.add(key);
      keep.add(id);
    }
  };
  pick((ms) => new Date(ms).toISOString().slice(0, 10), daily);
  pick(weekOf, weekly);
  return newestFirst.filter((id) => keep.has(id));
}
