import { expect, it } from 'vitest';
import { ORIGIN, VOD, pay, prepare, signIn, startAccountKit } from '../../../test/account-kit';
import { cookieHeader, setCookies } from '../../../test/cookies';
import { describeWithKit } from '../../../test/suite';

const sidOf = (set: string[]) => set.find((c) => c.startsWith('sid='));

describeWithKit(
  'signed in by the approved payment',
  (backend) => startAccountKit(backend, { RATE_LIMIT_USERNAME_PER_MINUTE: '1000' }),
  (kit) => {
    it('the call that spent the handle gets the session, the signed-in marker and the media cookie', async () => {
      const { result } = await pay(kit(), { username: 'paid_in' });
      expect(result.body).toEqual({ approved: true, status: 'approved' });
      const set = setCookies(result);
      expect(sidOf(set)).toMatch(/; samesite=lax; httponly$/i);
      expect(set.find((c) => c.startsWith('signed_in=1'))).toBeDefined();
      expect(set.find((c) => c.startsWith('media_token='))).toMatch(/; path=\/members;/i);
      const me = await kit().request.get('/api/me').set('Cookie', cookieHeader(set));
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ username: 'paid_in', membership: { active: true } });
    });

    it('a repeat of the call, or another browser sending the same payment token, gets the outcome but no session', async () => {
      const prepared = await prepare(kit(), { username: 'paid_twice' });
      const site = { Origin: ORIGIN, ...prepared.cookie };
      const first = await kit().request.post('/api/process_payment').set(site).send(prepared.body);
      expect(sidOf(setCookies(first))).toBeDefined();
      const again = await kit().request.post('/api/process_payment').set(site).send(prepared.body);
      expect(again.body).toEqual({ approved: true, status: 'approved' });
      expect(setCookies(again)).toEqual([]);
      // Another browser (no step-1 cookie) that learnt the token and the handle learns the outcome only.
      const stranger = await kit().request.post('/api/process_payment').set('Origin', ORIGIN).send(prepared.body);
      expect(stranger.body.approved).toBe(true);
      expect(setCookies(stranger)).toEqual([]);
    });

    it('joining while signed in as another member replaces that session (and ends it)', async () => {
      const { cookie: before } = await signIn(kit(), 'paid_in');
      const { result } = await pay(kit(), { username: 'paid_switch', cookie: before });
      expect(result.body.approved).toBe(true);
      const after = cookieHeader(setCookies(result));
      expect((await kit().request.get('/api/me').set('Cookie', after)).body.username).toBe('paid_switch');
      expect((await kit().request.get('/api/me').set('Cookie', before)).status).toBe(401);
    });

    it('a declined card signs nobody in', async () => {
      const { result } = await pay(kit(), { username: 'paid_declined', cardEnding: '0000' });
      expect(result.body.approved).toBe(false);
      expect(setCookies(result)).toEqual([]);
    });

    it('a member buying a VOD keeps their session and gets a media cookie that carries the VOD', async () => {
      const { cookie } = await signIn(kit(), 'paid_in');
      const { result } = await pay(kit(), { username: 'paid_in', vod: VOD.path, cookie, credentials: false });
      expect(result.body.approved).toBe(true);
      const set = setCookies(result);
      expect(sidOf(set)).toBeUndefined();
      expect(set.find((c) => c.startsWith('media_token='))).toBeDefined();
      expect((await kit().request.get('/api/me').set('Cookie', cookie)).body.vods).toEqual([VOD.path]);
    });
  },
);

describeWithKit(
  'GET /api/username-available',
  async (backend) => {
    const kit = await startAccountKit(backend, { RATE_LIMIT_USERNAME_PER_MINUTE: '12' });
    await pay(kit, { username: 'taken_one' });
    return kit;
  },
  (kit) => {
    const check = (u: string) => kit().request.get('/api/username-available').query({ u });

    it('says whether a username is free, in any letter case, counting payments in progress', async () => {
      expect((await check('free_one')).body).toEqual({ username: 'free_one', available: true });
      expect((await check('taken_one')).body.available).toBe(false);
      expect((await check('TAKEN_One')).body.available).toBe(false);
      await kit().db.knex('payment_attempts').insert({
        payment_token: 'pendingtoken1',
        kind: 'membership',
        username: 'in_flight',
        email: 'a@example.com',
        amount: '14.99',
        currency_code: 840,
        status: 'pending',
        reservation: 'u:in_flight',
        created_at: Date.now(),
        updated_at: Date.now(),
      });
      expect((await check('in_flight')).body.available).toBe(false);
      expect((await check('free_one')).headers['cache-control']).toBe('no-store');
    });

    it('answers 400 for what could never be a username', async () => {
      for (const u of ['ab', 'sixteen_chars_xx', 'has space', 'émilie', '']) {
        const res = await check(u);
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/^u: /);
      }
      expect((await kit().request.get('/api/username-available')).status).toBe(400);
      expect((await kit().request.get('/api/username-available?u=abc&u=def')).status).toBe(400);
    });

    it('limits checks per address (RATE_LIMIT_USERNAME_PER_MINUTE)', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 14; i += 1) statuses.push((await check(`probe_${i}`)).status);
      expect(statuses).toContain(429);
      expect((await check('probe_x')).body.error.code).toBe('rate_limited');
    });
  },
);
