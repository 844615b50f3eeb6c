import { mkdir, mkdtemp, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Originals, type Originals, type S3Settings } from '@media-site/storage';
import { exists, extOf, isFresh, placeFile, writeDerived, type PlaceMode } from './place';

/**
 * Where ingest puts an item's files, by media path (`photosthumbs/{path}/large.jpg`, the keys of
 * storage/src/paths.ts): the MEDIA_ROOT tree, or the bucket with STORAGE=s3.
 */
export interface MediaStore {
  /** A file copied as it is (an original, a provided thumbnail); 'same' when an identical copy is there. */
  place(source: string, key: string): Promise<'placed' | 'same'>;
  /** A derived file is fresh when it is there, not empty, and carries a time not older than its source's. */
  isFresh(key: string, source: string): Promise<boolean>;
  exists(key: string): Promise<boolean>;
  /** Makes a derived file with `produce(tmp)` (tmp keeps the key's extension), stamped with the source's mtime. */
  write(key: string, source: string, produce: (tmp: string) => Promise<void>): Promise<void>;
}

/** STORAGE=local: the MEDIA_ROOT tree (copy or hard link). */
export function localStore(mediaRoot: string, mode: PlaceMode): MediaStore {
  const at = (key: string) => join(mediaRoot, ...key.split('/'));
  return {
    place: (source, key) => placeFile(source, at(key), mode),
    isFresh: (key, source) => isFresh(at(key), source),
    exists: (key) => exists(at(key)),
    write: (key, source, produce) => writeDerived(at(key), source, produce),
  };
}

/** A bucket failure, naming the object it was about: the item fails (no row is written). */
export class BucketError extends Error {}

export async function naming<T>(key: string, action: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const reason = err instanceof Error ? (err.message.split('\n')[0] ?? err.name) : String(err);
    throw new BucketError(`object storage: could not ${action} ${key}: ${reason}`, { cause: err });
  }
}

/**
 * STORAGE=s3: every file goes to the bucket, with the source's mtime as object metadata
 * (`x-amz-meta-mtime`, see S3Originals.put), which is what freshness compares; derived files are
 * made in `scratch` first and removed once uploaded. Nothing is written under MEDIA_ROOT.
 */
export function bucketStore(bucket: Originals, scratch: string): MediaStore {
  let n = 0;
  return {
    place: (source, key) => naming(key, 'upload', () => bucket.put(key, source)),
    async isFresh(key, source) {
      const [there, from] = await Promise.all([naming(key, 'read', () => bucket.head(key)), stat(source)]);
      return Boolean(there && there.size > 0 && there.mtimeMs >= Math.round(from.mtimeMs) - 1);
    },
    exists: async (key) => (await naming(key, 'read', () => bucket.head(key))) !== null,
    async write(key, source, produce) {
      const tmp = join(scratch, `${++n}${extOf(key)}`);
      try {
        await produce(tmp);
        const from = await stat(source);
        await utimes(tmp, from.atime, from.mtime);
        await naming(key, 'upload', () => bucket.put(key, tmp));
      } finally {
        await rm(tmp, { force: true });
      }
    },
  };
}

/** A bucket client for `use` when STORAGE=s3 (null otherwise), closed afterwards. */
export async function withBucket<T>(settings: S3Settings | null, use: (bucket: S3Originals | null) => Promise<T>): Promise<T> {
  const bucket = settings ? new S3Originals(settings) : null;
  try {
    return await use(bucket);
  } finally {
    bucket?.close();
  }
}

/** A per-run scratch folder under `base` (ENCODER_SCRATCH_DIR), for `use`; removed afterwards. */
export async function withScratch<T>(base: string | undefined, use: (dir: string) => Promise<T>): Promise<T> {
  const parent = base ?? join(tmpdir(), 'media-encoder');
  await mkdir(parent, { recursive: true });
  const dir = await mkdtemp(join(parent, 'ingest-'));
  try {
    return await use(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
