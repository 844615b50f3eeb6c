import { expect, it } from 'vitest';
import { VOD, pay, signIn, startAccountKit } from '../../../test/account-kit';
import { describeWithKit } from '../../../test/suite';

const HOOK = '/api/ccbill/webhook?clientAccnum=900000&clientSubacc=0&eventType=';
const PROVIDER_ADDRESS = '64.38.240.17';

describeWithKit(
  'receipts through the outbox',
  (backend) => startAccountKit(backend, { SITE_NAME: 'Example Site', SITE_URL: 'https://example.test' }),
  (kit) => {
    const outbox = async (username?: string) => {
      const rows: Array<Record<string, string>> = await kit().db.knex('mail_outbox').orderBy('id');
      return username === undefined ? rows : rows.filter((r) => r.text_body?.includes(`Hello ${username},`));
    };
    const attemptOf = (username: string, kind: string) => kit().db.knex('payment_attempts').where({ username, kind }).first();

    it('a new member gets one welcome with the receipt, in the settlement; a replayed approval adds none', async () => {
      const { result } = await pay(kit(), { username: 'receipt_ann' });
      expect(result.body.approved).toBe(true);
      const attempt = await attemptOf('receipt_ann', 'membership');
      const [mail, ...more] = await outbox('receipt_ann');
      expect(more).toEqual([]);
      expect(mail).toMatchObject({
        mail_key: `welcome:attempt:${attempt.id}`,
        to_address: 'ann@example.com',
        template: 'welcome-receipt',
        subject: 'Welcome — your receipt · Example Site',
        status: 'pending',
      });
      const today = new Date().toISOString().slice(0, 10);
      for (const fact of [
        'Membership, 30 days, renews automatically',
        'Amount: $14.99',
        `Date: ${today}`,
        `payment ${attempt.id}, subscription ${attempt.provider_subscription_id}`,
        'https://example.test/login',
      ]) {
        expect(mail?.text_body).toContain(fact);
      }
      // The provider's webhook for the same sale arrives after the direct answer: settled already, no second mail.
      const hook = await kit()
        .request.post(`${HOOK}NewSaleSuccess`)
        .set('X-Forwarded-For', PROVIDER_ADDRESS)
        .send({ transactionId: 'sale-receipt-ann', subscriptionId: attempt.provider_subscription_id, 'X-attempt': String(attempt.id) });
      expect(hook.body).toEqual({ status: 'stored' });
      expect(await outbox('receipt_ann')).toHaveLength(1);
    });

    it('a VOD purchase gets one receipt naming the VOD, to the member', async () => {
      await pay(kit(), { username: 'receipt_vod' });
      const { cookie } = await signIn(kit(), 'receipt_vod');
      const { result } = await pay(kit(), { username: 'receipt_vod', vod: VOD.path, cookie, credentials: false });
      expect(result.body.approved).toBe(true);
      const attempt = await attemptOf('receipt_vod', 'vod');
      const mails = await outbox('receipt_vod');
      expect(mails.map((m) => m.template)).toEqual(['welcome-receipt', 'vod-receipt']);
      expect(mails[1]).toMatchObject({
        mail_key: `receipt:attempt:${attempt.id}`,
        to_address: 'ann@example.com',
        subject: 'Receipt for VOD one · Example Site',
      });
      expect(mails[1]?.text_body).toContain('Product: VOD: VOD one\nAmount: $24.50');
    });

    it("a charge in doubt settled by the provider's webhook: the welcome is written in the webhook's transaction, once", async () => {
      await pay(kit(), { username: 'rcpt_doubt', cardEnding: '0005' });
      const attempt = await attemptOf('rcpt_doubt', 'membership');
      expect(attempt.status).toBe('unknown');
      expect(await outbox('rcpt_doubt')).toEqual([]);
      const sale = { transactionId: 'sale-doubt', subscriptionId: '0126000000000777', 'X-attempt': String(attempt.id) };
      for (let i = 0; i < 2; i++) await kit().request.post(`${HOOK}NewSaleSuccess`).set('X-Forwarded-For', PROVIDER_ADDRESS).send(sale);
      const mails = await outbox('rcpt_doubt');
      expect(mails.map((m) => [m.mail_key, m.template])).toEqual([[`welcome:attempt:${attempt.id}`, 'welcome-receipt']]);
      expect(mails[0]?.text_body).toContain(`payment ${attempt.id}, subscription 0126000000000777`);
    });

    it('a declined card sends nothing', async () => {
      const before = (await outbox()).length;
      const { result } = await pay(kit(), { username: 'rcpt_declined', cardEnding: '0000' });
      expect(result.body).toMatchObject({ approved: false });
      expect(await outbox()).toHaveLength(before);
    });
  },
);
