import { describe, expect, it } from 'vitest';
import { runOpsCommand } from '@media-site/ops/cli';
import { ORIGIN, signIn, startAccountKit, type AccountKit } from '../../../test/account-kit';
import { ACCOUNTS_PER_ADDRESS_MAX, RESET_ANSWER, RESET_ANSWER_FLOOR_MS, RESET_REFUSED, RESETS_PER_ACCOUNT_PER_HOUR } from './service';
import { linkTokenHash } from './tokens';
import { describeWithKit, useKit } from '../../../test/suite';

const SITE = 'https://members.example.com';
const HOUR_MS = 3_600_000;
const setCookies = (res: { headers: Record<string, unknown> }) =>
  ([] as string[]).concat((res.headers['set-cookie'] as string[] | undefined) ?? []);
const cookieHeader = (set: string[]) => set.map((c) => c.split(';')[0]).join('; ');

async function addMember(kit: AccountKit, username: string, email: string, extra: string[] = []): Promise<number> {
  const code = await runOpsCommand(['member', 'add', username, '--password', 'correct horse', '--email', email, ...extra], {
    env: {},
    knex: kit.db.knex,
    out: () => {},
    err: () => {},
  });
  expect(code).toBe(0);
  return Number((await kit.db.knex('members').where({ username }).first('id')).id);
}

const ask = (kit: AccountKit, login: unknown) => kit.request.post('/api/password-reset').set('Origin', ORIGIN).send({ login });
const confirm = (kit: AccountKit, body: object, cookie?: string) =>
  kit.request
    .post('/api/password-reset/confirm')
    .set({ Origin: ORIGIN, ...(cookie ? { Cookie: cookie } : {}) })
    .send(body);

