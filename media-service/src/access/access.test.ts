import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseKeyRing, signDownloadUrl, signSessionToken, verifyDownloadUrl, verifySessionToken } from '@media-site/contracts/token';
import { RANGE_DATA, keys, put, raw, startFixture } from '../test/helpers';
import type { Fixture } from '../test/helpers';

const now = () => Math.floor(Date.now() / 1000);
const HOUR = 3600;

function session(over: Partial<Parameters<typeof signSessionToken>[1]> = {}, ring = keys): string {
  return signSessionToken(ring, {
    memberId: 42,
    expiresAt: now() + 600,
    membershipActiveUntil: now() + 30 * 24 * HOUR,
    vodPaths: ['show-1'],
    ...over,
  });
}

const cookie = (token: string) => ({ Cookie: `media_token=${token}` });

describe('token format', () => {
  it('round-trips a session token and refuses tampering, unknown keys and expiry', () => {
    const token = session();
    const ok = verifySessionToken(keys, token);
    expect(ok).toEqual({ ok: true, value: expect.objectContaining({ memberId: '42', vodPaths: ['show-1'] }) });
    const [v, kid, body, sig] = token.split('.') as [string, string, string, string];
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), vod: ['show-2'] })).toString(
      'base64url',
    );
    expect(verifySessionToken(keys, [v, kid, forged, sig].join('.'))).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifySessionToken(keys, [v, 'nope', body, sig].join('.'))).toEqual({ ok: false, reason: 'unknown_key' });
    expect(verifySessionToken(keys, 'garbage')).toEqual({ ok: false, reason: 'malformed' });
    expect(verifySessionToken(keys, session({ expiresAt: now() - 1 }))).toEqual({ ok: false, reason: 'expired' });
  });

  it('verifies with every configured key, signs with the first (rotation)', () => {
    const oldRing = parseKeyRing('k1:first-test-secret-value');
    expect(verifySessionToken(keys, session({}, oldRing)).ok).toBe(true);
    expect(session().split('.')[1]).toBe('k2');
  });

  it('binds a download URL to its path, member and expiry', () => {
    const url = new URL(signDownloadUrl(keys, { path: '/members/video/clip 1/a b.mp4', memberId: 7, expiresAt: now() + HOUR }), 'http://x');
    expect(url.pathname).toBe('/members/video/clip%201/a%20b.mp4');
    const q = Object.fromEntries(url.searchParams);
    expect(verifyDownloadUrl(keys, 'video/clip 1/a b.mp4', q).ok).toBe(true);
    expect(verifyDownloadUrl(keys, 'video/clip 1/other.mp4', q)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyDownloadUrl(keys, 'video/clip 1/a b.mp4', { ...q, mid: '8' })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyDownloadUrl(keys, 'video/clip 1/a b.mp4', { ...q, exp: String(Number(q.exp) + 1) })).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('carries the mint time under the signature; a link or token from before iat counts as minted at 0', () => {
    const url = new URL(
      signDownloadUrl(keys, { path: 'video/a/b.mp4', memberId: 7, expiresAt: now() + HOUR, issuedAt: 1_700_000_000 }),
      'http://x',
    );
    const q = Object.fromEntries(url.searchParams);
    expect(q.iat).toBe('1700000000');
    expect(verifyDownloadUrl(keys, 'video/a/b.mp4', q)).toEqual({
      ok: true,
      value: expect.objectContaining({ memberId: '7', issuedAt: 1_700_000_000 }),
    });
    // Moving iat forward past a valid-from, or dropping it, breaks the signature.
    expect(verifyDownloadUrl(keys, 'video/a/b.mp4', { ...q, iat: '1800000000' })).toEqual({ ok: false, reason: 'bad_signature' });
    const { iat: _dropped, ...noIat } = q;
    expect(verifyDownloadUrl(keys, 'video/a/b.mp4', noIat)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyDownloadUrl(keys, 'video/a/b.mp4', { ...q, iat: 'x' })).toEqual({ ok: false, reason: 'malformed' });
    expect(verifySessionToken(keys, session({ issuedAt: 1_700_000_000 }))).toEqual({
      ok: true,
      value: expect.objectContaining({ issuedAt: 1_700_000_000 }),
    });
    // A session token signed without iat (as signed before tokens carried their mint time): minted at 0.
    const payload = Buffer.from(JSON.stringify({ sub: '7', exp: now() + 60, mau: 0, vod: [] })).toString('base64url');
    const sig = createHmac('sha256', 'second-test-secret-value').update(`ms1.k2.${payload}`).digest('base64url');
    expect(verifySessionToken(keys, `ms1.k2.${payload}.${sig}`)).toEqual({ ok: true, value: expect.objectContaining({ issuedAt: 0 }) });
  });

  it('accepts only the exact signature text: any other last character, or a stray character, fails', () => {
    const token = session();
    const url = new URL(signDownloadUrl(keys, { path: '/members/video/a/b.mp4', memberId: 7, expiresAt: now() + HOUR }), 'http://x');
    const q = Object.fromEntries(url.searchParams);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // The last of 43 characters carries 4 bits of the HMAC and 2 spare bits that decoding ignores.
    for (const c of alphabet) {
      if (c === token.at(-1)) continue;
      expect(verifySessionToken(keys, token.slice(0, -1) + c), c).toEqual({ ok: false, reason: 'bad_signature' });
      if (c !== q.sig!.at(-1)) expect(verifyDownloadUrl(keys, 'video/a/b.mp4', { ...q, sig: q.sig!.slice(0, -1) + c }).ok, c).toBe(false);
    }
    expect(verifySessionToken(keys, token + '=').ok).toBe(false);
    expect(verifySessionToken(keys, token.slice(0, 50) + '*' + token.slice(50)).ok).toBe(false);
  });

  it('rejects bad key configuration, listing the problems', () => {
    expect(() => parseKeyRing('')).toThrow(/at least one key/);
    expect(() => parseKeyRing('a:short,b c:long-enough-secret-1')).toThrow(/secret must be at least 16.*key id "b c"/);
  });
});

