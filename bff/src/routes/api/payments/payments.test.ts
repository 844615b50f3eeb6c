import { describe, expect, it } from 'vitest';
import { paymentOutcomes } from '../../../metrics';
import { hashLogNFromEnv } from '@media-site/db/members';
import { takeDown } from '@media-site/db/content';
import { DECLINE_TEXT_MAX, outcomeOf } from './outcome';
import { setOffer, type AttemptRow } from '@media-site/db/payments';
import { OFFER_CHANGED } from '@media-site/contracts/membership-offer';
import {
  ORIGIN,
  VOD,
  insertVod,
  pay,
  prepare,
  sendWebhook,
  signIn,
  startAccountKit,
  subscriptionIdOf,
  withSetCookies,
} from '../../../test/account-kit';
import { describeWithKit } from '../../../test/suite';

const HIDDEN_VOD = { path: 'vod-hidden', price: '5.00' };

async function settledCount(outcome: string): Promise<number> {
  const { values } = await paymentOutcomes.get();
  return values.find((v) => v.labels.step === 'settle' && v.labels.outcome === outcome)?.value ?? 0;
}

describeWithKit('payment chain', startAccountKit, (kit, backend) => {
  const chargesFor = (token: string) => kit().sim.charges.filter((c) => c.paymentTokenId === token);

  it('approves, creates the member and lets them sign in', async () => {
    const approvedBefore = await settledCount('approved');
    const { first, second, result } = await pay(kit(), { username: 'new_member1' });
    expect(await settledCount('approved')).toBe(approvedBefore + 1);
    expect(first.body).toMatchObject({ token_type: 'bearer', providerBase: kit().sim.url, clientAccnum: 900000 });
    // Step 3 hands out our single-use handle, never the provider's backend bearer.
    expect(second?.body.access_token).toMatch(/^[\w-]{43}$/);
    expect(second?.body.access_token).not.toBe((await kit().deps.provider.backendBearer.token()).accessToken);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ approved: true, status: 'approved' });

    const { res, cookies } = await signIn(kit(), 'new_member1');
    expect(res.status).toBe(200);
    expect(res.body.membership.active).toBe(true);
    expect(cookies.find((c) => c.startsWith('sid='))).toMatch(/; httponly/i);
    expect(cookies.find((c) => c.startsWith('sid='))).toMatch(/; samesite=lax/i);
    expect(cookies.find((c) => c.startsWith('media_token='))).toMatch(/; path=\/members(;|$)/i);
    const row = await kit().db.knex('members').where({ username: 'new_member1' }).first();
    expect(row.password_hash).toMatch(new RegExp(`^scrypt\\$${hashLogNFromEnv()}\\$8\\$1\\$`));
  });

  it('charges the configured price whatever the request says', async () => {
    const { paymentToken, result } = await pay(kit(), {
      username: 'cheap_one',
      formExtras: { initialPrice: '0.01', recurringPrice: '0.01', rebills: '0', currencyCode: '978', price: '0.01' },
    });
    expect(result.body.approved).toBe(true);
    const [charge] = chargesFor(paymentToken as string);
    expect(charge).toMatchObject({ initialPrice: '14.99', currencyCode: '840' });
  });

  it("charges the owner's offer with its trial, and each member keeps the terms they joined on", async () => {
    const { knex } = kit().db;
    const owner = { actor: 'owner1', address: '127.0.0.1' };
    const defaults = { price: '14.99', periodDays: 30 };
    try {
      await setOffer(knex, { price: '19.99', periodDays: 30, trial: { price: '1.95', days: 2 } }, defaults, { ...owner, now: Date.now() });
      const config = (await kit().request.get('/api/payment-config').expect(200)).body;
      expect(config.offer).toMatchObject({ price: '19.99', periodDays: 30, trial: { price: '1.95', days: 2 }, renews: true });
      const before = Date.now();
      const { paymentToken, result } = await pay(kit(), { username: 'trial_one' });
      expect(result.body.approved).toBe(true);
      expect(chargesFor(paymentToken as string)[0]).toMatchObject({
        initialPrice: '1.95',
        initialPeriod: '2',
        recurringPrice: '19.99',
        recurringPeriod: '30',
        rebills: '99',
        currencyCode: '840',
      });
      const member = await knex('members').where({ username: 'trial_one' }).first('id');
      const attempt = await knex('payment_attempts').where({ member_id: member.id }).first();
      expect([attempt.amount, Number(attempt.period_days), attempt.recurring_price, Number(attempt.recurring_period_days)]).toEqual([
        '1.95',
        2,
        '19.99',
        30,
      ]);
      const subscription = await knex('subscriptions').where({ member_id: member.id }).first();
      // Access for the trial's 2 days; a renewal then adds the recurring 30.
      expect(Number(subscription.paid_until) - before).toBeGreaterThanOrEqual(2 * 86_400_000);
      expect(Number(subscription.paid_until) - Date.now()).toBeLessThanOrEqual(2 * 86_400_000);
      expect(Number(subscription.period_days)).toBe(30);
      const welcome = await knex('mail_outbox')
        .where({ mail_key: `welcome:attempt:${attempt.id}` })
        .first('text_body');
      expect(welcome.text_body).toContain('Membership, 2-day trial, then $19.99 every 30 days until you cancel');
      expect(welcome.text_body).toContain('$1.95');
      // The first renewal (no next date given) adds the recurring 30 days, not the trial's 2.
      const subscriptionId = await subscriptionIdOf(kit(), 'trial_one');
      await sendWebhook(kit(), 'RenewalSuccess', { subscriptionId, transactionId: 'trial-renew', billedAmount: '19.99' });
      const renewed = await knex('subscriptions').where({ member_id: member.id }).first('paid_until');
      expect(Number(renewed.paid_until) - Number(subscription.paid_until)).toBeGreaterThanOrEqual(30 * 86_400_000);
      expect(Number(renewed.paid_until) - Number(subscription.paid_until)).toBeLessThan(31 * 86_400_000);

      // Terms changed after the page showed them: refused before any charge, nothing recorded.
      const shown = (await kit().request.get('/api/payment-config').expect(200)).body.offer.id as number;
      const stale = await prepare(kit(), { username: 'stale_one' });
      await setOffer(knex, { price: '24.99', periodDays: 30, trial: null }, defaults, { ...owner, now: Date.now() });
      const chargesBefore = kit().sim.charges.length;
      const refused = await kit()
        .request.post('/api/process_payment')
        .set({ Origin: ORIGIN, ...stale.cookie })
        .send({ ...stale.body, offerId: shown });
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toBe(OFFER_CHANGED);
      expect(kit().sim.charges.length).toBe(chargesBefore);
      expect(await knex('payment_attempts').where({ username: 'stale_one' }).first()).toBeUndefined();
      const current = (await kit().request.get('/api/payment-config').expect(200)).body.offer.id as number;
      const fresh = await prepare(kit(), { username: 'stale_one' });
      const paid = await kit()
        .request.post('/api/process_payment')
        .set({ Origin: ORIGIN, ...fresh.cookie })
        .send({ ...fresh.body, offerId: current });
      expect(paid.body.approved).toBe(true);
      expect(chargesFor(fresh.paymentToken as string)[0]).toMatchObject({ initialPrice: '24.99' });

      // A later change applies to the next sign-up only.
      await setOffer(knex, { price: '9.99', periodDays: 7, trial: null }, defaults, { ...owner, now: Date.now() });
      const next = await pay(kit(), { username: 'weekly_one' });
      expect(chargesFor(next.paymentToken as string)[0]).toMatchObject({
        initialPrice: '9.99',
        initialPeriod: '7',
        recurringPrice: '9.99',
        recurringPeriod: '7',
      });
      expect(Number((await knex('subscriptions').where({ member_id: member.id }).first()).period_days)).toBe(30);
    } finally {
      await knex('membership_offers').delete();
    }
    expect((await kit().request.get('/api/payment-config').expect(200)).body.offer).toEqual({
      id: 0,
      price: '14.99',
      periodDays: 30,
      trial: null,
      renews: true,
    });
  });

  it('reports a decline (HTTP 200, approved false) and creates no member', async () => {
    const { result } = await pay(kit(), { username: 'declined1', cardEnding: '0000' });
    expect(result.status).toBe(200);
    // The processor's own words (its code and text), which /ccbill shows under "Transaction failed.".
    expect(result.body).toMatchObject({ approved: false, status: 'declined', declineText: '27 System Error, Please Try Again' });
    expect(await kit().db.knex('members').where({ username: 'declined1' }).first()).toBeUndefined();
    // The username is free again for a second try.
    const retry = await kit()
      .request.post('/api/get_ccbill_token')
      .set('Origin', ORIGIN)
      .send({ username: 'declined1', password: 'correct horse' });
    expect(retry.status).toBe(200);
  });

  it('charges once for concurrent and repeated process_payment calls with one token', async () => {
    const prepared = await prepare(kit(), { username: 'twice_user' });
    const site = { Origin: ORIGIN, ...prepared.cookie };
    // The token is claimed by the first handle: not even this browser gets a second one for it.
    const other = await kit().request.post('/api/get_ccbill_back_token').set(site).send({ paymentToken: prepared.paymentToken });
    expect(other.status).toBe(403);
    const bodies = [prepared.body, prepared.body, prepared.body];
    const results = await Promise.all(bodies.map((b) => kit().request.post('/api/process_payment').set(site).send(b)));
    for (const r of results) expect(r.body).toEqual({ approved: true, status: 'approved' });
    const again = await kit().request.post('/api/process_payment').set(site).send(prepared.body);
    expect(again.body).toEqual({ approved: true, status: 'approved' });
    expect(chargesFor(prepared.paymentToken as string)).toHaveLength(1);
    expect(await kit().db.knex('members').where({ username: 'twice_user' })).toHaveLength(1);
  });

  it('refuses a second purchase of the same username (a double-clicked submit) before charging', async () => {
    const [a, b] = await Promise.all([prepare(kit(), { username: 'double_click' }), prepare(kit(), { username: 'double_click' })]);
    const results = await Promise.all(
      [a, b].map((p) =>
        kit()
          .request.post('/api/process_payment')
          .set({ Origin: ORIGIN, ...p.cookie })
          .send(p.body),
      ),
    );
    expect(results.map((r) => r.body.approved === true).filter(Boolean)).toHaveLength(1);
    expect(kit().sim.charges.filter((c) => c.passThrough.username === 'double_click')).toHaveLength(1);
  });

  it('leaves a stalled charge unknown, says so, and settles it from the webhook', async () => {
    const { result } = await pay(kit(), { username: 'stalled1', cardEnding: '0002' });
    expect(result.status).toBe(202);
    expect(result.body).toMatchObject({ approved: false, status: 'unknown' });
    expect(result.body.message).toMatch(/Do not pay again/);
    const attempt = await kit().db.knex('payment_attempts').where({ username: 'stalled1' }).first();
    expect(attempt.status).toBe('unknown');
    expect(await kit().db.knex('members').where({ username: 'stalled1' }).first()).toBeUndefined();
    const hook = await kit()
      .request.post('/api/ccbill/webhook?clientAccnum=900000&clientSubacc=0&eventType=UpSaleSuccess&eventGroupType=Subscription')
      .set('X-Forwarded-For', '64.38.212.7')
      .send({
        transactionId: '900000000000000001',
        subscriptionId: '123456789012345678',
        'X-attempt': String(attempt.id),
        clientAccnum: 900000,
      });
    expect(hook.status).toBe(200);
    expect(await kit().db.knex('members').where({ username: 'stalled1' }).first()).toBeDefined();
  });

  it('treats a provider 500 as unknown, not as a decline', async () => {
    const { result } = await pay(kit(), { username: 'error500', cardEnding: '0005' });
    expect(result.status).toBe(202);
    expect(result.body.status).toBe('unknown');
  });

  it('checks the username and password at step 1', async () => {
    const post = (body: object) => kit().request.post('/api/get_ccbill_token').set('Origin', ORIGIN).send(body);
    expect((await post({ username: 'ab', password: 'correct horse' })).status).toBe(400);
    expect((await post({ username: 'bad name!', password: 'correct horse' })).status).toBe(400);
    expect((await post({ username: 'short_pw', password: '1234567' })).status).toBe(400);
    expect((await post({ username: 'new_member1', password: 'correct horse' })).status).toBe(409);
  });

  it('fails step 1 and step 3 when the provider will not issue bearers', async () => {
    const fresh = await startAccountKit(backend);
    try {
      fresh.sim.failNext('frontend-oauth');
      const first = await fresh.request
        .post('/api/get_ccbill_token')
        .set('Origin', ORIGIN)
        .send({ username: 'no_bearer', password: 'correct horse' });
      expect(first.status).toBe(503);
      const started = await fresh.request
        .post('/api/get_ccbill_token')
        .set('Origin', ORIGIN)
        .send({ username: 'no_bearer', password: 'correct horse' });
      fresh.sim.failNext('backend-oauth');
      const third = await fresh.request
        .post('/api/get_ccbill_back_token')
        .set({ Origin: ORIGIN, Cookie: withSetCookies(undefined, started) })
        .send({ paymentToken: 'made_up_token_1' });
      expect(third.status).toBe(503);
    } finally {
      await fresh.close();
    }
  });

  it('refuses a spent or made-up handle', async () => {
    const prepared = await prepare(kit(), { username: 'handle_user' });
    const fake = await kit()
      .request.post('/api/process_payment')
      .set({ Origin: ORIGIN, ...prepared.cookie })
      .send({ ...prepared.body, accessToken: 'x'.repeat(43) });
    expect(fake.status).toBe(403);
    expect(chargesFor(prepared.paymentToken as string)).toHaveLength(0);
  });

  it('refuses state-changing requests from another origin or none', async () => {
    const body = { username: 'csrf_user', password: 'correct horse' };
    expect((await kit().request.post('/api/get_ccbill_token').send(body)).status).toBe(403);
    expect((await kit().request.post('/api/get_ccbill_token').set('Origin', 'https://evil.example').send(body)).status).toBe(403);
    expect((await kit().request.post('/api/login').set('Origin', 'https://evil.example').send(body)).status).toBe(403);
  });

  it('sells a VOD to a signed-in member at its database price, granting that VOD only', async () => {
    await pay(kit(), { username: 'vod_buyer' });
    const { cookie } = await signIn(kit(), 'vod_buyer');
    const { paymentToken, result } = await pay(kit(), { username: 'vod_buyer', vod: VOD.path, cookie });
    expect(result.body).toEqual({ approved: true, status: 'approved' });
    expect(chargesFor(paymentToken as string)[0]).toMatchObject({ initialPrice: '24.5' });
    const me = await kit().request.get('/api/me').set('Cookie', cookie);
    expect(me.body.vods).toEqual([VOD.path]);
    const again = await kit()
      .request.post('/api/get_ccbill_token')
      .set({ Origin: ORIGIN, Cookie: cookie })
      .send({ username: 'vod_buyer', password: 'correct horse', vod: VOD.path });
    expect(again.status).toBe(409);
  });

  it('needs a signed-in member to buy a VOD', async () => {
    const anonymous = await kit()
      .request.post('/api/get_ccbill_token')
      .set('Origin', ORIGIN)
      .send({ username: 'vod_buyer', password: 'correct horse', vod: VOD.path });
    expect(anonymous.status).toBe(401);
    expect((await kit().request.post('/api/get_ccbill_token').set('Origin', ORIGIN).send({ vod: VOD.path })).status).toBe(401);
  });

  it('sells a VOD to a signed-in member without asking for a username or password again', async () => {
    await pay(kit(), { username: 'vod_session' });
    const { cookie } = await signIn(kit(), 'vod_session');
    const { result } = await pay(kit(), { username: 'vod_session', vod: VOD.path, cookie, credentials: false });
    expect(result.body).toEqual({ approved: true, status: 'approved' });
    expect((await kit().request.get('/api/me').set('Cookie', cookie)).body.vods).toEqual([VOD.path]);
  });

  it('still wants a username and password for a membership', async () => {
    const res = await kit().request.post('/api/get_ccbill_token').set('Origin', ORIGIN).send({});
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/^username: required/);
  });

  it('will not sell a taken-down VOD: 404 at step 1 and at the charge', async () => {
    await insertVod(kit().db.knex, HIDDEN_VOD);
    await pay(kit(), { username: 'vod_hidden' });
    const { cookie } = await signIn(kit(), 'vod_hidden');
    const prepared = await prepare(kit(), { username: 'vod_hidden', vod: HIDDEN_VOD.path, cookie, credentials: false });
    expect(prepared.first.status).toBe(200);
    await takeDown(kit().db.knex, { ref: { type: 'vod', path: HIDDEN_VOD.path }, actor: 'ops', reason: 'test', now: Date.now() });
    const charge = await kit()
      .request.post('/api/process_payment')
      .set({ Origin: ORIGIN, ...prepared.cookie })
      .send(prepared.body);
    expect(charge.status).toBe(404);
    expect(chargesFor(prepared.paymentToken as string)).toHaveLength(0);
    const again = await kit().request.post('/api/get_ccbill_token').set({ Origin: ORIGIN, Cookie: cookie }).send({ vod: HIDDEN_VOD.path });
    expect(again.status).toBe(404);
  });
});

describe('the declined answer', () => {
  const attempt = (decline_text: string | null) => ({ status: 'declined', decline_text }) as AttemptRow;

  it(`carries the processor's text, at most ${DECLINE_TEXT_MAX} characters, and none when there is none`, () => {
    expect(DECLINE_TEXT_MAX).toBe(200);
    const long = `27 ${'x'.repeat(300)}`;
    expect(outcomeOf(attempt(long)).body.declineText).toBe(long.slice(0, 200));
    expect(outcomeOf(attempt('x'.repeat(200))).body.declineText).toHaveLength(200);
    expect(outcomeOf(attempt(null)).body).toEqual({ approved: false, status: 'declined', message: 'The card was declined.' });
    expect(outcomeOf(attempt('')).body.declineText).toBeUndefined();
    expect(outcomeOf({ ...attempt('27 no'), status: 'failed' }).body.declineText).toBeUndefined();
  });
});
