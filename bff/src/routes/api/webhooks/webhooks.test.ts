import { beforeAll, expect, it } from 'vitest';
import { verifySessionToken } from '@media-site/contracts/token';
import {
  PROVIDER_ADDRESS,
  SUBSCRIPTION_HOOK,
  VIDEO,
  insertVideo,
  pay,
  sendWebhook,
  signIn,
  startAccountKit,
  subscriptionIdOf,
} from '../../../test/account-kit';
import { describeWithKit } from '../../../test/suite';
import { mediaTokenOf } from '../../../test/cookies';

describeWithKit('provider webhooks', startAccountKit, (kit) => {
  let subscriptionId: string;
  let cookie: string;
  beforeAll(async () => {
    await insertVideo(kit().db.knex);
    await pay(kit(), { username: 'hooked' });
    subscriptionId = await subscriptionIdOf(kit(), 'hooked');
    ({ cookie } = await signIn(kit(), 'hooked'));
  });

  const send = (eventType: string, fields: object, from = PROVIDER_ADDRESS) =>
    sendWebhook(kit(), eventType, { subscriptionId, ...fields }, from);
  const paidUntil = async () =>
    Number((await kit().db.knex('subscriptions').where({ provider_subscription_id: subscriptionId }).first()).paid_until);
  const mediaClaims = async () => {
    const res = await kit().request.get('/api/me').set('Cookie', cookie);
    const token = mediaTokenOf(res);
    const verified = verifySessionToken(kit().deps.settings.mediaKeys, token);
    if (!verified.ok) throw new Error(verified.reason);
    return { me: res.body, claims: verified.value };
  };

  it('refuses a foreign source address and a wrong account', async () => {
    expect((await send('RenewalSuccess', { transactionId: 't-foreign' }, '203.0.113.9')).status).toBe(403);
    // The test client itself (loopback) is not a provider address.
    const direct = await kit().request.post(`${SUBSCRIPTION_HOOK}RenewalSuccess`).send({ transactionId: 't-direct', subscriptionId });
    expect(direct.status).toBe(403);
    const wrongAccount = await kit()
      .request.post('/api/ccbill/webhook?clientAccnum=123456&eventType=RenewalSuccess')
      .set('X-Forwarded-For', PROVIDER_ADDRESS)
      .send({ transactionId: 't-acc', subscriptionId });
    expect(wrongAccount.status).toBe(403);
    expect(Number((await kit().db.knex('webhook_events').count({ n: '*' }).first())?.n)).toBe(0);
  });

  it('extends access on renewal, and a replay changes nothing', async () => {
    const before = await paidUntil();
    const next = new Date(before + 30 * 86_400_000).toISOString().slice(0, 10);
    const first = await send('RenewalSuccess', { transactionId: 'renew-1', nextRenewalDate: next, billedAmount: '14.99' });
    expect(first.body).toEqual({ status: 'stored' });
    const extended = await paidUntil();
    expect(extended).toBeGreaterThan(before);
    const replay = await send('RenewalSuccess', { transactionId: 'renew-1', nextRenewalDate: '2099-01-01' });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual({ status: 'duplicate' });
    expect(await paidUntil()).toBe(extended);
  });

  it('accepts a form-encoded body', async () => {
    const res = await kit()
      .request.post(`${SUBSCRIPTION_HOOK}CustomerDataUpdate`)
      .set('X-Forwarded-For', PROVIDER_ADDRESS)
      .type('form')
      .send({ transactionId: 'form-1', subscriptionId, clientAccnum: '900000' });
    expect(res.body).toEqual({ status: 'stored' });
  });

  it('stores only named scalar fields: nested card data, odd keys and personal data never reach the database', async () => {
    const card = '4111111111111111';
    const spaced = '4111 1111 1111 1111';
    const res = await send('CustomerDataUpdate', {
      transactionId: 'odd-1',
      billedAmount: '14.99',
      paymentInfo: { cardNum: card, creditCardPaymentInfo: { cardNum: card, cvv2: '123', expMonth: '12' } },
      pan: card,
      PAN: card,
      'X-pan': card,
      'x-cardNum': card,
      'card number': card,
      accountNumber: card,
      nested: [{ cc: card }, card],
      reason: `customer wrote ${spaced} in a note`,
      failureReason: { cardNum: card },
      email: 'person@example.com',
      username: 'hooked',
      customerFname: 'Annabel',
      ['__proto__']: { cardNum: card },
    });
    expect(res.body).toEqual({ status: 'stored' });
    const rows = async (): Promise<Record<string, unknown>[]> => kit().db.knex('webhook_events').select();
    const leaks = (dump: string) =>
      ['4111', spaced, 'cvv', '"123"', '\\"123\\"', 'person@example.com', 'Annabel', 'cardNum', 'pan'].filter((s) => dump.includes(s));
    expect(leaks(JSON.stringify(await rows()))).toEqual([]);
    const stored = (await rows()).find((r) => r.transaction_id === 'odd-1');
    expect(JSON.parse(String(stored?.payload))).toEqual({
      transactionId: 'odd-1',
      subscriptionId,
      clientAccnum: '900000',
      clientSubacc: '0',
      billedAmount: '14.99',
      reason: 'customer wrote [digits] in a note',
    });
    // An allow-listed name with a non-scalar value is dropped too (the event is then identified by its fields).
    expect((await send('CustomerDataUpdate', { transactionId: { cardNum: card }, amount: [card] })).body).toEqual({ status: 'stored' });
    expect(leaks(JSON.stringify(await rows()))).toEqual([]);
  });

  it('keeps access to the paid-through date after a cancellation', async () => {
    const before = await paidUntil();
    await send('Cancellation', { transactionId: 'cancel-1', reason: 'user' });
    expect(await paidUntil()).toBe(before);
    const { me, claims } = await mediaClaims();
    expect(me.membership.active).toBe(true);
    expect(claims.membershipActiveUntil * 1000).toBeGreaterThan(Date.now());
  });

  it('revokes on chargeback: the next media token has no membership and the revocation list names the member', async () => {
    const link = () =>
      kit()
        .request.get('/api/download-link')
        .query({ path: `/members/video/${VIDEO.path}/${VIDEO.file}` })
        .set('Cookie', cookie);
    expect((await link()).status).toBe(200);
    await send('Chargeback', { transactionId: 'cb-1', amount: '14.99' });
    const { me, claims } = await mediaClaims();
    expect(me.membership.active).toBe(false);
    expect(claims.membershipActiveUntil * 1000).toBeLessThanOrEqual(Date.now());
    const list = await kit().request.get('/internal/media-revocations');
    expect(list.body.members).toContain(claims.memberId);
    // Not reachable through the front door (which adds X-Forwarded-For).
    expect((await kit().request.get('/internal/media-revocations').set('X-Forwarded-For', '1.2.3.4')).status).toBe(403);
    expect((await link()).status).toBe(403);
  });
});
