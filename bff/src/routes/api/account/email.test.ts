import { describe, expect, it } from 'vitest';
import { runOpsCommand } from '@media-site/ops/cli';
import { ORIGIN, signIn, startAccountKit, type AccountKit } from '../../../test/account-kit';
import { linkTokenHash } from '../password-reset/tokens';
import { EMAIL_CHANGE_REFUSED, EMAIL_CHANGES_PER_HOUR } from './email';
import { describeWithKit, useKit } from '../../../test/suite';

const SITE = 'https://members.example.com';

async function member(kit: AccountKit, username: string, email: string): Promise<string> {
  const code = await runOpsCommand(['member', 'add', username, '--password', 'correct horse', '--email', email], {
    env: {},
    knex: kit.db.knex,
    out: () => {},
    err: () => {},
  });
  expect(code).toBe(0);
  return (await signIn(kit, username)).cookie;
}

const change = (kit: AccountKit, cookie: string | undefined, body: object) =>
  kit.request
    .post('/api/account/email')
    .set({ Origin: ORIGIN, ...(cookie ? { Cookie: cookie } : {}) })
    .send(body);
const confirm = (kit: AccountKit, token: unknown) => kit.request.post('/api/account/email/confirm').set({ Origin: ORIGIN }).send({ token });
const mails = (kit: AccountKit, to: string, template: string) =>
  kit.db.knex('mail_outbox').where({ to_address: to, template }).orderBy('id');
const tokenOf = (text: string) => /\/confirm-email#token=([\w-]{43})\n/.exec(text)?.[1] ?? '';

describeWithKit(
  'changing the e-mail address: POST /api/account/email and /confirm',
  (backend) => startAccountKit(backend, { SITE_URL: SITE }),
  (kit) => {
    it('asks for the current password; mails a link to the new address and a notice to the old one; changes on the link, without a session', async () => {
      const cookie = await member(kit(), 'em_a', 'old@example.com');
      expect((await change(kit(), undefined, { email: 'new@example.com', currentPassword: 'correct horse' })).status).toBe(401);
      const wrong = await change(kit(), cookie, { email: 'new@example.com', currentPassword: 'not it at all' });
      expect(wrong.status).toBe(403);
      expect(wrong.body.error.message).toBe('the current password is wrong');
      expect((await change(kit(), cookie, { email: 'OLD@example.com', currentPassword: 'correct horse' })).body.error.message).toBe(
        'email: this is already your address',
      );

      const res = await change(kit(), cookie, { email: 'new@example.com', currentPassword: 'correct horse' });
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ message: 'We sent a confirmation link to new@example.com. Your address changes when you open it.' });
      expect((await kit().request.get('/api/account').set('Cookie', cookie)).body.email).toBe('old@example.com');
      const [link] = await mails(kit(), 'new@example.com', 'email-confirm');
      const token = tokenOf(link.text_body);
      expect(link.text_body).toContain(`${SITE}/confirm-email#token=${token}`);
      const row = await kit()
        .db.knex('email_changes')
        .where({ token_hash: linkTokenHash(token) })
        .first();
      expect(row.new_email).toBe('new@example.com');
      expect(Number(row.expires_at) - Number(row.created_at)).toBe(24 * 3_600_000);
      expect(await mails(kit(), 'old@example.com', 'email-change-requested')).toHaveLength(1);

      // A reset link mailed to the old address before the change stops working with it.
      await kit().request.post('/api/password-reset').set('Origin', ORIGIN).send({ login: 'em_a' });
      const resetMail = await kit()
        .db.knex('mail_outbox')
        .where({ to_address: 'old@example.com', template: 'password-reset' })
        .first('text_body');
      const resetToken = /#token=([\w-]{43})\n/.exec(String(resetMail?.text_body))?.[1];
      const done = await confirm(kit(), token);
      expect(done.status).toBe(200);
      expect(done.body).toEqual({ email: 'new@example.com' });
      expect((await kit().request.get('/api/account').set('Cookie', cookie)).body.email).toBe('new@example.com');
      const [notice] = await mails(kit(), 'old@example.com', 'email-changed');
      expect(notice.text_body).toContain('is now new@example.com');
      expect(
        (
          await kit()
            .request.post('/api/password-reset/confirm')
            .set('Origin', ORIGIN)
            .send({ token: resetToken, newPassword: 'taken over horse' })
        ).status,
      ).toBe(400);
      // Once only.
      const again = await confirm(kit(), token);
      expect(again.status).toBe(400);
      expect(again.body.error.message).toBe(EMAIL_CHANGE_REFUSED);
    });

    it('refuses a bad address with a 400 (not an address, over 254 characters, missing password)', async () => {
      const cookie = await member(kit(), 'em_bad', 'bad@example.com');
      for (const body of [
        { email: 'nope', currentPassword: 'correct horse' },
        { email: `${'a'.repeat(250)}@example.com`, currentPassword: 'correct horse' },
        { email: 'x@example.com' },
        {},
      ]) {
        const res = await change(kit(), cookie, body);
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/^(email|currentPassword): /);
      }
      const long = await change(kit(), cookie, { email: `${'a'.repeat(250)}@example.com`, currentPassword: 'correct horse' });
      expect(long.body.error.message).toBe('email: at most 254 characters');
    });

    it('a newer request makes the older link unusable; a link expires after 24 hours; one message for every refusal', async () => {
      const cookie = await member(kit(), 'em_b', 'b@example.com');
      await change(kit(), cookie, { email: 'b1@example.com', currentPassword: 'correct horse' });
      await change(kit(), cookie, { email: 'b2@example.com', currentPassword: 'correct horse' });
      const first = tokenOf((await mails(kit(), 'b1@example.com', 'email-confirm'))[0].text_body);
      const second = tokenOf((await mails(kit(), 'b2@example.com', 'email-confirm'))[0].text_body);
      for (const token of [first, 'A'.repeat(43), 'short']) {
        const res = await confirm(kit(), token);
        expect(res.status).toBe(400);
        expect(res.body.error.message).toBe(EMAIL_CHANGE_REFUSED);
      }
      kit().setClockAhead(24 * 3_600_000 + 1000);
      try {
        expect((await confirm(kit(), second)).body.error.message).toBe(EMAIL_CHANGE_REFUSED);
      } finally {
        kit().setClockAhead(0);
      }
      expect((await kit().db.knex('members').where({ username: 'em_b' }).first('email')).email).toBe('b@example.com');
    });

    it(`allows ${EMAIL_CHANGES_PER_HOUR} change requests per member per hour, then 429`, async () => {
      const cookie = await member(kit(), 'em_c', 'c@example.com');
      const statuses: number[] = [];
      for (let i = 0; i < EMAIL_CHANGES_PER_HOUR + 1; i += 1)
        statuses.push((await change(kit(), cookie, { email: `c${i}@example.com`, currentPassword: 'correct horse' })).status);
      expect(statuses).toEqual([...Array<number>(EMAIL_CHANGES_PER_HOUR).fill(202), 429]);
    });
  },
);

describe('e-mail change limits per address', () => {
  const kit = useKit(() => startAccountKit('sqlite', { RATE_LIMIT_LOGIN_PER_MINUTE: '2' }));

  it('answers 429 past RATE_LIMIT_LOGIN_PER_MINUTE a minute from one address on both routes, before reading the body', async () => {
    for (const path of ['/api/account/email', '/api/account/email/confirm']) {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1)
        statuses.push(
          (await kit().request.post(path).set({ Origin: ORIGIN, 'Content-Type': 'application/json' }).send('{not json')).status,
        );
      expect(statuses).toEqual([400, 400, 429]);
    }
  });
});
