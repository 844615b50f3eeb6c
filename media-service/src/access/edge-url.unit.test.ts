import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signEdgeUrl, verifyEdgeUrl } from '@media-site/contracts/edge-url';
import { purgeEventOf } from './purge';
import { TakedownList } from './takedowns';

const SECRET = 'unit-edge-secret-0123456789';
const query = (url: string) =>
  Object.fromEntries(new URL(url, 'http://x').searchParams) as { md5?: string; expires?: string; mid?: string; iat?: string };

describe('edge URLs (nginx secure_link md5)', () => {
  it('signs md5("<expires><decoded uri> <mid> <iat> <secret>") as base64url without padding', () => {
    const url = signEdgeUrl(SECRET, { path: '/members/video/a b/x é.mp4', expiresAt: 2_000_000_000, memberId: 7, issuedAt: 1_999_999_700 });
    const want = createHash('md5')
      .update(`2000000000/edge/members/video/a b/x é.mp4 7 1999999700 ${SECRET}`)
      .digest('base64')
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=/g, '');
    expect(url).toBe(`/edge/members/video/a%20b/x%20%C3%A9.mp4?md5=${want}&expires=2000000000&mid=7&iat=1999999700`);
  });

  it('verifies its own path only, until it expires', () => {
    const q = query(signEdgeUrl(SECRET, { path: 'photos/set-1/01.jpg', expiresAt: 1000, memberId: 'm1', issuedAt: 700 }));
    expect(verifyEdgeUrl(SECRET, 'photos/set-1/01.jpg', q, 999)).toEqual({ ok: true, expiresAt: 1000, memberId: 'm1', issuedAt: 700 });
    // nginx's rule: still valid in the expiry second, expired after it.
    expect(verifyEdgeUrl(SECRET, 'photos/set-1/01.jpg', q, 1000.5).ok).toBe(true);
    expect(verifyEdgeUrl(SECRET, 'photos/set-1/01.jpg', q, 1001)).toEqual({ ok: false, reason: 'expired' });
    expect(verifyEdgeUrl(SECRET, 'photos/set-1/02.jpg', q, 999)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyEdgeUrl('another-secret-0123456789', 'photos/set-1/01.jpg', q, 999)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyEdgeUrl(SECRET, 'photos/set-1/01.jpg', { ...q, expires: '1001' }, 999)).toEqual({ ok: false, reason: 'bad_signature' });
    for (const bad of [
      {},
      { ...q, md5: `${q.md5}x` },
      { ...q, expires: '-1' },
      { ...q, md5: q.md5?.replace(/.$/, '+') },
      { ...q, mid: 'm 1' },
      { ...q, iat: '' },
    ]) {
      expect(verifyEdgeUrl(SECRET, 'photos/set-1/01.jpg', bad, 999)).toEqual({ ok: false, reason: 'malformed' });
    }
  });

  it('covers the member and the mint time: another of either, or a URL without them, fails', () => {
    const q = query(signEdgeUrl(SECRET, { path: 'photos/set-1/01.jpg', expiresAt: 1000, memberId: 7, issuedAt: 700 }));
    expect(verifyEdgeUrl(SECRET, 'photos/set-1/01.jpg', { ...q, iat: '701' }, 999)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verifyEdgeUrl(SECRET, 'photos/set-1/01.jpg', { ...q, mid: '8' }, 999)).toEqual({ ok: false, reason: 'bad_signature' });
    // The old member-less form, md5 over "<expires><uri> <secret>" with no member: refused.
    const old = createHash('md5').update(`1000/edge/members/photos/set-1/01.jpg ${SECRET}`).digest('base64url');
    expect(verifyEdgeUrl(SECRET, 'photos/set-1/01.jpg', { md5: old, expires: '1000' }, 999)).toEqual({ ok: false, reason: 'malformed' });
    expect(verifyEdgeUrl(SECRET, 'photos/set-1/01.jpg', { md5: old, expires: '1000', mid: '7', iat: '700' }, 999)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });
});

describe('the purge hook inputs', () => {
  it('names the member and edge prefixes of each folder, percent-encoded', () => {
    expect(purgeEventOf('takedown', ['video/a b/'])).toEqual({
      event: 'takedown',
      prefixes: ['video/a b/'],
      urls: ['/members/video/a%20b/', '/edge/members/video/a%20b/'],
    });
  });

  it('reports what a refresh added and removed, never the first load', () => {
    const list = new TakedownList();
    const changes: string[] = [];
    list.onChange = (added, removed) => changes.push(`+${added.join(',')} -${removed.join(',')}`);
    list.replace(['video/a/']);
    list.replace(['video/a/']);
    list.replace(['video/a/', 'vod/b/']);
    list.replace(['vod/b/']);
    expect(changes).toEqual(['+vod/b/ -', '+ -video/a/']);
  });
});
