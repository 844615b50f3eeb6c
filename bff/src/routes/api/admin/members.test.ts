import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOpsCaptured } from '@media-site/ops/cli';
import { totpCode } from '@media-site/db/admin';
import { testBackends } from '@media-site/db/testing';
import { RESENDS_PER_HOUR } from './members';
import { ORIGIN, pay, signIn, startAccountKit, subscriptionIdOf, type AccountKit } from '../../../test/account-kit';
import { cookieHeader, setCookies } from '../../../test/cookies';

const MINUTE = 60_000;
const DAY = 86_400_000;
const SUBSCRIPTION = '111222333444555666';

interface AuditLine {
  actor: string;
  action: string;
  target: string;
  after_json: string;
  address: string;
}

// Support's members and payments: search by payment reference, a member's detail,
// extending a membership (console and `member extend`), and reconciling one stuck attempt.
describe.each(testBackends())('console members and payments (%s)', (backend) => {
  let kit: AccountKit;
  const secrets = new Map<string, string>();
  let clock = 0;
  const cookies = new Map<string, string>();
  const ids = { stuck: 0, fresh: 0, vod: 0, settled: 0 };

  const ops = (...argv: string[]) => runOpsCaptured(argv, { env: { USER: 'tester' }, knex: kit.db.knex, now: () => kit.deps.now() });
  const post = (path: string, who: string) =>
    kit.request
      .post(path)
      .set('Origin', ORIGIN)
      .set('Cookie', cookies.get(who) ?? '');
  const get = (path: string, who: string) =>
    kit.request
      .get(path)
      .set('Sec-Fetch-Site', 'same-origin')
      .set('Cookie', cookies.get(who) ?? '');
  const audit = (action: string) =>
    kit.db.knex('admin_audit').where({ action }).orderBy('id').select('actor', 'target', 'before_json', 'after_json');

  async function attempt(a: { username: string; memberId: number | null; kind?: string; status: string; ageMs: number; sub?: string }) {
    const now = kit.deps.now();
    const [id] = await kit.db.knex('payment_attempts').insert({
      payment_token: `tok-${a.username}-${a.status}-${a.ageMs}`,
      kind: a.kind ?? 'membership',
      vod_id: null,
      member_id: a.memberId,
      username: a.username,
      password_hash: a.memberId === null ? 'scrypt$placeholder' : null,
      email: `${a.username}@example.com`,
      amount: '29.95',
      currency_code: 840,
      status: a.status,
      reservation: a.status === 'approved' ? null : `u:${a.username}:${a.ageMs}`,
      provider_subscription_id: a.sub ?? null,
      created_at: now - a.ageMs,
      updated_at: now - a.ageMs,
    });
    return Number(id);
  }

  beforeAll(async () => {
    kit = await startAccountKit(backend, { RATE_LIMIT_ADMIN_SIGNIN_PER_MINUTE: '1000' });
    for (const [name, role] of [
      ['boss', 'owner'],
      ['mod_one', 'moderator'],
      ['help_one', 'support'],
    ]) {
      const added = await ops('admin', 'add', name!, '--role', role!);
      expect(added.code, added.err).toBe(0);
      secrets.set(name!, /secret: (\S+)/.exec(added.out)?.[1] ?? '');
      kit.setClockAhead((clock += MINUTE));
      const res = await kit.request
        .post('/api/admin/signin/totp')
        .set('Origin', ORIGIN)
        .send({ name, code: totpCode(secrets.get(name!)!, kit.deps.now()) });
      expect(res.status).toBe(200);
      cookies.set(name!, cookieHeader(setCookies(res).filter((c) => c.startsWith('admin_sid='))));
    }
    expect((await ops('member', 'add', 'pay_member', '--password', 'correct horse', '--email', 'pay@example.com')).code).toBe(0);
    const member = Number((await kit.db.knex('members').where({ username: 'pay_member' }).first('id')).id);
    ids.vod = await attempt({ username: 'pay_member', memberId: member, kind: 'vod', status: 'approved', ageMs: DAY, sub: SUBSCRIPTION });
    ids.fresh = await attempt({ username: 'pay_member', memberId: member, kind: 'vod', status: 'unknown', ageMs: MINUTE });
    ids.stuck = await attempt({ username: 'new_signup', memberId: null, status: 'unknown', ageMs: 20 * MINUTE });
    ids.settled = await attempt({ username: 'old_signup', memberId: null, status: 'declined', ageMs: DAY });
    await kit.db.knex('webhook_events').insert({
      transaction_id: 'tx-0042',
      event_type: 'UpSaleSuccess',
      subscription_id: SUBSCRIPTION,
      payload: '{}',
      received_at: kit.deps.now() - DAY,
      outcome: 'settled',
    });
  });
  afterAll(() => kit?.close());

  const usernames = (res: { body: { members: { username: string }[] } }) => res.body.members.map((m) => m.username);

  it('finds a member by e-mail and by each payment reference, and a sign-up whose charge is in doubt', async () => {
    expect(usernames(await get('/api/admin/members?q=pay@example', 'help_one'))).toEqual(['pay_member']);
    expect(usernames(await get(`/api/admin/members?q=${ids.vod}`, 'help_one'))).toEqual(['pay_member']);
    expect(usernames(await get(`/api/admin/members?q=${SUBSCRIPTION}`, 'help_one'))).toEqual(['pay_member']);
    expect(usernames(await get('/api/admin/members?q=tx-0042', 'help_one'))).toEqual(['pay_member']);
    const byRef = (await get(`/api/admin/members?q=${ids.vod}`, 'help_one')).body.members[0];
    expect(byRef).toMatchObject({ matched: 'reference', account: true, email: 'pay@example.com' });
    expect(byRef.paidUntil).toBeGreaterThan(kit.deps.now());
    const signup = await get(`/api/admin/members?q=${ids.stuck}`, 'help_one');
    expect(signup.body.members).toEqual([expect.objectContaining({ username: 'new_signup', account: false, matched: 'reference' })]);
    expect((await get('/api/admin/members?q=999999', 'help_one')).body.members).toEqual([]);
  });

  it('refuses bad searches with a 400 and the moderator with a 403', async () => {
    expect((await get('/api/admin/members?q=%20', 'help_one')).status).toBe(400);
    const long = await get(`/api/admin/members?q=${'1'.repeat(101)}`, 'help_one');
    expect(long.status).toBe(400);
    expect(long.body.error.message).toBe('q: at most 100 characters');
    // 100 characters is the limit: an answer, not an error.
    const longest = await get(`/api/admin/members?q=${'1'.repeat(100)}`, 'help_one');
    expect(longest.status).toBe(200);
    expect(longest.body.members).toEqual([]);
    expect((await get(`/api/admin/members/pay_member`, 'mod_one')).status).toBe(403);
    expect((await post('/api/admin/members/pay_member/extend', 'mod_one').send({ days: 1, reason: 'x' })).status).toBe(403);
    expect((await post(`/api/admin/payments/${ids.stuck}/reconcile`, 'mod_one').send({ action: 'decline' })).status).toBe(403);
    expect((await kit.request.get('/api/admin/members/pay_member').set('Sec-Fetch-Site', 'same-origin')).status).toBe(401);
  });

  it("shows a member's membership, sessions, attempts with their step, and webhooks", async () => {
    await signIn(kit, 'pay_member');
    const res = await get('/api/admin/members/pay_member', 'help_one');
    expect(res.status).toBe(200);
    expect(res.body.account).toMatchObject({ email: 'pay@example.com', disabledAt: null });
    expect(res.body.membership.state).toBe('active');
    expect(res.body.sessions.count).toBe(1);
    expect(res.body.attempts.map((a: { id: number }) => a.id)).toEqual([ids.fresh, ids.vod]);
    const [fresh, vod] = res.body.attempts;
    expect(fresh).toMatchObject({ status: 'unknown', stuck: false });
    expect(fresh.step).toMatch(/step 4 of 4/);
    expect(vod).toMatchObject({ status: 'approved', stuck: false, providerSubscriptionId: SUBSCRIPTION });
    expect(vod.step).toMatch(/webhook confirmed/);
    expect(res.body.webhooks).toEqual([expect.objectContaining({ eventType: 'UpSaleSuccess', transactionId: 'tx-0042' })]);
    const signup = await get('/api/admin/members/new_signup', 'help_one');
    expect(signup.body).toMatchObject({ account: null, membership: { state: 'none' } });
    expect(signup.body.attempts).toEqual([expect.objectContaining({ id: ids.stuck, stuck: true })]);
    expect((await get('/api/admin/members/nobody_here', 'help_one')).status).toBe(404);
    expect((await get('/api/admin/members/x', 'help_one')).status).toBe(400);
  });

  it('extends a membership within 1..366 days with a reason; the member sees it at once; audited; the CLI too', async () => {
    const member = await signIn(kit, 'pay_member');
    const me = async () => (await kit.request.get('/api/me').set('Cookie', member.cookie)).body.membership.paidUntil as string;
    const before = await me();
    const extend = (body: object) => post('/api/admin/members/pay_member/extend', 'help_one').send(body);
    for (const [body, message] of [
      [{ days: 0, reason: 'x' }, 'days: a whole number of days from 1 to 366'],
      [{ days: 367, reason: 'x' }, 'days: a whole number of days from 1 to 366'],
      [{ days: 1.5, reason: 'x' }, 'days: a whole number of days from 1 to 366'],
      [{ days: '30', reason: 'x' }, 'days: a whole number of days from 1 to 366'],
      [{ days: 3 }, 'reason: give a reason'],
      [{ days: 3, reason: '   ' }, 'reason: give a reason'],
      [{ days: 3, reason: 'x'.repeat(201) }, 'reason: longer than 200 characters'],
      [{ days: 3, reason: 'x', extra: 1 }, expect.stringContaining('extra')],
    ] as const) {
      const res = await extend(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toEqual(message);
    }
    const ok = await extend({ days: 366, reason: 'x'.repeat(199) + 'y' });
    expect(ok.status).toBe(200);
    expect(ok.body.paidUntil - ok.body.before).toBe(366 * DAY);
    const after = await me();
    expect(after).not.toBe(before);
    expect(Date.parse(after) - Date.parse(before)).toBe(366 * DAY);
    const rows = await audit('member.extend');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actor: 'help_one', target: 'pay_member' });
    expect(JSON.parse(rows[0].before_json)).toEqual({ paidUntil: ok.body.before });
    expect(JSON.parse(rows[0].after_json)).toMatchObject({ paidUntil: ok.body.paidUntil, days: 366 });

    expect((await ops('member', 'extend', 'pay_member', '--days', '0', '--reason', 'x')).code).toBe(2);
    expect((await ops('member', 'extend', 'pay_member', '--days', '367', '--reason', 'x')).code).toBe(2);
    expect((await ops('member', 'extend', 'pay_member', '--days', '5')).code).toBe(2);
    expect((await ops('member', 'extend', 'nobody_here', '--days', '5', '--reason', 'x')).code).toBe(1);
    const cli = await ops('member', 'extend', 'pay_member', '--days', '5', '--reason', 'goodwill');
    expect(cli.code, cli.err).toBe(0);
    expect(cli.out).toMatch(/paid until/);
    expect(Date.parse(await me()) - Date.parse(after)).toBe(5 * DAY);
    expect((await audit('member.extend')).map((r) => r.actor)).toEqual(['help_one', 'cli:tester']);
  });

  it("records each read of personal data (who, from where, what) before answering, the CLI's too", async () => {
    const since = Number((await kit.db.knex('admin_audit').max({ id: 'id' }).first())?.id ?? 0);
    const reads = async () =>
      (await kit.db
        .knex('admin_audit')
        .where('id', '>', since)
        .orderBy('id')
        .select('actor', 'action', 'target', 'after_json', 'address')) as AuditLine[];

    expect((await get('/api/admin/members?q=pay@example', 'help_one')).status).toBe(200);
    expect((await get('/api/admin/members/pay_member', 'help_one')).status).toBe(200);
    // Refused or malformed: nothing was shown, nothing recorded.
    expect((await get('/api/admin/members/pay_member', 'mod_one')).status).toBe(403);
    expect((await get(`/api/admin/members?q=${'1'.repeat(101)}`, 'help_one')).status).toBe(400);
    expect((await get('/api/admin/members/nobody_here', 'help_one')).status).toBe(404);
    const longest = 'q'.repeat(100);
    expect((await get(`/api/admin/members?q=${longest}`, 'help_one')).status).toBe(200);
    const rows = await reads();
    expect(rows.map((r) => [r.actor, r.action, r.target])).toEqual([
      ['help_one', 'member.search', 'pay@example'],
      ['help_one', 'member.view', 'pay_member'],
      ['help_one', 'member.search', longest],
    ]);
    expect(JSON.parse(rows[0]!.after_json)).toEqual({ found: 1, usernames: ['pay_member'] });
    expect(JSON.parse(rows[2]!.after_json)).toEqual({ found: 0, usernames: [] });
    for (const r of rows) expect(r.address).not.toBe('');

    // The owner's reads of the audit log (admins' addresses, members' names) are reads too; the
    // export records itself before its first byte, so the file holds its own row.
    const page = await get('/api/admin/audit?limit=5', 'boss');
    expect(page.status).toBe(200);
    const csv = await get('/api/admin/audit.csv', 'boss');
    expect(csv.status).toBe(200);
    const lastLine = csv.text.trim().split('\r\n').at(-1)!;
    expect(lastLine).toMatch(/,boss,audit\.export,/);
    const owner = (await reads()).slice(3);
    expect(owner.map((r) => [r.actor, r.action])).toEqual([
      ['boss', 'audit.read'],
      ['boss', 'audit.export'],
    ]);
    expect(JSON.parse(owner[0]!.after_json)).toEqual({ before: null, shown: 5 });

    // The CLI's reads of personal data, as `cli:<user>` like its changes.
    expect((await ops('member', 'list')).code).toBe(0);
    expect((await ops('reconcile', 'list', '--older-than-minutes', '0')).code).toBe(0);
    const cli = (await reads()).slice(5);
    expect(cli.map((r) => [r.actor, r.action, r.address])).toEqual([
      ['cli:tester', 'member.list', ''],
      ['cli:tester', 'payment.list', ''],
    ]);
    expect(JSON.parse(cli[0]!.after_json)).toEqual({ shown: 1 });
  });

  it('answers no personal data when its read cannot be recorded', async () => {
    await kit.db.knex.schema.renameTable('admin_audit', 'admin_audit_away');
    try {
      for (const [path, who] of [
        ['/api/admin/members?q=pay@example', 'help_one'],
        ['/api/admin/members/pay_member', 'help_one'],
        ['/api/admin/audit', 'boss'],
        ['/api/admin/audit.csv', 'boss'],
      ] as const) {
        const res = await get(path, who).catch((err: unknown) => ({ status: 0, text: String(err) }));
        expect(res.status, path).toBe(500);
        expect(res.text, path).not.toMatch(/pay@example\.com|pay_member/);
      }
      const cli = await ops('member', 'list');
      expect(cli.code).not.toBe(0);
      expect(cli.out).not.toContain('pay@example.com');
    } finally {
      await kit.db.knex.schema.renameTable('admin_audit_away', 'admin_audit');
    }
  });

  it('reconciles only a stuck attempt, through the same service as the CLI, audited', async () => {
    const reconcile = (id: number | string, body: object) => post(`/api/admin/payments/${id}/reconcile`, 'help_one').send(body);
    expect((await reconcile(ids.stuck, { action: 'refund' })).body.error.message).toBe('action: action must be approve, decline or expire');
    expect((await reconcile('abc', { action: 'decline' })).status).toBe(400);
    expect((await reconcile('1234567890', { action: 'decline' })).status).toBe(400);
    expect((await reconcile(ids.stuck, { action: 'approve', subscriptionId: '12a' })).status).toBe(400);
    expect((await reconcile(ids.stuck, { action: 'approve', subscriptionId: '1'.repeat(33) })).status).toBe(400);
    expect((await reconcile(999_999, { action: 'decline' })).status).toBe(404);
    const young = await reconcile(ids.fresh, { action: 'decline' });
    expect(young.status).toBe(409);
    expect(young.body.error.message).toMatch(/only 1 minute\(s\) old/);
    const settled = await reconcile(ids.settled, { action: 'approve' });
    expect(settled.status).toBe(409);
    expect(settled.body.error.message).toMatch(/already declined/);

    const ok = await reconcile(ids.stuck, { action: 'approve', subscriptionId: '999000111222333444' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ username: 'new_signup', before: 'unknown', after: 'approved' });
    const found = await get('/api/admin/members?q=999000111222333444', 'help_one');
    expect(found.body.members).toEqual([expect.objectContaining({ username: 'new_signup', account: true })]);
    expect((await reconcile(ids.stuck, { action: 'decline' })).status).toBe(409);
    expect(await audit('payment.reconcile_approve')).toEqual([
      expect.objectContaining({ actor: 'help_one', target: `attempt ${ids.stuck} (new_signup)`, before_json: '{"status":"unknown"}' }),
    ]);

    // The CLI's decline goes through the same service (at any age) and is audited as the CLI's user.
    const cli = await ops('reconcile', 'decline', String(ids.fresh));
    expect(cli.out).toMatch(/declined/);
    expect((await audit('payment.reconcile_decline')).map((r) => r.actor)).toEqual(['cli:tester']);
  });

  it("resends an approved payment's receipt to the member's address, audited; refuses any other payment", async () => {
    const resend = (id: number, who = 'help_one') => post(`/api/admin/payments/${id}/resend-receipt`, who);
    expect((await resend(ids.vod, 'mod_one')).status).toBe(403);
    const sent = await resend(ids.vod);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body).toEqual({ message: `A copy of the receipt for attempt ${ids.vod} is on its way to pay@example.com.` });
    const copies = await kit.db
      .knex('mail_outbox')
      .where('mail_key', 'like', `receipt:attempt:${ids.vod}:copy:%`)
      .select('template', 'to_address');
    expect(copies).toEqual([{ template: 'vod-receipt', to_address: 'pay@example.com' }]);
    expect(await audit('payment.resend_receipt')).toEqual([
      expect.objectContaining({ actor: 'help_one', target: `attempt ${ids.vod} (pay_member)`, after_json: '{"to":"pay@example.com"}' }),
    ]);
    const declined = await resend(ids.settled);
    expect(declined.status).toBe(409);
    expect(declined.body.error.message).toBe(`attempt ${ids.settled} is declined: only an approved payment has a receipt`);
    expect((await resend(999_999)).status).toBe(404);
    for (let i = 1; i < RESENDS_PER_HOUR; i++) expect((await resend(ids.vod)).status).toBe(200);
    const flood = await resend(ids.vod);
    expect([flood.status, flood.body.error.message]).toEqual([429, 'this receipt was sent again recently: wait an hour']);
  });

  it("cancels a member's renewal at the provider from the console: audited, the member mailed; a moderator may not", async () => {
    const paid = await pay(kit, { username: 'renew_member' });
    expect(paid.result.status, JSON.stringify(paid.result.body)).toBe(200);
    const cancel = (username: string, who = 'help_one') => post(`/api/admin/members/${username}/cancel-renewal`, who);
    expect((await cancel('renew_member', 'mod_one')).status).toBe(403);
    expect((await cancel('nobody_here')).status).toBe(404);
    const done = await cancel('renew_member');
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toEqual({
      message: "renew_member's membership will not renew; access runs to the paid-until day. The member was sent a confirmation.",
    });
    const subscriptionId = await subscriptionIdOf(kit, 'renew_member');
    expect(kit.sim.cancellations.map((c) => c.subscriptionId)).toContain(subscriptionId);
    const member = await kit.db.knex('members').where({ username: 'renew_member' }).first('id');
    const subscription = await kit.db.knex('subscriptions').where({ member_id: member.id, kind: 'membership' }).first('id', 'status');
    expect(subscription.status).toBe('cancelled');
    expect(
      await kit.db
        .knex('mail_outbox')
        .where({ mail_key: `cancel-renewal:${subscription.id}` })
        .first('template'),
    ).toEqual({
      template: 'cancellation',
    });
    expect(await audit('member.cancel-renewal')).toEqual([expect.objectContaining({ actor: 'help_one', target: 'renew_member' })]);
    const again = await cancel('renew_member');
    expect([again.status, again.body.error.message]).toEqual([409, 'This membership does not renew: there is nothing to cancel.']);
  });
});