describe('access rules per path family', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture();
  });
  afterAll(() => fx.stop());

  it.each([
    '/members/photosthumbs/set-1/large.jpg',
    '/members/videothumbs/clip-1/clip-1_02.jpg',
    '/members/vodthumbs/show-1/show-1_02.jpg',
    '/members/freephotos/set-1/free.jpg',
  ])('%s is public', async (path) => {
    const res = await raw(fx.media.url, path);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toMatch(/^public/);
  });

  it.each(['/members/photos/set-1/full.jpg', '/members/video/clip-1/clip-1001.mp4', '/members/vod/show-1/show-1.mp4'])(
    '%s needs a credential (401)',
    async (path) => {
      const res = await raw(fx.media.url, path);
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body.toString()).error.code).toBe('unauthenticated');
    },
  );

  it.each(['/members/photos/set-1/full.jpg', '/members/video/clip-1/clip-1001.mp4'])('%s needs an active membership', async (path) => {
    const active = await raw(fx.media.url, path, cookie(session()));
    expect(active.status).toBe(200);
    expect(active.headers['cache-control']).toBe('private, no-cache');
    const lapsed = await raw(fx.media.url, path, cookie(session({ membershipActiveUntil: now() - 60 })));
    expect(lapsed.status).toBe(403);
    const never = await raw(fx.media.url, path, cookie(session({ membershipActiveUntil: null })));
    expect(never.status).toBe(403);
  });

  it('vod needs that VOD bought, membership or not', async () => {
    expect((await raw(fx.media.url, '/members/vod/show-1/show-1.mp4', cookie(session()))).status).toBe(200);
    expect((await raw(fx.media.url, '/members/vod/show-2/show-2.mp4', cookie(session()))).status).toBe(403);
    const buyerOnly = session({ membershipActiveUntil: null, vodPaths: ['show-2'] });
    expect((await raw(fx.media.url, '/members/vod/show-2/show-2.mp4', cookie(buyerOnly))).status).toBe(200);
    expect((await raw(fx.media.url, '/members/video/clip-1/clip-1001.mp4', cookie(buyerOnly))).status).toBe(403);
  });

  describe('a browser navigating to a refused file', () => {
    const NAVIGATE = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'Sec-Fetch-Mode': 'navigate' };
    it.each([
      ['/members/photos/set-1/full.jpg', {}, '/photos/set-1'],
      ['/members/photos/set-1/full.jpg', cookie(session({ membershipActiveUntil: now() - 60 })), '/photos/set-1'],
      ['/members/photos/set-1/full.jpg', cookie(session({ expiresAt: now() - 1 })), '/photos/set-1'],
      ['/members/video/clip-1/clip-1001.mp4', {}, '/video/clip-1'],
      ['/members/vod/show-2/show-2.mp4', cookie(session()), '/vod/show-2'],
    ])('%s goes to the page with the lock (303)', async (path, credentials, page) => {
      const res = await raw(fx.media.url, path, { ...NAVIGATE, ...credentials });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(page);
      expect(res.headers['cache-control']).toBe('no-store');
      // Without Sec-Fetch-Mode (older browsers, curl -H 'Accept: text/html') too.
      expect((await raw(fx.media.url, path, { Accept: 'text/html', ...credentials })).status).toBe(303);
    });

    it('keeps the JSON 401/403 for images, scripts, Range requests and other fetch modes', async () => {
      const path = '/members/photos/set-1/full.jpg';
      const image = await raw(fx.media.url, path, { Accept: 'image/avif,image/webp,image/*,*/*;q=0.8', 'Sec-Fetch-Mode': 'no-cors' });
      expect([image.status, JSON.parse(image.body.toString()).error.code]).toEqual([401, 'unauthenticated']);
      expect((await raw(fx.media.url, path, { Accept: 'application/json' })).status).toBe(401);
      expect((await raw(fx.media.url, path)).status).toBe(401);
      expect((await raw(fx.media.url, path, { ...NAVIGATE, Range: 'bytes=0-9' })).status).toBe(401);
      expect((await raw(fx.media.url, path, { ...NAVIGATE, 'Sec-Fetch-Mode': 'cors' })).status).toBe(401);
      expect(
        (await raw(fx.media.url, path, { ...NAVIGATE, ...cookie(session({ membershipActiveUntil: now() - 60 })), Range: 'bytes=0-1' }))
          .status,
      ).toBe(403);
      // Allowed and missing files are unchanged.
      expect((await raw(fx.media.url, path, { ...NAVIGATE, ...cookie(session()) })).status).toBe(200);
      expect((await raw(fx.media.url, '/members/photos/set-1/none.jpg', { ...NAVIGATE, ...cookie(session()) })).status).toBe(404);
    });
  });

  it('an expired session answers 403 saying it expired', async () => {
    const res = await raw(fx.media.url, '/members/photos/set-1/full.jpg', cookie(session({ expiresAt: now() - 1 })));
    expect(res.status).toBe(403);
    const { error } = JSON.parse(res.body.toString());
    expect(error.code).toBe('token_expired');
    expect(error.message).toMatch(/expired/);
  });

  it('a forged session answers 403', async () => {
    const forged = session().replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await raw(fx.media.url, '/members/photos/set-1/full.jpg', cookie(forged))).status).toBe(403);
  });

  describe('signed download URLs', () => {
    const path = '/members/video/clip-1/clip-1001.mp4';

    it('work without a cookie, resume with Range, and only for their own path', async () => {
      const url = signDownloadUrl(keys, { path, memberId: 42, expiresAt: now() + 24 * HOUR });
      const full = await raw(fx.media.url, url);
      expect(full.status).toBe(200);
      expect(full.body.equals(RANGE_DATA)).toBe(true);
      const resumed = await raw(fx.media.url, url, { Range: 'bytes=600-' });
      expect(resumed.status).toBe(206);
      expect(resumed.body.equals(RANGE_DATA.subarray(600))).toBe(true);
      const other = url.replace('/members/video/clip-1/clip-1001.mp4', '/members/vod/show-2/show-2.mp4');
      expect((await raw(fx.media.url, other)).status).toBe(403);
    });

    it('an expired link answers 403 saying it expired', async () => {
      const url = signDownloadUrl(keys, { path, memberId: 42, expiresAt: now() - 5 });
      const res = await raw(fx.media.url, url);
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body.toString()).error.message).toMatch(/link has expired/);
    });
  });

  it('revoked members are refused at once, by cookie and by link', async () => {
    fx.media.revocations.add('99');
    const url = signDownloadUrl(keys, { path: '/members/video/clip-1/clip-1001.mp4', memberId: 99, expiresAt: now() + HOUR });
    expect((await raw(fx.media.url, url)).status).toBe(403);
    expect((await raw(fx.media.url, '/members/photos/set-1/full.jpg', cookie(session({ memberId: 99 })))).status).toBe(403);
    fx.media.revocations.replace([]);
    expect((await raw(fx.media.url, url)).status).toBe(200);
  });

  it("refuses links and tokens minted before the member's valid-from time, keeps later ones", async () => {
    const t = now();
    fx.media.revocations.replace([], [['77', t]]);
    const link = (issuedAt: number) =>
      signDownloadUrl(keys, { path: '/members/video/clip-1/clip-1001.mp4', memberId: 77, expiresAt: t + HOUR, issuedAt });
    const media = (issuedAt: number) => cookie(session({ memberId: 77, issuedAt }));
    expect((await raw(fx.media.url, link(t - 1))).status).toBe(403);
    expect(JSON.parse((await raw(fx.media.url, link(t - 1))).body.toString()).error.message).toMatch(
      /sign-out everywhere or a password change/,
    );
    expect((await raw(fx.media.url, '/members/photos/set-1/full.jpg', media(t - 1))).status).toBe(403);
    expect((await raw(fx.media.url, link(t))).status).toBe(200);
    expect((await raw(fx.media.url, '/members/photos/set-1/full.jpg', media(t))).status).toBe(200);
    // Another member is not touched.
    expect((await raw(fx.media.url, '/members/photos/set-1/full.jpg', cookie(session({ memberId: 78, issuedAt: t - 100 })))).status).toBe(
      200,
    );
    fx.media.revocations.replace([]);
  });

  it('refreshes the revocation list from an HTTP endpoint', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => res.end(JSON.stringify({ members: [5], validFrom: { '6': 1000 } })));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    await fx.media.revocations.refreshFrom(`http://127.0.0.1:${port}/revoked`);
    server.close();
    expect(fx.media.revocations.has('5')).toBe(true);
    expect([fx.media.revocations.refuses('6', 999), fx.media.revocations.refuses('6', 1000), fx.media.revocations.refuses('7', 0)]).toEqual(
      [true, false, false],
    );
    fx.media.revocations.replace([]);
  });

  describe('download names', () => {
    it('video and vod are attachments with ASCII filename and UTF-8 filename*', async () => {
      const res = await raw(fx.media.url, '/members/video/clip-1/clip-1001.mp4', cookie(session()));
      expect(res.headers['content-disposition']).toBe(`attachment; filename="clip-1001.mp4"; filename*=UTF-8''clip-1001.mp4`);
      expect(res.headers['content-type']).toBe('video/mp4');
      const vod = await raw(fx.media.url, '/members/vod/show-1/show-1.mp4', cookie(session()));
      expect(vod.headers['content-disposition']).toMatch(/^attachment; filename="show-1.mp4"/);
    });

    it('a non-ASCII name gets a transliterated fallback and an exact filename*', async () => {
      await put(fx.root, 'video/clip-2/Été à Paris – "ü" 100%001.mpg', 'x');
      const res = await raw(
        fx.media.url,
        '/members/video/clip-2/%C3%89t%C3%A9%20%C3%A0%20Paris%20%E2%80%93%20%22%C3%BC%22%20100%25001.mpg',
        cookie(session()),
      );
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('video/mpeg');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="Ete a Paris _ _u_ 100_001.mpg"; filename*=UTF-8''%C3%89t%C3%A9%20%C3%A0%20Paris%20%E2%80%93%20%22%C3%BC%22%20100%25001.mpg`,
      );
    });

    it('images are inline', async () => {
      const res = await raw(fx.media.url, '/members/photos/set-1/full.jpg', cookie(session()));
      expect(res.headers['content-disposition']).toBeUndefined();
    });
  });
});
