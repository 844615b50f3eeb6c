import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '@media-site/db/testing';
import { verifyDownloadUrl, verifySessionToken } from '@media-site/contracts/token';
import { DEVICE_COOKIE, verifyDeviceCookie } from '../../../security/device-cookie';
import { ORIGIN, VIDEO, VOD, insertVideo, pay, signIn, startAccountKit, type AccountKit } from '../../../test/account-kit';
import { mediaTokenOf } from '../../../test/cookies';

describe.each(testBackends())('members: sign-in, sessions, download links (%s)', (backend) => {
  let kit: AccountKit;
  let cookie: string;
  let firstCookies: string[];
  beforeAll(async () => {
    kit = await startAccountKit(backend, { RATE_LIMIT_LOGIN_PER_MINUTE: '4' });
    await insertVideo(kit.db.knex);
    await pay(kit, { username: 'member_a' });
    ({ cookie, cookies: firstCookies } = await signIn(kit, 'member_a'));
  });
  afterAll(() => kit?.close());

  it('answers /api/me for a session and 401 without one', async () => {
    const me = await kit.request.get('/api/me').set('Cookie', cookie);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username: 'member_a', membership: { active: true }, vods: [] });
    expect(verifySessionToken(kit.deps.settings.mediaKeys, mediaTokenOf(me)).ok).toBe(true);
    expect((await kit.request.get('/api/me')).status).toBe(401);
  });

  it('marks cookies Secure when a trusted proxy says https', async () => {
    const res = await kit.request.get('/api/me').set({ Cookie: cookie, 'X-Forwarded-Proto': 'https' });
    const set = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
    expect(set.length).toBeGreaterThan(0);
    for (const c of set) expect(c).toMatch(/; secure(;|$)/i);
    const plain = await kit.request.get('/api/me').set({ Cookie: cookie });
    for (const c of ([] as string[]).concat(plain.headers['set-cookie'] ?? [])) expect(c).not.toMatch(/; secure/i);
  });

  it('sets the session for its lifetime and the media token for the browser session, both HttpOnly and SameSite=Lax', async () => {
    const set = (await signIn(kit, 'member_a')).cookies;
    const sid = set.find((c) => c.startsWith('sid=')) ?? '';
    const expires = Date.parse(/; expires=([^;]+)/i.exec(sid)?.[1] ?? '');
    expect(Math.abs(expires - Date.now() - kit.deps.settings.sessionTtlHours * 3_600_000)).toBeLessThan(60_000);
    const media = set.find((c) => c.startsWith('media_token=')) ?? '';
    expect(media).toMatch(/; path=\/members; samesite=lax; httponly$/i);
    expect(set.find((c) => c.startsWith('signed_in=1'))).not.toMatch(/httponly/i);
    for (const c of [sid, media]) expect(c).toMatch(/; samesite=lax; httponly$/i);
  });

  it('keys the device cookie with SIGNIN_KEYS, not the media keys the media service also holds', async () => {
    const device = firstCookies.find((c) => c.startsWith(`${DEVICE_COOKIE}=`)) ?? '';
    const value = device.split(';')[0]?.slice(DEVICE_COOKIE.length + 1);
    expect(verifyDeviceCookie(kit.deps.settings.signinKeys, value)?.username).toBe('member_a');
    expect(verifyDeviceCookie(kit.deps.settings.mediaKeys, value)).toBeUndefined();
  });

  it('signs a resumable download link for an entitled file of a released item only, valid at least 24 hours', async () => {
    const res = await kit.request
      .get('/api/download-link')
      .query({ path: `/members/video/${VIDEO.path}/${VIDEO.file}` })
      .set('Cookie', cookie);
    expect(res.status).toBe(200);
    const url = new URL(res.body.url, 'http://site');
    expect(url.pathname).toBe('/members/video/some%20set/clip%20001.mp4');
    const q = Object.fromEntries(url.searchParams);
    const verified = verifyDownloadUrl(kit.deps.settings.mediaKeys, 'video/some set/clip 001.mp4', q);
    expect(verified.ok).toBe(true);
    if (verified.ok) expect(verified.value.expiresAt * 1000 - Date.now()).toBeGreaterThanOrEqual(24 * 3_600_000);
    const vod = await kit.request
      .get('/api/download-link')
      .query({ path: `/members/vod/${VOD.path}/x.mp4` })
      .set('Cookie', cookie);
    expect(vod.status).toBe(403);
    // A folder that holds no item is signed nothing (hidden-items.test.ts: nor a scheduled or taken-down one).
    const none = await kit.request
      .get('/api/download-link')
      .query({ path: '/members/video/no such set/clip 001.mp4' })
      .set('Cookie', cookie);
    expect({ status: none.status, body: none.body }).toEqual({
      status: 404,
      body: { error: { code: 'not_found', message: 'no such item' } },
    });
    expect(
      (await kit.request.get('/api/download-link').query({ path: '/members/video/../../etc/passwd' }).set('Cookie', cookie)).status,
    ).toBe(400);
    expect((await kit.request.get('/api/download-link').query({ path: '/members/video/a/b.mp4' })).status).toBe(401);
  });

  it('signs out: the session stops working', async () => {
    const { cookie: other } = await signIn(kit, 'member_a');
    const out = await kit.request.post('/api/logout').set({ Origin: ORIGIN, Cookie: other });
    expect(out.status).toBe(204);
    expect((await kit.request.get('/api/me').set('Cookie', other)).status).toBe(401);
  });

  it('refuses a wrong password, then rate-limits sign-in attempts', async () => {
    const attempt = () => kit.request.post('/api/login').set('Origin', ORIGIN).send({ username: 'member_a', password: 'wrong password' });
    expect((await attempt()).status).toBe(401);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await attempt()).status);
    expect(statuses).toContain(429);
    expect((await attempt()).body.error.code).toBe('rate_limited');
  });
});
