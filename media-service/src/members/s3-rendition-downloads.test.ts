import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestS3 } from '@media-site/storage/testing-s3';
import { signSessionToken } from '@media-site/contracts/token';
import { keys, put, RANGE_DATA, raw, type Fixture } from '../test/helpers';
import { signed, startS3Media, stopS3Media, type S3Media } from '../test/s3-fixture';

// STORAGE=s3 keeps every family in the bucket, renditions included: a rendition download
// (`{base}_{label}.mp4`) is the `{label}.mp4` object, sent by the bucket as an attachment under the
// asked name, after the same checks as without S3.
let media: S3Media | undefined;
let s3: TestS3;
let fx: Fixture;

function follow(location: string, headers: Record<string, string> = {}, method = 'GET') {
  const url = new URL(location);
  return raw(url.origin, url.pathname + url.search, headers, method);
}

beforeAll(async () => {
  media = await startS3Media(
    0,
    { 'video/clip-1/Clip_A1_HD001.mp4': RANGE_DATA, 'videorenditions/clip-1/720p.mp4': RANGE_DATA },
    async (root) => {
      // Only on this host's tree: never served with STORAGE=s3.
      await put(root, 'videorenditions/clip-1/480p.mp4', RANGE_DATA);
    },
  );
  ({ s3, fx } = media);
}, 60_000);

afterAll(() => stopS3Media(media ?? {}));

describe('rendition downloads with STORAGE=s3', () => {
  it('redirect to the {label}.mp4 object; the bucket sends it under the download name, with Range', async () => {
    const res = await raw(fx.media.url, signed('/members/videorenditions/clip-1/Clip_A1_HD001_720p.mp4'));
    expect(res.status).toBe(302);
    const location = String(res.headers.location);
    expect(location.startsWith(`${s3.endpoint}/${s3.bucket}/videorenditions/clip-1/720p.mp4?`)).toBe(true);
    const part = await follow(location, { Range: 'bytes=10-19' });
    expect(part.status).toBe(206);
    expect(part.body.equals(RANGE_DATA.subarray(10, 20))).toBe(true);
    expect(part.headers['content-disposition']).toBe(
      `attachment; filename="Clip_A1_HD001_720p.mp4"; filename*=UTF-8''Clip_A1_HD001_720p.mp4`,
    );
    expect((await raw(fx.media.url, '/members/videorenditions/clip-1/Clip_A1_HD001_720p.mp4')).status).toBe(401);
  });

  it('a session gets no download name, real or made up: no redirect naming it', async () => {
    const session = signSessionToken(keys, {
      memberId: 7,
      expiresAt: Math.floor(Date.now() / 1000) + 600,
      membershipActiveUntil: Math.floor(Date.now() / 1000) + 86_400,
      vodPaths: [],
    });
    for (const name of ['Clip_A1_HD001_720p.mp4', 'x_720p.mp4']) {
      const res = await raw(fx.media.url, `/members/videorenditions/clip-1/${name}`, { Cookie: `media_token=${session}` });
      expect([res.status, res.headers.location], name).toEqual([404, undefined]);
    }
  });

  it('the played name is inline; a rendition only on the local tree is 404', async () => {
    const played = await raw(fx.media.url, signed('/members/videorenditions/clip-1/720p.mp4'));
    expect(played.status).toBe(302);
    expect(new URL(String(played.headers.location)).searchParams.get('response-content-disposition')).toMatch(
      /^inline; filename="clip-1-720p.mp4"/,
    );
    expect((await raw(fx.media.url, signed('/members/videorenditions/clip-1/Clip_A1_HD001_480p.mp4'))).status).toBe(404);
  });
});