/** The reset mails written for an address, oldest first, with the token their link carries. */
async function resetMails(kit: AccountKit, to: string) {
  const rows: { mail_key: string; text_body: string; html_body: string; subject: string }[] = await kit.db
    .knex('mail_outbox')
    .where({ to_address: to, template: 'password-reset' })
    .orderBy('id');
  return rows.map((r) => ({ ...r, token: /\/reset-password#token=([\w-]{43})\n/.exec(r.text_body)?.[1] ?? '' }));
}

describeWithKit(
  'password reset: POST /api/password-reset and /confirm',
  (backend) => startAccountKit(backend, { SITE_URL: SITE, SITE_NAME: 'Test Site' }),
  (kit) => {
    it('answers the same 202 for a known username, a known e-mail, an unknown one, a disabled and a revoked account; mails only the known ones', async () => {
      await addMember(kit(), 'pr_known', 'known@example.com');
      await addMember(kit(), 'pr_disabled', 'disabled@example.com');
      await runOpsCommand(['member', 'disable', 'pr_disabled', '--reason', 'test'], {
        env: {},
        knex: kit().db.knex,
        out: () => {},
        err: () => {},
      });
      const revoked = await addMember(kit(), 'pr_revoked', 'revoked@example.com');
      await kit().db.knex('members').where({ id: revoked }).update({ revoked_at: Date.now() });
      const answers = [];
      for (const login of [
        'pr_known',
        'PR_KNOWN',
        'Known@Example.com',
        'pr_nobody',
        'nobody@example.com',
        'pr_disabled',
        'disabled@example.com',
        'pr_revoked',
      ]) {
        const started = Date.now();
        const res = await ask(kit(), login);
        // Answered no sooner than the floor, whichever way it went: the time says nothing either.
        expect(Date.now() - started).toBeGreaterThanOrEqual(RESET_ANSWER_FLOOR_MS - 5);
        answers.push({ status: res.status, body: res.body, cache: res.headers['cache-control'] });
      }
      for (const a of answers) expect(a).toEqual({ status: 202, body: RESET_ANSWER, cache: 'no-store' });
      expect(await resetMails(kit(), 'known@example.com')).toHaveLength(3);
      expect(await kit().db.knex('mail_outbox').whereIn('to_address', ['disabled@example.com', 'revoked@example.com'])).toHaveLength(0);
    });

    it("mails a link to SITE_URL/reset-password#token=…: only the token's SHA-256 is stored, it expires in one hour", async () => {
      const id = await addMember(kit(), 'pr_link', 'link@example.com');
      expect((await ask(kit(), 'pr_link')).status).toBe(202);
      const [mail] = await resetMails(kit(), 'link@example.com');
      expect(mail?.subject).toBe('Reset your password · Test Site');
      expect(mail?.text_body).toContain(`${SITE}/reset-password#token=${mail?.token}`);
      expect(mail?.html_body).toContain(`href="${SITE}/reset-password#token=${mail?.token}"`);
      expect(mail?.text_body).toContain('"pr_link"');
      const row = await kit().db.knex('password_resets').where({ member_id: id }).first();
      expect(row.token_hash).toBe(linkTokenHash(mail?.token ?? ''));
      expect(mail?.mail_key).toBe(`reset:${row.token_hash.slice(0, 32)}`);
      expect(Number(row.expires_at) - Number(row.created_at)).toBe(HOUR_MS);
      expect(JSON.stringify(await kit().db.knex('password_resets').select())).not.toContain(mail?.token);
    });

    it(`an e-mail shared by several accounts gets one mail per account naming its username, at most ${ACCOUNTS_PER_ADDRESS_MAX}`, async () => {
      for (let i = 0; i < ACCOUNTS_PER_ADDRESS_MAX + 2; i += 1) await addMember(kit(), `pr_shared${i}`, 'shared@example.com');
      expect((await ask(kit(), 'shared@example.com')).body).toEqual(RESET_ANSWER);
      const mails = await resetMails(kit(), 'shared@example.com');
      expect(mails).toHaveLength(ACCOUNTS_PER_ADDRESS_MAX);
      mails.forEach((m, i) => expect(m.text_body).toContain(`Hello pr_shared${i},`));
    });

    it(`sends at most ${RESETS_PER_ACCOUNT_PER_HOUR} reset mails per account per hour; past it the same answer and no mail`, async () => {
      await addMember(kit(), 'pr_budget', 'budget@example.com');
      for (let i = 0; i < RESETS_PER_ACCOUNT_PER_HOUR + 2; i += 1)
        expect((await ask(kit(), i % 2 ? 'pr_budget' : 'budget@example.com')).body).toEqual(RESET_ANSWER);
      expect(await resetMails(kit(), 'budget@example.com')).toHaveLength(RESETS_PER_ACCOUNT_PER_HOUR);
    });

    it('refuses a bad login with a 400 that names the field (empty, over 254 characters, neither a username nor an e-mail)', async () => {
      for (const login of ['', '   ', 'x'.repeat(255), 'a b', 'no@dots', 7, undefined]) {
        const res = await ask(kit(), login);
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/^login: /);
      }
    });

    it('sets the new password: every session ends, old download links are refused (valid-from moved), pending e-mail changes lapse, the notice is written, this browser is signed in', async () => {
      const id = await addMember(kit(), 'pr_reset', 'reset@example.com');
      const { cookie: before } = await signIn(kit(), 'pr_reset');
      const oldLink = await kit()
        .request.get('/api/download-link')
        .query({ path: '/members/video/some-video/a.mp4' })
        .set('Cookie', before);
      expect(oldLink.status).toBe(200);
      const oldIat = Number(new URL(oldLink.body.url, SITE).searchParams.get('iat'));
      await ask(kit(), 'pr_reset');
      const [mail] = await resetMails(kit(), 'reset@example.com');

      // An e-mail change asked for before the reset lapses with it.
      await kit()
        .request.post('/api/account/email')
        .set({ Origin: ORIGIN, Cookie: before })
        .send({ email: 'thief@example.com', currentPassword: 'correct horse' });
      const pending = /#token=([\w-]{43})\n/.exec(
        String((await kit().db.knex('mail_outbox').where({ to_address: 'thief@example.com' }).first('text_body'))?.text_body),
      )?.[1];
      expect(pending).toMatch(/^[\w-]{43}$/);

      for (const newPassword of ['short', 'x'.repeat(65)]) {
        const res = await confirm(kit(), { token: mail?.token, newPassword });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toMatch(/^newPassword: at (least 8|most 64) characters$/);
      }
      const res = await confirm(kit(), { token: mail?.token, newPassword: 'brand new horse' });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toMatchObject({ username: 'pr_reset', membership: { active: true } });
      const fresh = cookieHeader(setCookies(res));
      expect(fresh).toMatch(/sid=[\w-]{43}/);
      expect(fresh).toMatch(/media_token=/);
      expect(fresh).toMatch(/device=/);

      expect((await kit().request.get('/api/me').set('Cookie', before)).status).toBe(401);
      expect((await kit().request.get('/api/me').set('Cookie', fresh)).status).toBe(200);
      // The media service refuses what was minted before the member's valid-from.
      const list = (await kit().request.get('/internal/media-revocations')).body;
      expect(list.validFrom[String(id)]).toBeGreaterThan(oldIat);
      const newLink = await kit().request.get('/api/download-link').query({ path: '/members/video/some-video/a.mp4' }).set('Cookie', fresh);
      expect(Number(new URL(newLink.body.url, SITE).searchParams.get('iat'))).toBeGreaterThanOrEqual(list.validFrom[String(id)]);

      expect((await kit().request.post('/api/account/email/confirm').set('Origin', ORIGIN).send({ token: pending })).status).toBe(400);
      expect((await signIn(kit(), 'pr_reset')).res.status).toBe(401);
      expect((await signIn(kit(), 'pr_reset', 'brand new horse')).res.status).toBe(200);
      const notice = await kit().db.knex('mail_outbox').where({ to_address: 'reset@example.com', template: 'password-changed' });
      expect(notice).toHaveLength(1);
      expect(notice[0].text_body).toContain('was just changed');
    });

    it('a link works once; a newer link, or a reset with another one, makes older links unusable; all refused with one message', async () => {
      await addMember(kit(), 'pr_once', 'once@example.com');
      for (let i = 0; i < 3; i += 1) await ask(kit(), 'pr_once');
      const [first, second, third] = await resetMails(kit(), 'once@example.com');
      const refused = async (token: string | undefined) => {
        const res = await confirm(kit(), { token, newPassword: 'another horse 1' });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toBe(RESET_REFUSED);
      };
      await refused(first?.token);
      expect((await confirm(kit(), { token: third?.token, newPassword: 'another horse 1' })).status).toBe(200);
      await refused(third?.token);
      await refused(second?.token);
      for (const token of ['not-a-token', 'A'.repeat(43), `${third?.token}x`]) await refused(token);
      const tooLong = await confirm(kit(), { token: 'x'.repeat(101), newPassword: 'another horse 1' });
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.error.message).toBe('token: at most 100 characters');
    });

    it('a link expires after one hour', async () => {
      await addMember(kit(), 'pr_late', 'late@example.com');
      await ask(kit(), 'pr_late');
      const [mail] = await resetMails(kit(), 'late@example.com');
      kit().setClockAhead(HOUR_MS + 1000);
      try {
        const res = await confirm(kit(), { token: mail?.token, newPassword: 'too late horse' });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toBe(RESET_REFUSED);
      } finally {
        kit().setClockAhead(0);
      }
      expect((await signIn(kit(), 'pr_late')).res.status).toBe(200);
    });

    it('the signed-in password change writes the "your password was changed" notice too', async () => {
      await addMember(kit(), 'pr_change', 'change@example.com');
      const { cookie } = await signIn(kit(), 'pr_change');
      const res = await kit()
        .request.post('/api/account/password')
        .set({ Origin: ORIGIN, Cookie: cookie })
        .send({ currentPassword: 'correct horse', newPassword: 'changed horse 2' });
      expect(res.status).toBe(204);
      const notice = await kit().db.knex('mail_outbox').where({ to_address: 'change@example.com', template: 'password-changed' });
      expect(notice).toHaveLength(1);
      expect(notice[0].mail_key).toMatch(/^pwchanged:\d+:\d+$/);
    });

    it("refuses another site's pages (Origin) on both routes", async () => {
      expect(
        (await kit().request.post('/api/password-reset').set('Origin', 'https://evil.example').send({ login: 'pr_known' })).status,
      ).toBe(403);
      expect(
        (
          await kit()
            .request.post('/api/password-reset/confirm')
            .set('Origin', 'https://evil.example')
            .send({ token: 'x', newPassword: 'whatever horse' })
        ).status,
      ).toBe(403);
    });
  },
);

describe('password reset limits per address', () => {
  const kit = useKit(() => startAccountKit('sqlite', { RATE_LIMIT_LOGIN_PER_MINUTE: '3' }));

  it('answers 429 past RATE_LIMIT_LOGIN_PER_MINUTE requests a minute from one address, before reading the body', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await ask(kit(), `pr_nobody${i}`)).status);
    expect(statuses).toEqual([202, 202, 202, 429, 429]);
    // Refused before the body is read: an unparseable body gets the 429, not a 400.
    const junk = await kit()
      .request.post('/api/password-reset')
      .set({ Origin: ORIGIN, 'Content-Type': 'application/json' })
      .send('{not json');
    expect(junk.status).toBe(429);
  });

  it('counts link confirmations per address too (RATE_LIMIT_LOGIN_PER_MINUTE a minute)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await confirm(kit(), { token: 'A'.repeat(43), newPassword: 'whatever horse' })).status);
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
  });
});
