import { describe, expect, it } from 'vitest';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { runOpsCommand } from '@media-site/ops/cli';
import { ORIGIN, VIDEO, insertVideo, signIn, startAccountKit, type AccountKit } from '../../../test/account-kit';
import { RESET_DEVICE_COOKIE } from '../../../security/device-cookie';
import {
  LIVE_LINKS_FROM_UNKNOWN_BROWSERS,
  LIVE_LINKS_MAX,
  RESETS_PER_ADDRESS_PER_HOUR,
  RESETS_PER_DEVICE_PER_HOUR,
  RESETS_PER_LOGIN_PER_HOUR,
} from './limits';
import { ACCOUNTS_PER_ADDRESS_MAX, RESET_ANSWER, RESET_ANSWER_FLOOR_MS, RESET_REFUSED } from './service';
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

// Each request from an address of its own unless told: the per-address budget is the test's to spend.
let addresses = 0;
const newAddress = () => {
  addresses += 1;
  return `198.18.${addresses >> 8}.${addresses & 255}`;
};
interface Asker {
  from?: string;
  /** The browser's Cookie header (a known browser's `reset_device`, or someone else's). */
  cookie?: string;
  altcha?: string;
}
const ask = (kit: AccountKit, login: unknown, by: Asker = {}) =>
  kit.request
    .post('/api/password-reset')
    .set({ Origin: ORIGIN, 'X-Forwarded-For': by.from ?? newAddress(), ...(by.cookie ? { Cookie: by.cookie } : {}) })
    .send({ login, ...(by.altcha === undefined ? {} : { altcha: by.altcha }) });
