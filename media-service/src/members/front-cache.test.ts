import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signSessionToken } from '@media-site/contracts/token';
import { jpeg, keys, put, raw, startFixture } from '../test/helpers';
import type { Fixture } from '../test/helpers';

// nginx's public-families location caches what it receives, and never stores an
// X-Accel-Redirect answer. It asks for the bytes with `X-Front-Cache: store`; the service honours
// that for public files only (a member file stays offloaded, whoever sends the header).
const now = () => Math.floor(Date.now() / 1000);
const member = () => signSessionToken(keys, { memberId: 42, expiresAt: now() + 600, membershipActiveUntil: now() + 86_400, vodPaths: [] });
const STORE = { 'X-Front-Cache': 'store' };

describe('X-Front-Cache: store with MEDIA_OFFLOAD=nginx', () => {
  let fx: Fixture;
  let image: Buffer;
  beforeAll(async () => {
    fx = await startFixture({ MEDIA_OFFLOAD: 'nginx' });
    image = await jpeg(64, 48);
    await put(fx.root, 'photosthumbs/set-1/large.jpg', image);
    await put(fx.root, 'photos/set-1/01.jpg', image);
  });
  afterAll(() => fx.stop());

  it('sends a public file itself, with its validators and Range, when the front door stores it', async () => {
    const res = await raw(fx.media.url, '/members/photosthumbs/set-1/large.jpg', STORE);
    expect(res.status).toBe(200);
    expect(res.headers['x-accel-redirect']).toBeUndefined();
    expect(res.body.equals(image)).toBe(true);
    expect(res.headers.etag).toBeTruthy();
    expect(res.headers['last-modified']).toBeTruthy();
    expect(res.headers['cache-control']).toBe('public, max-age=300, s-maxage=5');
    const part = await raw(fx.media.url, '/members/photosthumbs/set-1/large.jpg', { ...STORE, Range: 'bytes=0-9' });
    expect(part.status).toBe(206);
    expect(part.body.equals(image.subarray(0, 10))).toBe(true);
    const again = await raw(fx.media.url, '/members/photosthumbs/set-1/large.jpg', { ...STORE, 'If-None-Match': String(res.headers.etag) });
    expect(again.status).toBe(304);
  });

  it('still offloads a public file without the header', async () => {
    const res = await raw(fx.media.url, '/members/photosthumbs/set-1/large.jpg');
    expect(res.headers['x-accel-redirect']).toBe('/_protected/photosthumbs/set-1/large.jpg');
    expect(res.body.length).toBe(0);
  });

  it('still offloads a member file whatever the header says', async () => {
    const res = await raw(fx.media.url, '/members/photos/set-1/01.jpg', { ...STORE, Cookie: `media_token=${member()}` });
    expect(res.status).toBe(200);
    expect(res.headers['x-accel-redirect']).toBe('/_protected/photos/set-1/01.jpg');
    expect(res.body.length).toBe(0);
  });
});
