import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Originals } from '@media-site/storage';
import { BackupError, Digest, type MediaEntry } from './store';

// The media a set holds: every file under MEDIA_ROOT, or every object in the bucket (STORAGE=s3):
// the originals and what the encoder derived from them (renditions take hours to make again).

/** One media file as the source lists it; `version` changes whenever its bytes may have. */
export interface SourceFile {
  path: string;
  size: number;
  version: string;
}

export interface MediaSource {
  readonly kind: 'local' | 's3';
  walk(): AsyncIterable<SourceFile>;
  /** Its bytes and mtime now; null when it went away since the walk listed it. */
  open(path: string): Promise<{ body: Readable; mtimeMs: number } | null>;
}

export interface MediaTarget {
  /** Puts the bytes of `objectFile` at `entry.path` with `entry.mtimeMs` ('same': an identical file is there). */
  place(entry: MediaEntry, objectFile: string): Promise<'placed' | 'same'>;
}

/** Files a writer has not finished (the storage layer's and the encoder's temp names). */
const UNFINISHED = /\.(?:tmp|part)$/;

const localVersion = (size: number, mtimeMs: number) => `${size}:${Math.round(mtimeMs)}`;

export class LocalMedia implements MediaSource, MediaTarget {
  readonly kind = 'local' as const;
  constructor(private readonly root: string) {}

  async *walk(): AsyncIterable<SourceFile> {
    const entries = await readdir(this.root, { recursive: true, withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    });
    for (const entry of entries) {
      if (!entry.isFile() || UNFINISHED.test(entry.name)) continue;
      const file = join(entry.parentPath, entry.name);
      const info = await stat(file).catch(() => null);
      if (!info) continue;
      yield { path: relative(this.root, file).split(sep).join('/'), size: info.size, version: localVersion(info.size, info.mtimeMs) };
    }
  }

  async open(path: string): Promise<{ body: Readable; mtimeMs: number } | null> {
    const file = this.file(path);
    const info = await stat(file).catch(() => null);
    if (!info) return null;
    return { body: createReadStream(file, { highWaterMark: 1024 * 1024 }), mtimeMs: info.mtimeMs };
  }

  async place(entry: MediaEntry, objectFile: string): Promise<'placed' | 'same'> {
    const dest = this.file(entry.path);
    const there = await stat(dest).catch(() => null);
    if (there?.isFile() && there.size === entry.size && Math.abs(there.mtimeMs - entry.mtimeMs) < 1) return 'same';
    await mkdir(dirname(dest), { recursive: true });
    const tmp = `${dest}.restore-${process.pid}.tmp`;
    try {
      await copyChecked(objectFile, tmp, entry);
      await utimes(tmp, new Date(), new Date(entry.mtimeMs));
      await rename(tmp, dest);
    } finally {
      await rm(tmp, { force: true });
    }
    return 'placed';
  }

  private file(path: string): string {
    return join(this.root, ...safeSegments(path));
  }
}

export class BucketMedia implements MediaSource, MediaTarget {
  readonly kind = 's3' as const;
  constructor(
    private readonly bucket: S3Originals,
    /** Where an object waits, with its mtime, on its way into the bucket. */
    private readonly scratchDir: string,
  ) {}

  async *walk(): AsyncIterable<SourceFile> {
    for await (const o of this.bucket.walk()) yield { path: o.relative, size: o.size, version: o.version };
  }

  async open(path: string): Promise<{ body: Readable; mtimeMs: number } | null> {
    const object = await this.bucket.open(path);
    return object && { body: object.body, mtimeMs: object.mtimeMs };
  }

  async place(entry: MediaEntry, objectFile: string): Promise<'placed' | 'same'> {
    safeSegments(entry.path);
    const there = await this.bucket.head(entry.path);
    if (there && there.size === entry.size && there.mtimeMs === Math.round(entry.mtimeMs)) return 'same';
    await mkdir(this.scratchDir, { recursive: true });
    const tmp = join(this.scratchDir, `restore-${process.pid}-${entry.sha256.slice(0, 16)}`);
    try {
      await copyChecked(objectFile, tmp, entry);
      await utimes(tmp, new Date(), new Date(entry.mtimeMs));
      return await this.bucket.put(entry.path, tmp);
    } finally {
      await rm(tmp, { force: true });
    }
  }
}

/** Copies a set's object, checking on the way that its bytes are the ones the set recorded. */
async function copyChecked(objectFile: string, dest: string, entry: MediaEntry): Promise<void> {
  const digest = new Digest();
  await pipeline(createReadStream(objectFile, { highWaterMark: 1024 * 1024 }), digest, createWriteStream(dest));
  const sha256 = digest.hex();
  if (sha256 !== entry.sha256 || digest.bytes !== entry.size) {
    throw new BackupError(
      `${entry.path}: the set's copy is damaged (${digest.bytes} bytes, sha256 ${sha256.slice(0, 12)}…; recorded ${entry.size}, ${entry.sha256.slice(0, 12)}…)`,
    );
  }
}

/** A set's path as folder names: refused when it could leave the media root (a tampered set). */
export function safeSegments(path: string): string[] {
  const segments = path.split('/');
  if (path.length > 1024 || segments.some((s) => s === '' || s === '.' || s === '..' || /[\\\0]/.test(s))) {
    throw new BackupError(`the set names a media path that is not allowed: ${JSON.stringify(path.slice(0, 200))}`);
  }
  return segments;
}
