import { expect, it } from 'vitest';
import { ORIGIN, VOD, pay, signIn, startAccountKit, type AccountKit } from '../../../test/account-kit';
import { cookieHeader, setCookies } from '../../../test/cookies';
import { describeWithKit } from '../../../test/suite';

/** Joins (the payment signs in) and returns the session's Cookie header. */
async function join(kit: AccountKit, username: string): Promise<string> {
  const { result } = await pay(kit, { username });
  return cookieHeader(setCookies(result));
}

describeWithKit('the member account: /api/account, password, sign out everywhere', startAccountKit, (kit) => {
  it('shows the membership, whether it renews and the bought VODs with their download paths', async () => {
    const cookie = await join(kit(), 'acct_a');
    await pay(kit(), { username: 'acct_a', vod: VOD.path, cookie, credentials: false });
    const res = await kit().request.get('/api/account').set('Cookie', cookie);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({ username: 'acct_a', membership: { active: true, renews: true }, vods: [VOD.path] });
    expect(res.body.membership.paidUntil).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const original = `/members/vod/${VOD.path}/vod one.mp4`;
    // Not encoded: the original alone, size unknown (playback/downloads.test.ts covers the renditions).
    expect(res.body.vodItems).toEqual([
      { path: VOD.path, updatename: 'VOD one', download: original, downloads: [{ label: 'Original', bytes: null, path: original }] },
    ]);
    await kit().db.knex('subscriptions').where({ kind: 'membership' }).update({ status: 'cancelled' });
    expect((await kit().request.get('/api/account').set('Cookie', cookie)).body.membership).toMatchObject({ active: true, renews: false });
    expect((await kit().request.get('/api/account')).status).toBe(401);
  });

  it('changes the password with the current one; other sessions end, this browser stays signed in', async () => {
    const cookie = await join(kit(), 'acct_pw');
    const { cookie: elsewhere } = await signIn(kit(), 'acct_pw');
    const change = (body: object, headers: Record<string, string> = { Origin: ORIGIN, Cookie: cookie }) =>
      kit().request.post('/api/account/password').set(headers).send(body);

    expect(
      (
        await change(
          { currentPassword: 'correct horse', newPassword: 'new horse battery' },
          { Origin: 'https://evil.example', Cookie: cookie },
        )
      ).status,
    ).toBe(403);
    expect((await change({ currentPassword: 'correct horse', newPassword: 'new horse battery' }, { Origin: ORIGIN })).status).toBe(401);
    for (const body of [
      {},
      { currentPassword: 'correct horse' },
      { currentPassword: 'correct horse', newPassword: 'short' },
      { currentPassword: 'correct horse', newPassword: 'x'.repeat(65) },
    ]) {
      const res = await change(body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/^(currentPassword|newPassword): /);
    }
    expect((await change({ currentPassword: 'correct horse', newPassword: 'correct horse' })).status).toBe(400);
    const wrong = await change({ currentPassword: 'not my password', newPassword: 'new horse battery' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.message).toBe('the current password is wrong');

    const ok = await change({ currentPassword: 'correct horse', newPassword: 'new horse battery' });
    expect(ok.status).toBe(204);
    const fresh = cookieHeader(setCookies(ok).filter((c) => !c.startsWith('media_token=')));
    expect(fresh).toMatch(/sid=/);
    expect((await kit().request.get('/api/me').set('Cookie', elsewhere)).status).toBe(401);
    expect((await kit().request.get('/api/me').set('Cookie', cookie)).status).toBe(401);
    expect((await kit().request.get('/api/me').set('Cookie', fresh)).status).toBe(200);
    expect((await signIn(kit(), 'acct_pw')).res.status).toBe(401);
    expect((await signIn(kit(), 'acct_pw', 'new horse battery')).res.status).toBe(200);
  });

  it('signs out everywhere: every session of the member ends, other members keep theirs', async () => {
    const cookie = await join(kit(), 'acct_out');
    const { cookie: elsewhere } = await signIn(kit(), 'acct_out');
    const { cookie: someoneElse } = await signIn(kit(), 'acct_a');
    const out = (headers: Record<string, string>) => kit().request.post('/api/account/sign-out-everywhere').set(headers);
    expect((await out({ Origin: 'https://evil.example', Cookie: cookie })).status).toBe(403);
    expect((await out({ Origin: ORIGIN })).status).toBe(401);
    const res = await out({ Origin: ORIGIN, Cookie: cookie });
    expect(res.status).toBe(204);
    expect(setCookies(res).find((c) => c.startsWith('sid='))).toMatch(/^sid=;/);
    expect((await kit().request.get('/api/me').set('Cookie', cookie)).status).toBe(401);
    expect((await kit().request.get('/api/me').set('Cookie', elsewhere)).status).toBe(401);
    expect((await kit().request.get('/api/me').set('Cookie', someoneElse)).status).toBe(200);
  });
});

describeWithKit(
  'password change limits',
  (backend) => startAccountKit(backend, { RATE_LIMIT_LOGIN_PER_ACCOUNT: '3' }),
  (kit) => {
    it('refuses guesses of the current password past RATE_LIMIT_LOGIN_PER_ACCOUNT per 15 minutes', async () => {
      const { result } = await pay(kit(), { username: 'acct_guess' });
      const cookie = cookieHeader(setCookies(result));
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        statuses.push(
          (
            await kit()
              .request.post('/api/account/password')
              .set({ Origin: ORIGIN, Cookie: cookie })
              .send({ currentPassword: `guess ${i}xx`, newPassword: 'new horse battery' })
          ).status,
        );
      }
      expect(statuses.slice(0, 3)).toEqual([403, 403, 403]);
      expect(statuses.slice(3)).toEqual([429, 429]);
    });
  },
);
