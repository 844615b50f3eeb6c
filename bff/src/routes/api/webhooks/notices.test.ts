import { beforeAll, expect, it } from 'vitest';
import { PROVIDER_ADDRESS, SUBSCRIPTION_HOOK, pay, sendWebhook, startAccountKit, subscriptionIdOf } from '../../../test/account-kit';
import { describeWithKit } from '../../../test/suite';

const DAY_MS = 86_400_000;

describeWithKit(
  'membership notices from provider webhooks',
  (backend) => startAccountKit(backend, { SITE_URL: 'https://example.test' }),
  (kit) => {
    let subscriptionId: string;
    beforeAll(async () => {
      await pay(kit(), { username: 'noticed' });
      subscriptionId = await subscriptionIdOf(kit(), 'noticed');
      // The member changed their address since joining: notices go to the current one.
      await kit().db.knex('members').where({ username: 'noticed' }).update({ email: 'now@example.com' });
    });

    const send = (eventType: string, fields: object) => sendWebhook(kit(), eventType, { subscriptionId, ...fields });
    const notices = async (): Promise<Array<Record<string, string>>> =>
      kit().db.knex('mail_outbox').where('template', '<>', 'welcome-receipt').orderBy('id');
    const eventId = async (transactionId: string) =>
      Number((await kit().db.knex('webhook_events').where({ transaction_id: transactionId }).first()).id);
    const subscription = () => kit().db.knex('subscriptions').where({ provider_subscription_id: subscriptionId }).first();

    it('a renewal: one receipt with the billed amount and the next date; a replay adds none', async () => {
      const next = new Date(Number((await subscription()).paid_until) + 30 * DAY_MS).toISOString().slice(0, 10);
      expect((await send('RenewalSuccess', { transactionId: 'n-renew', nextRenewalDate: next, billedAmount: '14.99' })).body).toEqual({
        status: 'stored',
      });
      expect((await send('RenewalSuccess', { transactionId: 'n-renew', nextRenewalDate: next, billedAmount: '14.99' })).body).toEqual({
        status: 'duplicate',
      });
      const [mail, ...more] = await notices();
      expect(more).toEqual([]);
      expect(mail).toMatchObject({
        mail_key: `webhook:${await eventId('n-renew')}`,
        to_address: 'now@example.com',
        template: 'renewal-receipt',
        subject: 'Your membership renewed · Media Site',
      });
      expect(mail?.text_body).toContain(`Amount: $14.99`);
      expect(mail?.text_body).toContain(`Next renewal: ${next}`);
    });

    it('a failed renewal: a notice with the paid-through date and the provider for the card; the subscription is unchanged', async () => {
      const before = await subscription();
      await send('RenewalFailure', { transactionId: 'n-fail', failureReason: 'Insufficient funds' });
      expect(await subscription()).toEqual(before);
      const mail = (await notices()).at(-1);
      expect(mail).toMatchObject({
        mail_key: `webhook:${await eventId('n-fail')}`,
        template: 'renewal-failed',
        subject: 'We could not renew your membership · Media Site',
      });
      expect(mail?.text_body).toContain(`Your access lasts until ${new Date(Number(before.paid_until)).toISOString().slice(0, 10)}`);
      expect(mail?.text_body).toContain("card billing provider's consumer support");
      // The provider's free text is not ours to repeat.
      expect(mail?.text_body).not.toContain('Insufficient');
    });

    it('a cancellation: one notice with the access date; a second cancellation event adds none', async () => {
      const count = (await notices()).length;
      await send('Cancellation', { transactionId: 'n-cancel', reason: 'user' });
      await send('Cancellation', { transactionId: 'n-cancel-2', reason: 'user' });
      const added = (await notices()).slice(count);
      expect(added.map((m) => [m.mail_key, m.template])).toEqual([[`webhook:${await eventId('n-cancel')}`, 'cancellation']]);
      expect(added[0]?.subject).toBe('Your membership was cancelled · Media Site');
      expect(added[0]?.text_body).toContain(
        `You keep access until ${new Date(Number((await subscription()).paid_until)).toISOString().slice(0, 10)}`,
      );
    });

    it('a chargeback: access withdrawn, once; a refund after it and events for nobody add none', async () => {
      const count = (await notices()).length;
      await send('Chargeback', { transactionId: 'n-cb', amount: '14.99' });
      await send('Refund', { transactionId: 'n-refund', amount: '14.99' });
      await send('RenewalSuccess', { transactionId: 'n-late', billedAmount: '14.99' });
      await kit()
        .request.post(`${SUBSCRIPTION_HOOK}Chargeback`)
        .set('X-Forwarded-For', PROVIDER_ADDRESS)
        .send({ clientAccnum: 900000, transactionId: 'n-nobody', subscriptionId: '999999999999' });
      const added = (await notices()).slice(count);
      expect(added.map((m) => [m.mail_key, m.template, m.to_address])).toEqual([
        [`webhook:${await eventId('n-cb')}`, 'access-withdrawn', 'now@example.com'],
      ]);
      expect(added[0]?.subject).toBe('Your access was withdrawn · Media Site');
      expect(added[0]?.text_body).toContain('https://example.test/contact');
    });
  },
);
