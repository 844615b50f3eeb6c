import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signEdgeUrl } from '@media-site/contracts/edge-url';
import { signDownloadUrl } from '@media-site/contracts/token';
import { RANGE_DATA, keys, putAll, raw, startFixture, type Fixture } from '../test/helpers';
import { RENDITIONS, cookie, describeDeliveries, member, now } from '../test/deliveries';

const link = (path: string, over: { memberId?: number; expiresAt?: number; issuedAt?: number } = {}) =>
  signDownloadUrl(keys, { path, memberId: over.memberId ?? 42, expiresAt: over.expiresAt ?? now() + 3600, issuedAt: over.issuedAt });

// The original's download name is Clip_A1_HD001.mp4; its 720p rendition downloads as Clip_A1_HD001_720p.mp4.
const DOWNLOAD = '/members/videorenditions/clip-1/Clip_A1_HD001_720p.mp4';
const ORIGINAL = '/members/video/clip-1/Clip_A1_HD001.mp4';
const VOD_DOWNLOAD = (path: string) => `/members/vodrenditions/${path}/Show%20%C3%A9t%C3%A9_480p.mp4`;
const ATTACHMENT = `attachment; filename="Clip_A1_HD001_720p.mp4"; filename*=UTF-8''Clip_A1_HD001_720p.mp4`;

const files = async () => ({ ...RENDITIONS, 'video/clip-1/Clip_A1_HD001.mp4': RANGE_DATA });

