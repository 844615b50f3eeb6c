import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signDownloadUrl } from '@media-site/contracts/token';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Originals } from '@media-site/storage/s3';
import { startTestS3, type TestS3 } from '@media-site/storage/testing-s3';
import { keys, put, RANGE_DATA, raw, TEST_KEYS, type Fixture } from './helpers';
import { startTempMedia } from '../src/testing';

// STORAGE=s3 keeps originals in the bucket; renditions stay on the local tree (the encoder writes
// them there), so a rendition download is answered here, as without S3: the same checks, the
// attachment name, Range. The original's download is still the bucket's presigned 302.
let s3: TestS3;
let fx: Fixture;
let store: S3Originals;
let source: string;
const now = () => Math.floor(Date.now() / 1000);
const signed = (path: string) => signDownloadUrl(keys, { path, memberId: 7, expiresAt: now() + 3600 });

beforeAll(async () => {
  s3 = await startTestS3(0);
  store = new S3Originals(s3.settings);
  source = await mkdtemp(join(tmpdir(), 's3-rendition-src-'));
  await writeFile(join(source, 'original.mp4'), RANGE_DATA);
  expect(await store.put('video/clip-1/Clip_A1_HD001.mp4', join(source, 'original.mp4'))).toBe('placed');
  fx = await startTempMedia({ MEDIA_TOKEN_KEYS: TEST_KEYS, ...s3.env }, {}, async (root) => {
    await put(root, 'videorenditions/clip-1/720p.mp4', RANGE_DATA);
  });
}, 60_000);

afterAll(async () => {
  await fx?.stop();
  store?.close();
  await s3?.stop();
  if (source) await rm(source, { recursive: true, force: true });
});

describe('rendition downloads with STORAGE=s3', () => {
  it('are served from the local tree under their download name, with Range', async () => {
    const url = signed('/members/videorenditions/clip-1/Clip_A1_HD001_720p.mp4');
    const res = await raw(fx.media.url, url, { Range: 'bytes=10-19' });
    expect(res.status).toBe(206);
    expect(res.body.equals(RANGE_DATA.subarray(10, 20))).toBe(true);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="Clip_A1_HD001_720p.mp4"; filename*=UTF-8''Clip_A1_HD001_720p.mp4`);
    expect((await raw(fx.media.url, '/members/videorenditions/clip-1/Clip_A1_HD001_720p.mp4')).status).toBe(401);
  });

  it('an original still goes to the bucket (302), a rendition never does', async () => {
    const original = await raw(fx.media.url, signed('/members/video/clip-1/Clip_A1_HD001.mp4'));
    expect(original.status).toBe(302);
    expect(new URL(String(original.headers.location)).origin).toBe(s3.env.S3_ENDPOINT);
    const rendition = await raw(fx.media.url, signed('/members/videorenditions/clip-1/Clip_A1_HD001_720p.mp4'));
    expect(rendition.status).toBe(200);
    expect(rendition.headers.location).toBeUndefined();
  });
});
