import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxCounts, queueReleaseDigests } from '@media-site/db/mail';
import { testBackends } from '@media-site/db/testing';
import { smtpTransport } from '../../bff/src/mail/transport';
import { startMailWorker, type MailWorker } from '../../bff/src/mail/worker';
import { releaseMailLinks } from '../../bff/src/mail/release-digest';
import { ORIGIN, VOD, pay, signIn, startAccountKit, type AccountKit } from '../../bff/src/test/account-kit';
import { startTestSmtp, type TestSmtp } from '../../bff/src/test/smtp-server';

// Every mail the site sends for what members and reporters do reaches a real SMTP server,
// once: a join, a VOD purchase, a renewal, a cancellation, a chargeback and a content report,
// driven through the bff's routes and the provider simulator, sent by the outbox worker.
const HOOK = '/api/ccbill/webhook?clientAccnum=900000&clientSubacc=0&eventGroupType=Subscription&eventType=';
const PROVIDER_ADDRESS = '64.38.240.17';
const SITE = 'Media Site';

describe.each(testBackends())('mail for every event reaches SMTP once (%s)', (backend) => {
  let kit: AccountKit;
  let smtp: TestSmtp;
  let worker: MailWorker;
  let subscriptionId: string;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    kit = await startAccountKit(backend, { SITE_URL: 'https://example.test' });
    worker = startMailWorker({
      knex: kit.db.knex,
      transport: smtpTransport(smtp.url),
      logger: pino({ level: 'silent' }),
      from: '"Media Site" <no-reply@mail.example.test>',
      pollMs: 200,
    });
  });
  afterAll(async () => {
    await worker?.stop();
    await smtp?.stop();
    await kit?.close();
  });

  const webhook = (eventType: string, fields: object) =>
    kit.request
      .post(`${HOOK}${eventType}`)
      .set('X-Forwarded-For', PROVIDER_ADDRESS)
      .send({ clientAccnum: 900000, clientSubacc: 0, subscriptionId, ...fields });

  /** Waits for `count` mails in all, then for the outbox to be empty and one more poll to pass with nothing more arriving. */
  async function delivered(count: number) {
    await smtp.waitFor(count);
    const until = Date.now() + 10_000;
    while ((await outboxCounts(kit.db.knex)).pending > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 600));
    expect(smtp.received).toHaveLength(count);
  }

  it('join, VOD, renewal, cancellation, chargeback and report: one mail each, replays add none', async () => {
    expect((await pay(kit, { username: 'mail_member' })).result.body.approved).toBe(true);
    subscriptionId = (await kit.db.knex('payment_attempts').where({ username: 'mail_member' }).first()).provider_subscription_id;
    await delivered(1);

    const { cookie } = await signIn(kit, 'mail_member');
    expect((await pay(kit, { username: 'mail_member', vod: VOD.path, cookie, credentials: false })).result.body.approved).toBe(true);
    await delivered(2);

    const next = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
    for (let i = 0; i < 2; i++)
      await webhook('RenewalSuccess', { transactionId: 'mail-renew', nextRenewalDate: next, billedAmount: '14.99' });
    for (let i = 0; i < 2; i++) await webhook('Cancellation', { transactionId: 'mail-cancel', reason: 'user' });
    for (let i = 0; i < 2; i++) await webhook('Chargeback', { transactionId: 'mail-cb', amount: '14.99' });
    // A declined card and a report without an address mail nobody.
    expect((await pay(kit, { username: 'mail_declined', cardEnding: '0000' })).result.body.approved).toBe(false);
    const anonymous = await kit.request
      .post('/api/reports')
      .set('Origin', ORIGIN)
      .send({ content: '/video/clip-one', reason: 'other', details: 'no address given here' });
    expect(anonymous.status).toBe(201);
    const report = await kit.request
      .post('/api/reports')
      .set('Origin', ORIGIN)
      .send({ content: '/video/clip-one', reason: 'copyright', details: 'This is my work.', email: 'owner@example.org' });
    expect(report.status).toBe(201);
    const reference = report.body.reference as string;
    await delivered(6);

    const got = smtp.received.map((m) => [m.rcpt.join(','), m.subject]);
    expect(got).toEqual([
      ['ann@example.com', `Welcome — your receipt · ${SITE}`],
      ['ann@example.com', `Receipt for VOD one · ${SITE}`],
      ['ann@example.com', `Your membership renewed · ${SITE}`],
      ['ann@example.com', `Your membership was cancelled · ${SITE}`],
      ['ann@example.com', `Your access was withdrawn · ${SITE}`],
      ['owner@example.org', `We received your report ${reference} · ${SITE}`],
    ]);
    expect(new Set(smtp.received.map((m) => m.messageId)).size).toBe(6);
    for (const m of smtp.received) {
      expect(m.raw).toContain('multipart/alternative');
      expect(m.raw).not.toMatch(/<img|cid:/i);
    }
    expect(await outboxCounts(kit.db.knex)).toEqual({ pending: 0, sent: 6, failed: 0 });
  });

  it('a release mail reaches SMTP with List-Unsubscribe and List-Unsubscribe-Post (RFC 8058), and its one-click POST stops them', async () => {
    const knex = kit.db.knex;
    // mail_member was charged back above: a withdrawn member is not mailed offers. A member of their own.
    await knex('members').insert({
      username: 'mail_follower',
      password_hash: 'scrypt$placeholder',
      email: 'follower@example.com',
      created_at: Date.now(),
    });
    const member = await knex('members').where({ username: 'mail_follower' }).first('id');
    const [modelId] = await knex('models').insert({ modelname: 'Model A1', initial: 'M', thumbnail: null });
    const now = Date.now();
    await knex('photosets').insert({
      path: 'release-set',
      updatename: 'Release Set',
      modelname: 'Model A1',
      model_id: modelId,
      datetoupload: new Date(now).toISOString().slice(0, 10),
      search_text: 'release set\nmodel a1',
      publish_at: now - 1000,
    });
    await knex('saved_items').insert({ member_id: member.id, content_type: 'model', content_id: modelId, saved_at: now - 60_000 });
    await knex('release_mail_subscriptions').insert({ member_id: member.id, subscribed_at: now - 60_000 });
    const site = { name: SITE, url: 'https://example.test' };
    expect(await queueReleaseDigests(knex, site, releaseMailLinks(site), now)).toBe(1);
    worker.nudge();
    await delivered(7);

    const mail = smtp.received[6]!;
    expect([mail.rcpt.join(','), mail.subject]).toEqual(['follower@example.com', `New from Model A1: Release Set · ${SITE}`]);
    // Folded onto a second line by the mailer (RFC 5322 folding: the value is the same).
    const header = /^List-Unsubscribe:\s+<(https:\/\/example\.test\/api\/mail\/unsubscribe\?token=[\w-]{43})>\r?$/m.exec(mail.raw);
    expect(header, mail.raw.slice(0, 2000)).not.toBeNull();
    expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    // Only the mail a member asked for carries it.
    for (const other of smtp.received.slice(0, 6)) expect(other.raw).not.toMatch(/^List-Unsubscribe/m);

    // What a mail provider sends: a form POST to that address, no cookie, no Origin.
    const stop = await kit.request
      .post(new URL(header![1]!).pathname + new URL(header![1]!).search)
      .type('form')
      .send('List-Unsubscribe=One-Click');
    expect(stop.status).toBe(200);
    expect(await knex('release_mail_subscriptions').where({ member_id: member.id }).first()).toBeUndefined();
  });
});