describeDeliveries('rendition downloads', files, (at) => {
  const { takedowns, offload } = at;

  it('sends the rendition as an attachment under its download name, from a signed link', async () => {
    const res = await raw(at.fx.media.url, link(DOWNLOAD));
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(ATTACHMENT);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    if (offload) {
      // nginx sends the real file (tests/integration/rendition-download.test.ts goes through it).
      expect(res.headers['x-accel-redirect']).toBe('/_protected/videorenditions/clip-1/720p.mp4');
    } else {
      expect(res.body.equals(RANGE_DATA)).toBe(true);
    }
  });

  it('answers Range with 206 and honours If-Range', async () => {
    const url = link(DOWNLOAD);
    const part = await raw(at.fx.media.url, url, { Range: 'bytes=100-199' });
    if (offload) {
      expect(part.headers['x-accel-redirect']).toBe('/_protected/videorenditions/clip-1/720p.mp4');
      return;
    }
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100-199/1000');
    expect(part.body.equals(RANGE_DATA.subarray(100, 200))).toBe(true);
    expect(part.headers['content-disposition']).toBe(ATTACHMENT);
    const etag = part.headers.etag as string;
    const same = await raw(at.fx.media.url, url, { Range: 'bytes=900-', 'If-Range': etag });
    expect([same.status, same.body.length]).toEqual([206, 100]);
    const changed = await raw(at.fx.media.url, url, { Range: 'bytes=900-', 'If-Range': '"another"' });
    expect([changed.status, changed.body.length]).toEqual([200, 1000]);
  });

  it('sends a download name only under a link that names it: the session plays the file under its own name, and no other', async () => {
    // A session opens every file of the folder, so any name would do: `x_720p.mp4`, or the item's
    // title spelled otherwise. Only the bff's signature says the name is one the item has.
    for (const path of [
      DOWNLOAD,
      '/members/videorenditions/clip-1/x_720p.mp4',
      '/members/videorenditions/clip-1/Free_money.exe_720p.mp4',
    ]) {
      const res = await raw(at.fx.media.url, path, cookie(member()));
      expect(res.status, path).toBe(404);
      expect(res.headers['content-disposition'], path).toBeUndefined();
      expect(res.headers['x-accel-redirect'], path).toBeUndefined();
      expect(JSON.parse(res.body.toString()).error.message, path).toBe(
        'A rendition is downloaded under its name only with its download link from the site',
      );
    }
    const played = await raw(at.fx.media.url, '/members/videorenditions/clip-1/720p.mp4', cookie(member()));
    expect([played.status, played.headers['content-disposition']]).toEqual([200, 'inline; filename="clip-1-720p.mp4"']);
  });

  it('refuses a visitor, a lapsed member, and a VOD not bought; a bought VOD downloads with a UTF-8 name', async () => {
    expect((await raw(at.fx.media.url, DOWNLOAD)).status).toBe(401);
    expect((await raw(at.fx.media.url, DOWNLOAD, cookie(member({ membershipActiveUntil: null })))).status).toBe(403);
    expect((await raw(at.fx.media.url, VOD_DOWNLOAD('show-2'), cookie(member()))).status).toBe(403);
    const bought = await raw(at.fx.media.url, link(decodeURIComponent(VOD_DOWNLOAD('show-1'))));
    expect(bought.status).toBe(200);
    expect(bought.headers['content-disposition']).toBe(
      `attachment; filename="Show ete_480p.mp4"; filename*=UTF-8''Show%20%C3%A9t%C3%A9_480p.mp4`,
    );
  });

  it('treats an expired link as the original does, and a link for another path or size as invalid', async () => {
    const past = { expiresAt: now() - 10, issuedAt: now() - 100 };
    const expired = await raw(at.fx.media.url, link(DOWNLOAD, past));
    const expiredOriginal = await raw(at.fx.media.url, link(ORIGINAL, past));
    expect(expired.status).toBe(expiredOriginal.status);
    expect(JSON.parse(expired.body.toString()).error.code).toBe('token_expired');
    const other = link('/members/videorenditions/clip-1/Clip_A1_HD001_480p.mp4');
    expect((await raw(at.fx.media.url, DOWNLOAD + other.slice(other.indexOf('?')))).status).toBe(403);
    const original = link(ORIGINAL);
    expect((await raw(at.fx.media.url, DOWNLOAD + original.slice(original.indexOf('?')))).status).toBe(403);
  });

  it('refuses a revoked member and a link minted before the valid-from time', async () => {
    at.fx.media.revocations.replace(['42']);
    try {
      expect((await raw(at.fx.media.url, link(DOWNLOAD))).status).toBe(403);
      expect((await raw(at.fx.media.url, DOWNLOAD, cookie(member()))).status).toBe(403);
    } finally {
      at.fx.media.revocations.replace([]);
    }
    at.fx.media.revocations.replace([], [['42', now()]]);
    try {
      expect((await raw(at.fx.media.url, link(DOWNLOAD, { issuedAt: now() - 60 }))).status).toBe(403);
    } finally {
      at.fx.media.revocations.replace([]);
    }
  });

  it('answers 410 for a taken-down item, and 404 for a size that was not made or a bad name', async () => {
    takedowns.replace(['videorenditions/clip-1/']);
    try {
      expect((await raw(at.fx.media.url, link(DOWNLOAD))).status).toBe(410);
    } finally {
      takedowns.replace([]);
    }
    expect((await raw(at.fx.media.url, link('/members/videorenditions/clip-1/Clip_A1_HD001_1080p.mp4'))).status).toBe(404);
    expect((await raw(at.fx.media.url, link('/members/videorenditions/clip-1/Clip_A1_HD001_720p.mkv'))).status).toBe(404);
    expect((await raw(at.fx.media.url, '/members/videorenditions/clip-1/..%2f720p.mp4', cookie(member()))).status).toBe(400);
    expect((await raw(at.fx.media.url, '/members/videorenditions/clip-1/x/a_720p.mp4', cookie(member()))).status).toBe(404);
  });
});

describe('rendition downloads from an edge URL', () => {
  const secret = 'rendition-edge-secret-0123456789';
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture({ EDGE_URL_SECRET: secret });
    await putAll(fx.root, await files());
  });
  afterAll(() => fx?.stop());

  it('sends the name the edge URL was signed for, as an attachment: it names the path as a link does', async () => {
    const url = signEdgeUrl(secret, { path: DOWNLOAD, expiresAt: now() + 300, memberId: 42, issuedAt: now() - 1 });
    const res = await raw(fx.media.url, url);
    expect([res.status, res.headers['content-disposition']]).toEqual([200, ATTACHMENT]);
    expect(res.body.equals(RANGE_DATA)).toBe(true);
  });
});
