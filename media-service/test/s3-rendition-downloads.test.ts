import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestS3 } from '@media-site/storage/testing-s3';
import { put, RANGE_DATA, raw, type Fixture } from './helpers';
import { signed, startS3Media, stopS3Media, type S3Media } from './s3-fixture';

// STORAGE=s3 keeps originals in the bucket; renditions stay on the local tree (the encoder writes
// them there), so a rendition download is answered here, as without S3: the same checks, the
// attachment name, Range. The original's download is still the bucket's presigned 302.
let media: S3Media | undefined;
let s3: TestS3;
let fx: Fixture;

beforeAll(async () => {
  media = await startS3Media(0, { 'video/clip-1/Clip_A1_HD001.mp4': RANGE_DATA }, async (root) => {
    await put(root, 'videorenditions/clip-1/720p.mp4', RANGE_DATA);
  });
  ({ s3, fx } = media);
}, 60_000);

afterAll(() => stopS3Media(media ?? {}));

describe('rendition downloads with STORAGE=s3', () => {
  it('are served from the local tree under their download name, with Range', async () => {
    const url = signed('/members/videorenditions/clip-1/Clip_A1_HD001_720p.mp4');
    const res = await raw(fx.media.url, url, { Range: 'bytes=10-19' });
    expect(res.status).toBe(206);
    expect(res.body.equals(RANGE_DATA.subarray(10, 20))).toBe(true);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Clip_A1_HD001_720p.mp4"; filename*=UTF-8''Clip_A1_HD001_720p.mp4`,
    );
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