/** What the SPA's widget does: fetch the sign-in's challenge, solve it, send the payload as base64 JSON. */
async function proof(kit: AccountKit): Promise<string> {
  const res = await kit.request.get('/api/login-challenge').set('X-Forwarded-For', newAddress());
  expect(res.status).toBe(200);
  const challenge = res.body as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('no solution');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
/** A browser that signed in as `username`: the Cookie header of its reset_device cookie. */
async function knownBrowser(kit: AccountKit, username: string): Promise<string> {
  const device = (await signIn(kit, username)).cookies.find((c) => c.startsWith(`${RESET_DEVICE_COOKIE}=`)) ?? '';
  expect(device).toMatch(/; path=\/api\/password-reset; expires=[^;]+; samesite=lax; httponly$/i);
  return device.split(';')[0] ?? '';
}
const challenged = (res: { status: number; body: { error?: { code?: string } } }) =>
  res.status === 403 && res.body.error?.code === 'challenge_required';
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
  async (backend) => {
    const started = await startAccountKit(backend, { SITE_URL: SITE, SITE_NAME: 'Test Site' });
    await insertVideo(started.db.knex);
    return started;
  },
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

    it(`past ${RESETS_PER_LOGIN_PER_HOUR} requests an hour for one login from unknown browsers (any addresses), the next needs a proof of work, alike whether an account matches`, async () => {
      await addMember(kit(), 'pr_budget', 'budget@example.com');
      await addMember(kit(), 'pr_other', 'other@example.com');
      // The requester's own device cookie, for another account, makes it no known browser of this one.
      const attacker = await knownBrowser(kit(), 'pr_other');
      const answers = async (login: string) => {
        const res: { status: number; body: unknown }[] = [];
        for (let i = 0; i <= RESETS_PER_LOGIN_PER_HOUR; i += 1) {
          const started = Date.now();
          const r = await ask(kit(), login, { cookie: attacker });
          expect(Date.now() - started).toBeGreaterThanOrEqual(RESET_ANSWER_FLOOR_MS - 5);
          res.push({ status: r.status, body: r.body });
        }
        return res;
      };
      const known = await answers('PR_Budget');
      const unknown = await answers('pr_nobody_bdg');
      expect(known).toEqual(unknown);
      expect(known.slice(0, -1).every((a) => a.status === 202)).toBe(true);
      expect(known.at(-1)).toMatchObject({ status: 403, body: { error: { code: 'challenge_required' } } });
      // The login's other form has its own budget: the address is a second name for the account.
      expect((await ask(kit(), 'budget@example.com')).status).toBe(202);

      // A solved challenge gets the one answer; a solution works once.
      const solved = await proof(kit());
      expect((await ask(kit(), 'pr_budget', { altcha: solved })).body).toEqual(RESET_ANSWER);
      expect(challenged(await ask(kit(), 'pr_budget', { altcha: solved }))).toBe(true);
      expect(challenged(await ask(kit(), 'pr_nobody_bdg', { altcha: await proof(kit()) }))).toBe(false);
    });

    it(`from unknown browsers at most ${LIVE_LINKS_FROM_UNKNOWN_BROWSERS} links of an account are live at once: past that the same answer and no mail, and none is cancelled`, async () => {
      await addMember(kit(), 'pr_cap', 'cap@example.com');
      for (let i = 0; i < LIVE_LINKS_FROM_UNKNOWN_BROWSERS; i += 1) expect((await ask(kit(), 'pr_cap')).status).toBe(202);
      for (const altcha of [await proof(kit()), await proof(kit())])
        expect((await ask(kit(), 'cap@example.com', { altcha })).body).toEqual(RESET_ANSWER);
      const mails = await resetMails(kit(), 'cap@example.com');
      expect(mails).toHaveLength(LIVE_LINKS_FROM_UNKNOWN_BROWSERS);
      // Any of them still works, once; using one spends the others. Then there is room again: with a proof, a new link.
      expect((await confirm(kit(), { token: mails[0]?.token, newPassword: 'capped horse 1' })).status).toBe(200);
      for (const m of mails)
        expect((await confirm(kit(), { token: m.token, newPassword: 'capped horse 2' })).body.error?.message).toBe(RESET_REFUSED);
      expect((await ask(kit(), 'pr_cap', { altcha: await proof(kit()) })).status).toBe(202);
      expect(await resetMails(kit(), 'cap@example.com')).toHaveLength(LIVE_LINKS_FROM_UNKNOWN_BROWSERS + 1);
    });

    it(`the member's known browser (reset_device, set at sign-in) gets a mail without a proof, ${RESETS_PER_DEVICE_PER_HOUR} an hour, whatever others spent; at most ${LIVE_LINKS_MAX} links live in all`, async () => {
      await addMember(kit(), 'pr_owner', 'owner@example.com');
      const mine = await knownBrowser(kit(), 'pr_owner');
      // Others, from many addresses, spend the login's budget and the unknown browsers' live links.
      for (let i = 0; i < RESETS_PER_LOGIN_PER_HOUR; i += 1) await ask(kit(), 'pr_owner');
      expect(challenged(await ask(kit(), 'pr_owner'))).toBe(true);
      expect(await resetMails(kit(), 'owner@example.com')).toHaveLength(LIVE_LINKS_FROM_UNKNOWN_BROWSERS);

      // The member's browser, by username or by e-mail address: each time a mail, no proof asked.
      for (const login of ['pr_owner', 'OWNER@example.com', 'pr_owner'].slice(0, RESETS_PER_DEVICE_PER_HOUR)) {
        const res = await ask(kit(), login, { cookie: mine });
        expect({ status: res.status, body: res.body }).toEqual({ status: 202, body: RESET_ANSWER });
      }
      const mails = await resetMails(kit(), 'owner@example.com');
      expect(mails).toHaveLength(LIVE_LINKS_FROM_UNKNOWN_BROWSERS + RESETS_PER_DEVICE_PER_HOUR);
      // Past its own budget the browser counts as an unknown one: the login's budget is spent, so a proof.
      expect(challenged(await ask(kit(), 'pr_owner', { cookie: mine }))).toBe(true);
      // Another browser of the member's has its own budget, but the account has its most live links: the answer, no mail.
      expect((await ask(kit(), 'pr_owner', { cookie: await knownBrowser(kit(), 'pr_owner') })).status).toBe(202);
      expect(await resetMails(kit(), 'owner@example.com')).toHaveLength(LIVE_LINKS_MAX);
      // Each of them is a working link.
      const live = await kit()
        .db.knex('password_resets')
        .whereIn(
          'token_hash',
          mails.map((m) => linkTokenHash(m.token)),
        )
        .whereNull('used_at');
      expect(live).toHaveLength(LIVE_LINKS_MAX);
      expect((await confirm(kit(), { token: mails[1]?.token, newPassword: 'owner horse 1' })).status).toBe(200);
    });

    it(`past ${RESETS_PER_ADDRESS_PER_HOUR} requests an hour from one address (any logins), unknown browsers there need a proof; a known browser there does not`, async () => {
      await addMember(kit(), 'pr_nat', 'nat@example.com');
      const mine = await knownBrowser(kit(), 'pr_nat');
      const from = newAddress();
      for (let i = 0; i < RESETS_PER_ADDRESS_PER_HOUR; i += 1) expect((await ask(kit(), `pr_spray${i}`, { from })).status).toBe(202);
      expect(challenged(await ask(kit(), 'pr_spray_last', { from }))).toBe(true);
      expect(challenged(await ask(kit(), 'pr_nat', { from }))).toBe(true);
      expect((await ask(kit(), 'pr_nat', { from, cookie: mine })).status).toBe(202);
      expect(await resetMails(kit(), 'nat@example.com')).toHaveLength(1);
      expect((await ask(kit(), 'pr_spray_last', { from, altcha: await proof(kit()) })).status).toBe(202);
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
        .query({ path: `/members/video/${VIDEO.path}/${VIDEO.file}` })
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
      const newLink = await kit()
        .request.get('/api/download-link')
        .query({ path: `/members/video/${VIDEO.path}/${VIDEO.file}` })
        .set('Cookie', fresh);
      expect(Number(new URL(newLink.body.url, SITE).searchParams.get('iat'))).toBeGreaterThanOrEqual(list.validFrom[String(id)]);

      expect((await kit().request.post('/api/account/email/confirm').set('Origin', ORIGIN).send({ token: pending })).status).toBe(400);
      expect((await signIn(kit(), 'pr_reset')).res.status).toBe(401);
      expect((await signIn(kit(), 'pr_reset', 'brand new horse')).res.status).toBe(200);
      const notice = await kit().db.knex('mail_outbox').where({ to_address: 'reset@example.com', template: 'password-changed' });
      expect(notice).toHaveLength(1);
      expect(notice[0].text_body).toContain('was just changed');
    });

    it('a newer request leaves older links working: each works once, and using one spends the others; all refused with one message', async () => {
      await addMember(kit(), 'pr_once', 'once@example.com');
      for (let i = 0; i < 3; i += 1) await ask(kit(), 'pr_once');
      const [first, second, third] = await resetMails(kit(), 'once@example.com');
      const refused = async (token: string | undefined) => {
        const res = await confirm(kit(), { token, newPassword: 'another horse 1' });
        expect(res.status).toBe(400);
        expect(res.body.error.message).toBe(RESET_REFUSED);
      };
      expect((await confirm(kit(), { token: first?.token, newPassword: 'another horse 1' })).status).toBe(200);
      await refused(first?.token);
      await refused(second?.token);
      await refused(third?.token);
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

    it('a password changed while signed in spends every outstanding reset link', async () => {
      await addMember(kit(), 'pr_changed', 'changed@example.com');
      await ask(kit(), 'pr_changed');
      const [mail] = await resetMails(kit(), 'changed@example.com');
      const { cookie } = await signIn(kit(), 'pr_changed');
      const res = await kit()
        .request.post('/api/account/password')
        .set({ Origin: ORIGIN, Cookie: cookie })
        .send({ currentPassword: 'correct horse', newPassword: 'changed horse 3' });
      expect(res.status).toBe(204);
      const late = await confirm(kit(), { token: mail?.token, newPassword: 'a thief horse' });
      expect(late.body.error?.message).toBe(RESET_REFUSED);
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
    for (let i = 0; i < 5; i += 1) statuses.push((await ask(kit(), `pr_nobody${i}`, { from: '192.0.2.1' })).status);
    expect(statuses).toEqual([202, 202, 202, 429, 429]);
    // Refused before the body is read: an unparseable body gets the 429, not a 400.
    const junk = await kit()
      .request.post('/api/password-reset')
      .set({ Origin: ORIGIN, 'X-Forwarded-For': '192.0.2.1', 'Content-Type': 'application/json' })
      .send('{not json');
    expect(junk.status).toBe(429);
  });

  it('counts link confirmations per address too (RATE_LIMIT_LOGIN_PER_MINUTE a minute)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await confirm(kit(), { token: 'A'.repeat(43), newPassword: 'whatever horse' })).status);
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
  });
});
