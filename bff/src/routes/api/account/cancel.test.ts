import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '@media-site/db/testing';
import { accountView, renewalCancelled } from '@media-site/contracts/member-api';
import { ORIGIN, pay, sendWebhook, signIn, startAccountKit, subscriptionIdOf, type AccountKit } from '../../../test/account-kit';
import { CANCEL_TRIES } from './cancel';

// Cancel renewal online: the provider's subscription management API (the simulator speaks it:
// docs/ccbill-subscription-management.md), then the subscription here, then one confirmation mail.
describe.each(testBackends())('cancel renewal: POST /api/account/cancel-renewal (%s)', (backend) => {
  let kit: AccountKit;
  beforeAll(async () => {
    kit = await startAccountKit(backend);
  });
  afterAll(() => kit?.close());

  async function joined(username: string): Promise<string> {
    const paid = await pay(kit, { username });
    expect(paid.result.status, JSON.stringify(paid.result.body)).toBe(200);
    return (await signIn(kit, username)).cookie;
  }
  const cancel = (cookie: string | undefined, origin: string | null = ORIGIN) => {
    const req = kit.request.post('/api/account/cancel-renewal');
    if (origin) req.set('Origin', origin);
    return cookie ? req.set('Cookie', cookie) : req;
  };
  const account = async (cookie: string) => accountView.parse((await kit.request.get('/api/account').set('Cookie', cookie)).body);
  /** The confirmation queued for this member's membership (its key names the subscription). */
  const cancellationMails = async (username: string) => {
    const member = await kit.db.knex('members').where({ username }).first('id');
    const ids = await kit.db.knex('subscriptions').where({ member_id: member.id, kind: 'membership' }).pluck('id');
    return kit.db
      .knex('mail_outbox')
      .whereIn(
        'mail_key',
        ids.map((id: number) => `cancel-renewal:${id}`),
      )
      .select('mail_key');
  };
  /** Every cancellation notice queued, by this route or by a webhook. */
  const allCancellationNotices = async () =>
    Number((await kit.db.knex('mail_outbox').where({ template: 'cancellation' }).count({ n: '*' }).first())?.n);

  it('stops the rebilling at the provider, keeps access to the paid-through day, and sends one confirmation', async () => {
    const cookie = await joined('cr_member');
    const before = await account(cookie);
    expect(before.membership).toMatchObject({ active: true, renews: true, cancellable: true });

    expect((await cancel(undefined)).status).toBe(401);
    expect((await cancel(cookie, 'https://elsewhere.example')).status).toBe(403);
    expect(kit.sim.cancellations).toEqual([]);

    const res = await cancel(cookie);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = renewalCancelled.parse(res.body);
    expect(body.paidUntil).toBe(before.membership.paidUntil);
    expect(body.message).toBe(
      `Your membership ends on ${before.membership.paidUntil}. It will not be charged again; we sent a confirmation by e-mail.`,
    );
    const subscriptionId = await subscriptionIdOf(kit, 'cr_member');
    expect(kit.sim.cancellations.map((c) => c.subscriptionId)).toEqual([subscriptionId]);
    expect((await account(cookie)).membership).toEqual({
      active: true,
      paidUntil: before.membership.paidUntil,
      renews: false,
      cancellable: false,
    });
    expect(await cancellationMails('cr_member')).toHaveLength(1);

    // Nothing more to cancel; the provider's Cancellation webhook that follows sends nothing more.
    const again = await cancel(cookie);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('Your membership does not renew: there is nothing to cancel.');
    const notices = await allCancellationNotices();
    const hook = await sendWebhook(kit, 'Cancellation', { subscriptionId, transactionId: 'cr-cancel-1', reason: 'Merchant cancelled' });
    expect(hook.status).toBe(200);
    expect(await allCancellationNotices()).toBe(notices);
    expect((await account(cookie)).membership.active).toBe(true);
  });

  it('says so when the provider had an error, changes nothing, and goes through on the next try', async () => {
    const cookie = await joined('cr_retry');
    kit.sim.failNext('datalink');
    const failed = await cancel(cookie);
    expect(failed.status).toBe(503);
    expect(failed.body.error.message).toMatch(
      /^Your renewal is not cancelled yet: the card processor had an internal error\. Try again in a few minutes/,
    );
    expect((await account(cookie)).membership.renews).toBe(true);
    expect(await cancellationMails('cr_retry')).toHaveLength(0);
    expect((await cancel(cookie)).status).toBe(200);
    expect((await account(cookie)).membership.renews).toBe(false);
  });

  it('passes on a refusal in words (the provider has no such subscription), and nothing changes here', async () => {
    const cookie = await joined('cr_unknown');
    const member = await kit.db.knex('members').where({ username: 'cr_unknown' }).first('id');
    await kit.db
      .knex('subscriptions')
      .where({ member_id: member.id, kind: 'membership' })
      .update({ provider_subscription_id: '123456789' });
    const refused = await cancel(cookie);
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toBe(
      'The card processor did not cancel the renewal (no record of this subscription, code -3). E-mail support and we will cancel it.',
    );
    expect((await account(cookie)).membership.renews).toBe(true);
  });

  it('offers no online cancel where the site has no access to the provider’s subscription management', async () => {
    const cookie = await joined('cr_off');
    const datalink = kit.deps.settings.datalink;
    kit.deps.settings.datalink = null;
    try {
      expect((await account(cookie)).membership).toMatchObject({ renews: true, cancellable: false });
      const res = await cancel(cookie);
      expect(res.status).toBe(409);
      expect(res.body.error.message).toBe('Renewal cannot be cancelled online on this site: e-mail support and we will cancel it.');
    } finally {
      kit.deps.settings.datalink = datalink;
    }
  });

  it(`takes at most ${CANCEL_TRIES} tries per member in 15 minutes (429)`, async () => {
    const cookie = await joined('cr_limit');
    for (let i = 0; i < CANCEL_TRIES; i++) expect((await cancel(cookie)).status).toBeLessThan(429);
    expect((await cancel(cookie)).status).toBe(429);
  });
});
