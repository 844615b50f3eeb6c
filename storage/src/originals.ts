import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Family, MediaPath } from './paths';
import { resolveMediaFile } from './paths';

/** Inclusive byte offsets, as HTTP Range gives them (the media service parses the header). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * The uploaded originals: what ingest takes from an operator's folder. With STORAGE=s3 every family
 * (paths.ts FAMILIES) is in the bucket, what is derived from them (thumbnails, renditions, previews)
 * too, under the same media path; this set only tells originals from derived files.
 */
export const ORIGINAL_FAMILIES: ReadonlySet<Family> = new Set<Family>(['photos', 'freephotos', 'video', 'vod']);

/** One original as storage knows it; `relative` is the media path below MEDIA_ROOT, `/`-separated (the object key). */
export interface StoredOriginal {
  relative: string;
  size: number;
  /** The source file's mtime (ms), kept through upload, so ETags and variant keys match the local tree's. */
  mtimeMs: number;
}

/** One object as a listing gives it; `version` changes whenever its bytes may have (a cache key). */
export interface ListedObject {
  relative: string;
  size: number;
  version: string;
  /** Known from the listing itself (local tree); otherwise `head` gives it. */
  mtimeMs?: number;
}

/** A listing bound: a folder holding more objects than this is refused rather than listed for ever. */
export const LIST_MAX = 100_000;

export class TooManyObjects extends Error {}

export interface PresignOptions {
  method: 'GET' | 'HEAD';
  type: string;
  disposition?: string | undefined;
  cacheControl: string;
}

/** Where originals live: the local tree under MEDIA_ROOT (the default) or an S3-compatible bucket. */
export interface Originals {
  readonly kind: 'local' | 's3';
  /** null when there is no such original. */
  head(relative: string): Promise<StoredOriginal | null>;
  /**
   * The objects directly in the folder `prefix` (ends with `/`; not those of its subfolders), in no
   * set order; throws TooManyObjects past `max` (LIST_MAX).
   */
  list(prefix: string, max?: number): Promise<ListedObject[]>;
  /** Bytes `start`..`end` (inclusive), as a stream that fetches on first read. */
  read(relative: string, range: ByteRange): Readable;
  /** The whole original (a variant's source). */
  readAll(relative: string): Promise<Buffer>;
  /** Stores `source` (a local file) as `relative`, keeping its mtime; 'same' when an identical copy (size, mtime) is there. */
  put(relative: string, source: string, contentType?: string): Promise<'placed' | 'same'>;
}

/** A short-lived URL the client fetches the bytes from itself (object storage only). */
export interface PresigningOriginals extends Originals {
  readonly presignSeconds: number;
  /** Whether the store answers now (reported by /readyz). */
  reachable(): Promise<boolean>;
  presign(relative: string, options: PresignOptions): Promise<string>;
}

function mediaPathOf(relative: string): MediaPath {
  const [family, ...rest] = relative.split('/');
  return { family: family as Family, rest, relative };
}

// utimes goes through a float of seconds: a copied time can come back a fraction of a millisecond off.
const sameTime = (a: number, b: number) => Math.abs(a - b) < 1;

/**
 * The local tree: MEDIA_ROOT holds the originals as files. The media service's own file path
 * (offload, set ZIPs, realpath checks) keeps reading the tree directly; this is the same tree
 * behind the storage interface, for code that works with either backend (ingest, tests).
 */
export class LocalOriginals implements Originals {
  readonly kind = 'local' as const;
  constructor(private readonly root: string) {}

  async head(relative: string): Promise<StoredOriginal | null> {
    try {
      const file = await resolveMediaFile(this.root, mediaPathOf(relative));
      return { relative, size: file.stat.size, mtimeMs: file.stat.mtimeMs };
    } catch {
      return null;
    }
  }

  async list(prefix: string, max = LIST_MAX): Promise<ListedObject[]> {
    const dir = join(this.root, ...prefix.split('/').filter(Boolean));
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    const listed: ListedObject[] = [];
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      if (listed.length >= max) throw new TooManyObjects(`${prefix}: more than ${max} objects`);
      const info = await stat(join(dir, entry.name)).catch(() => null);
      if (!info) continue;
      listed.push({
        relative: prefix + entry.name,
        size: info.size,
        version: `${info.size}-${info.mtimeMs}-${info.ino}`,
        mtimeMs: info.mtimeMs,
      });
    }
    return listed;
  }

  read(relative: string, { start, end }: ByteRange): Readable {
    return createReadStream(join(this.root, ...relative.split('/')), { start, end, highWaterMark: 1024 * 1024 });
  }

  readAll(relative: string): Promise<Buffer> {
    return readFile(join(this.root, ...relative.split('/')));
  }

  async put(relative: string, source: string): Promise<'placed' | 'same'> {
    const dest = join(this.root, ...relative.split('/'));
    const from = await stat(source);
    const to = await stat(dest).catch(() => null);
    if (to?.isFile() && to.size === from.size && sameTime(to.mtimeMs, from.mtimeMs)) return 'same';
    await mkdir(dirname(dest), { recursive: true });
    const tmp = `${dest}.put-${process.pid}.tmp`;
    try {
      await copyFile(source, tmp);
      await utimes(tmp, from.atime, from.mtime);
      await rename(tmp, dest);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return 'placed';
  }
}
