import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, utimes, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { S3Originals } from '@media-site/storage';
import { loadS3Settings } from '@media-site/storage/config';
import { startTestS3, type TestS3 } from '@media-site/storage/testing-s3';

// A port no other test file uses, as test files run in parallel; 32100/32101 are the media-service and ingest S3 tests'
// (fixed ports: 32000-32767, below the ephemeral range and above the random ones).
const S3_PORT = 32161;
const MiB = 1024 ** 2;

let s3: TestS3;
let store: S3Originals;
let work: string;

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  s3 = await startTestS3(S3_PORT);
  // A small threshold and S3's smallest part, so a 12 MiB file takes three parts.
  store = new S3Originals({ ...s3.settings, multipartThreshold: 5 * MiB, partSize: 5 * MiB });
  work = await mkdtemp(join(tmpdir(), 's3-multipart-'));
}, 60_000);

afterAll(async () => {
  store?.close();
  await s3?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('S3Originals uploads', () => {
  it('puts a 12 MiB file as a multipart upload (5 MiB parts): the stored bytes, size, mtime and type are the file', async () => {
    const file = join(work, 'big.mp4');
    const bytes = randomBytes(12 * MiB);
    await writeFile(file, bytes);
    const mtime = new Date('2026-03-04T05:06:07.000Z');
    await utimes(file, mtime, mtime);

    // Every request the client sends, by command: a multipart upload is Create, UploadPart × n, Complete.
    const sent: string[] = [];
    store.client.middlewareStack.add(
      (next, context) => async (args) => {
        sent.push(context.commandName ?? '?');
        return next(args);
      },
      { step: 'initialize', name: 'countCommands' },
    );
    const t0 = performance.now();
    expect(await store.put('video/big/big.mp4', file)).toBe('placed');
    const ms = performance.now() - t0;
    const uploadCalls = sent.filter((c) => c !== 'HeadObjectCommand');

    const head = await store.head('video/big/big.mp4');
    expect(head).toEqual({ relative: 'video/big/big.mp4', size: 12 * MiB, mtimeMs: mtime.getTime() });
    const back = await store.readAll('video/big/big.mp4');
    expect(back.length).toBe(bytes.length);
    expect(sha(back)).toBe(sha(bytes));
    // 12 MiB in 5 MiB parts is 3 parts (5 + 5 + 2), completed once.
    expect(uploadCalls).toEqual([
      'CreateMultipartUploadCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'CompleteMultipartUploadCommand',
    ]);
    const got = await store.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: 'video/big/big.mp4', Range: 'bytes=0-0' }));
    expect(got.ContentType).toBe('video/mp4');
    await got.Body?.transformToByteArray();
    // A range across a part boundary comes back whole.
    const { start, end } = { start: 5 * MiB - 100, end: 5 * MiB + 99 };
    const chunks: Buffer[] = [];
    for await (const c of store.read('video/big/big.mp4', { start, end })) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(bytes.subarray(start, end + 1))).toBe(true);
    console.log(
      `[s3-multipart] 12 MiB in 5 MiB parts: ${ms.toFixed(0)} ms, ${uploadCalls.filter((c) => c === 'UploadPartCommand').length} parts`,
    );

    // A second put of the same file (size and mtime) sends nothing.
    sent.length = 0;
    expect(await store.put('video/big/big.mp4', file)).toBe('same');
    expect(sent).toEqual(['HeadObjectCommand']);
    store.client.middlewareStack.remove('countCommands');
  }, 60_000);

  it('keeps a file at or under the threshold a single PUT (plain ETag)', async () => {
    const file = join(work, 'small.jpg');
    const bytes = randomBytes(5 * MiB);
    await writeFile(file, bytes);
    expect(await store.put('photos/a/small.jpg', file)).toBe('placed');
    const got = await store.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: 'photos/a/small.jpg' }));
    expect(got.ETag).not.toMatch(/-\d+"?$/);
    expect(sha(Buffer.from(await got.Body!.transformToByteArray()))).toBe(sha(bytes));
  });

  it('putTree uploads a folder under a prefix and download brings an object back with its mtime', async () => {
    const dir = join(work, 'tree');
    await mkdir(join(dir, 'hls', '720p'), { recursive: true });
    await writeFile(join(dir, 'poster.jpg'), 'poster');
    await writeFile(join(dir, 'hls', '720p', 'index.m3u8'), '#EXTM3U\n');
    const mtime = new Date('2025-01-02T03:04:05.000Z');
    await utimes(join(dir, 'poster.jpg'), mtime, mtime);
    const keys = await store.putTree('video/clip', dir);
    expect(keys.sort()).toEqual(['video/clip/hls/720p/index.m3u8', 'video/clip/poster.jpg']);
    const dest = join(work, 'down', 'poster.jpg');
    const got = await store.download('video/clip/poster.jpg', dest);
    expect(got).toEqual({ relative: 'video/clip/poster.jpg', size: 6, mtimeMs: mtime.getTime() });
    expect(await readFile(dest, 'utf8')).toBe('poster');
    expect(Math.round((await stat(dest)).mtimeMs)).toBe(mtime.getTime());
    await expect(store.download('video/clip/missing.jpg', join(work, 'down', 'x'))).rejects.toThrow(/not in the bucket/);
  });

  it('reads the threshold and part size from S3_MULTIPART_THRESHOLD_MB / S3_PART_SIZE_MB, and refuses parts under 5 MiB', () => {
    const settings = loadS3Settings({ ...s3.env, S3_MULTIPART_THRESHOLD_MB: '8', S3_PART_SIZE_MB: '6' });
    expect(settings).toMatchObject({ multipartThreshold: 8 * MiB, partSize: 6 * MiB });
    expect(() => loadS3Settings({ ...s3.env, S3_PART_SIZE_MB: '4' })).toThrow(/S3_PART_SIZE_MB/);
  });
});
