import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat, utimes } from 'node:fs/promises';
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
 * The uploaded originals: what ingest takes from an operator's folder. Everything derived from them
 * (photo and video thumbnails, renditions, previews) is written by ingest and the encoder under
 * MEDIA_ROOT and stays there whatever STORAGE says.
 */
export const ORIGINAL_FAMILIES: ReadonlySet<Family> = new Set<Family>(['photos', 'freephotos', 'video', 'vod']);

/** One original as storage knows it; `relative` is the media path below MEDIA_ROOT, `/`-separated (the object key). */
export interface StoredOriginal {
  relative: string;
  size: number;
  /** The source file's mtime (ms), kept through upload, so ETags and variant keys match the local tree's. */
  mtimeMs: number;
}

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
