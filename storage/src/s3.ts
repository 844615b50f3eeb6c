import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { dirname, extname, join, relative as relativePath, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import mime from 'mime-types';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  type ListObjectsV2CommandOutput,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ByteRange } from './originals';
import { LIST_MAX, TooManyObjects } from './originals';
import type { ListedObject, PresignOptions, PresigningOriginals, StoredOriginal } from './originals';

export interface S3Settings {
  /** Unset: AWS's own endpoint for the region. */
  endpoint: string | undefined;
  /** Where clients reach the bucket, when not at `endpoint` (an internal address): presigned URLs name this host. */
  publicEndpoint?: string | undefined;
  bucket: string;
  region: string;
  /** Both unset: the SDK's default chain (environment, instance role, ...). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (MinIO, most self-hosted servers). */
  forcePathStyle: boolean;
  /** Lifetime of the URLs members are redirected to. */
  presignSeconds: number;
  /** Files larger than this (bytes) go up as a multipart upload; default MULTIPART_THRESHOLD, at most SINGLE_PUT_MAX. */
  multipartThreshold?: number | undefined;
  /** Part size (bytes) of a multipart upload, at least MIN_PART_SIZE; default PART_SIZE, raised when a file would need over 10,000 parts. */
  partSize?: number | undefined;
}

/** A single PUT takes at most 5 GiB (S3's limit); larger files go up as a multipart upload. */
export const SINGLE_PUT_MAX = 5 * 1024 ** 3;
/** S3's smallest part (all but the last) and its largest object and part count. */
export const MIN_PART_SIZE = 5 * 1024 ** 2;
export const MAX_OBJECT_SIZE = 5 * 1024 ** 4;
const MAX_PARTS = 10_000;
export const MULTIPART_THRESHOLD = 64 * 1024 ** 2;
export const PART_SIZE = 16 * 1024 ** 2;
/** Parts of one file in flight at once (each is held in memory: partSize × this). */
const PART_QUEUE = 4;
/** User metadata `x-amz-meta-mtime`: the source file's mtime in ms, so ETags and variant keys match the local tree. */
const MTIME_META = 'mtime';

export class StorageUnavailable extends Error {}

/**
 * How long a read may wait for the bucket's answer (its headers; a body then streams at the client's
 * pace): a bucket that accepts connections and never answers is a 503, not a hang.
 */
export const ANSWER_DEADLINE_MS = 5000;
/** A whole object read into memory (a variant's source). */
const READ_ALL_DEADLINE_MS = 30_000;

/** An abort signal that fires after `ms`, and its cancel (once the answer has come). */
function deadline(ms: number): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no answer in ${ms} ms`)), ms);
  return { signal: controller.signal, done: () => clearTimeout(timer) };
}

function unavailable(err: unknown): StorageUnavailable {
  return new StorageUnavailable(`object storage: ${(err as Error).message}`, { cause: err });
}

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

export class S3Originals implements PresigningOriginals {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  /** Signs the URLs clients are sent to (the host is part of the signature). */
  private readonly signer: S3Client;
  readonly presignSeconds: number;
  /** Keys per ListObjectsV2 page (S3's own limit is 1,000); tests lower it to walk pages. */
  listPageSize = 1000;
  private readonly bucket: string;
  private readonly multipartThreshold: number;
  private readonly partSize: number;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.presignSeconds = settings.presignSeconds;
    this.multipartThreshold = Math.min(settings.multipartThreshold ?? MULTIPART_THRESHOLD, SINGLE_PUT_MAX);
    this.partSize = Math.max(settings.partSize ?? PART_SIZE, MIN_PART_SIZE);
    const options = (endpoint: string | undefined) => ({
      region: settings.region,
      endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
      // The SDK adds CRC32 checksums to every PUT by default; S3-compatible servers differ in support.
      requestChecksumCalculation: 'WHEN_REQUIRED' as const,
      responseChecksumValidation: 'WHEN_REQUIRED' as const,
    });
    this.client = new S3Client(options(settings.endpoint));
    this.signer = settings.publicEndpoint ? new S3Client(options(settings.publicEndpoint)) : this.client;
  }

  async head(relative: string): Promise<StoredOriginal | null> {
    const wait = deadline(ANSWER_DEADLINE_MS);
    try {
      const r = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: relative }), { abortSignal: wait.signal });
      const kept = Number(r.Metadata?.[MTIME_META]);
      return {
        relative,
        size: r.ContentLength ?? 0,
        mtimeMs: Number.isFinite(kept) && kept > 0 ? kept : (r.LastModified?.getTime() ?? 0),
      };
    } catch (err) {
      if (isMissing(err)) return null;
      throw unavailable(err);
    } finally {
      wait.done();
    }
  }

  /** ListObjectsV2, page by page (`listPageSize` keys each): each page's objects. */
  private async *pages(prefix: string, delimiter?: string): AsyncIterable<NonNullable<ListObjectsV2CommandOutput['Contents']>> {
    let token: string | undefined;
    do {
      const wait = deadline(ANSWER_DEADLINE_MS);
      let page;
      try {
        page = await this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: prefix,
            Delimiter: delimiter,
            MaxKeys: this.listPageSize,
            ContinuationToken: token,
          }),
          { abortSignal: wait.signal },
        );
      } catch (err) {
        throw unavailable(err);
      } finally {
        wait.done();
      }
      yield page.Contents ?? [];
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** The objects directly in the folder `prefix` (`/` as delimiter), up to `max` keys. */
  async list(prefix: string, max = LIST_MAX): Promise<ListedObject[]> {
    const listed: ListedObject[] = [];
    for await (const contents of this.pages(prefix, '/')) {
      for (const o of contents) {
        if (!o.Key || o.Key === prefix) continue;
        if (listed.length >= max) throw new TooManyObjects(`${prefix}: more than ${max} objects`);
        listed.push({ relative: o.Key, size: o.Size ?? 0, version: `${o.ETag ?? ''}-${o.LastModified?.getTime() ?? 0}-${o.Size ?? 0}` });
      }
    }
    return listed;
  }

  /**
   * Every object under `prefix` (all depths); `version` is the size and ETag, which change
   * whenever the bytes do.
   */
  async *walk(prefix = ''): AsyncIterable<ListedObject> {
    for await (const contents of this.pages(prefix)) {
      for (const o of contents) {
        if (o.Key && !o.Key.endsWith('/')) yield { relative: o.Key, size: o.Size ?? 0, version: `${o.Size ?? 0}:${o.ETag ?? ''}` };
      }
    }
  }

  /** The whole object as a stream, with the mtime kept in its metadata; null when it is gone. */
  async open(relative: string): Promise<{ body: Readable; size: number; mtimeMs: number } | null> {
    let r;
    try {
      r = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: relative }));
    } catch (err) {
      if (isMissing(err)) return null;
      throw unavailable(err);
    }
    const kept = Number(r.Metadata?.[MTIME_META]);
    return {
      body: r.Body as Readable,
      size: r.ContentLength ?? 0,
      mtimeMs: Number.isFinite(kept) && kept > 0 ? kept : (r.LastModified?.getTime() ?? 0),
    };
  }

  read(relative: string, { start, end }: ByteRange): Readable {
    const { client, bucket } = this;
    return Readable.from(
      (async function* () {
        const wait = deadline(ANSWER_DEADLINE_MS);
        let r;
        try {
          r = await client.send(new GetObjectCommand({ Bucket: bucket, Key: relative, Range: `bytes=${start}-${end}` }), {
            abortSignal: wait.signal,
          });
        } catch (err) {
          throw unavailable(err);
        } finally {
          wait.done();
        }
        for await (const chunk of r.Body as Readable) yield chunk as Buffer;
      })(),
      { objectMode: false },
    );
  }

  async readAll(relative: string): Promise<Buffer> {
    const wait = deadline(READ_ALL_DEADLINE_MS);
    try {
      const r = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: relative }), { abortSignal: wait.signal });
      if (!r.Body) throw new Error('empty body');
      return Buffer.from(await r.Body.transformToByteArray());
    } catch (err) {
      throw unavailable(err);
    } finally {
      wait.done();
    }
  }

  async put(relative: string, source: string, contentType?: string): Promise<'placed' | 'same'> {
    const from = await stat(source);
    const mtimeMs = Math.round(from.mtimeMs);
    const there = await this.head(relative);
    if (there && there.size === from.size && there.mtimeMs === mtimeMs) return 'same';
    if (from.size > MAX_OBJECT_SIZE) throw new Error(`${relative}: ${from.size} bytes is over S3's 5 TiB object limit`);
    const params = {
      Bucket: this.bucket,
      Key: relative,
      ContentType: contentType ?? (mime.lookup(extname(relative)) || 'application/octet-stream'),
      Metadata: { [MTIME_META]: String(mtimeMs) },
    };
    if (from.size <= this.multipartThreshold) {
      await this.client.send(new PutObjectCommand({ ...params, Body: createReadStream(source), ContentLength: from.size }));
      return 'placed';
    }
    // Multipart: parts of partSize (raised so that no file needs more than 10,000), a few in flight;
    // on failure lib-storage aborts the upload, so no parts are left billed and no object appears.
    const partSize = Math.max(this.partSize, Math.ceil(from.size / MAX_PARTS));
    const upload = new Upload({
      client: this.client,
      params: { ...params, Body: createReadStream(source, { highWaterMark: 1024 * 1024 }) },
      partSize,
      queueSize: PART_QUEUE,
      leavePartsOnError: false,
    });
    await upload.done();
    return 'placed';
  }

  /**
   * Deletes these objects, one DeleteObject each (idempotent: a key already gone is fine). For the
   * few files a re-encode no longer names; not for bulk removal.
   */
  async remove(keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      try {
        await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
      } catch (err) {
        if (!isMissing(err)) throw unavailable(err);
      }
    }
  }

  /**
   * Uploads every file under `dir` as `prefix/<path below dir>` (`/`-separated), each keeping its
   * mtime, and returns the keys; files already there with the same size and mtime are skipped.
   */
  async putTree(prefix: string, dir: string): Promise<string[]> {
    const keys: string[] = [];
    for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = join(entry.parentPath, entry.name);
      const key = [prefix, ...relativePath(dir, file).split(sep)].filter(Boolean).join('/');
      await this.put(key, file);
      keys.push(key);
    }
    return keys;
  }

  /**
   * Copies the object `relative` to the local file `dest` (through a temp file beside it, renamed
   * when complete) with the object's kept mtime, so a derived file's key matches the local tree's.
   */
  async download(relative: string, dest: string): Promise<StoredOriginal> {
    let r;
    try {
      r = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: relative }));
    } catch (err) {
      if (isMissing(err)) throw new Error(`object storage: ${relative} is not in the bucket`, { cause: err });
      throw new StorageUnavailable(`object storage: ${(err as Error).message}`, { cause: err });
    }
    if (!r.Body) throw new StorageUnavailable('object storage: empty body');
    await mkdir(dirname(dest), { recursive: true });
    const tmp = `${dest}.get-${process.pid}.tmp`;
    try {
      await pipeline(r.Body as Readable, createWriteStream(tmp));
      const kept = Number(r.Metadata?.[MTIME_META]);
      const mtimeMs = Number.isFinite(kept) && kept > 0 ? kept : (r.LastModified?.getTime() ?? Date.now());
      await utimes(tmp, new Date(), new Date(mtimeMs));
      await rename(tmp, dest);
      return { relative, size: (await stat(dest)).size, mtimeMs };
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  /**
   * A URL for this one object, valid `presignSeconds`, that makes S3 answer with our Content-Type,
   * Content-Disposition and Cache-Control. HEAD gets a HEAD-signed URL (a signature covers the method).
   */
  presign(relative: string, options: PresignOptions): Promise<string> {
    const command =
      options.method === 'HEAD'
        ? new HeadObjectCommand({ Bucket: this.bucket, Key: relative })
        : new GetObjectCommand({
            Bucket: this.bucket,
            Key: relative,
            ResponseContentType: options.type,
            ResponseContentDisposition: options.disposition,
            ResponseCacheControl: options.cacheControl,
          });
    return getSignedUrl(this.signer, command, { expiresIn: this.presignSeconds });
  }

  /**
   * For /readyz: whether the bucket answers with these credentials, checked at most every 5 s: a
   * HeadObject of a key no original can have (dotfiles are never media), 404 = fine. (HeadObject
   * rather than HeadBucket: it is the permission the service uses, and s3rver refuses HeadBucket.)
   */
  async reachable(): Promise<boolean> {
    const now = Date.now();
    if (this.probed && now - this.probed.at < 5000) return this.probed.ok;
    const ok = await this.head('.readyz-probe').then(
      () => true,
      () => false,
    );
    this.probed = { at: now, ok };
    return ok;
  }

  private probed: { at: number; ok: boolean } | undefined;

  close(): void {
    this.client.destroy();
    if (this.signer !== this.client) this.signer.destroy();
  }
}
