import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOpsCaptured } from '@media-site/ops/cli';
import { totpCode } from '@media-site/db/admin';
import { testBackends } from '@media-site/db/testing';
import { ORIGIN, signIn, startAccountKit, type AccountKit } from '../../../test/account-kit';
import { cookieHeader, setCookies } from '../../../test/cookies';
import { assertion, attestation, softAuthenticator } from '../../../test/webauthn';

const RP_ID = '127.0.0.1';
const MINUTE = 60_000;

describe.each(testBackends())('operator console accounts, sign-in, roles and audit (%s)', (backend) => {
  let kit: AccountKit;
  const secrets = new Map<string, string>();
  let clock = 0;

  const ops = (...argv: string[]) => runOpsCaptured(argv, { env: { USER: 'tester' }, knex: kit.db.knex, now: () => kit.deps.now() });
  /** Moves the routes' clock on by a TOTP step or more, so each sign-in has a fresh code. */
  const tick = (ms = MINUTE) => kit.setClockAhead((clock += ms));
  const post = (path: string, cookie = '') => kit.request.post(path).set('Origin', ORIGIN).set('Cookie', cookie);
  const get = (path: string, cookie = '') => kit.request.get(path).set('Sec-Fetch-Site', 'same-origin').set('Cookie', cookie);
  const auditRows = async () =>
    (await kit.db.knex('admin_audit').orderBy('id').select('actor', 'action', 'target', 'before_json', 'after_json', 'address')) as Record<
      string,
      string
    >[];

  async function addAdmin(name: string, role: string) {
    const added = await ops('admin', 'add', name, '--role', role);
    expect(added.code, added.err).toBe(0);
    const secret = /secret: (\S+)/.exec(added.out)?.[1] ?? '';
    secrets.set(name, secret);
    return added;
  }

  async function totpSignIn(name: string) {
    tick();
    const res = await post('/api/admin/signin/totp').send({ name, code: totpCode(secrets.get(name)!, kit.deps.now()) });
    return { res, cookie: cookieHeader(setCookies(res).filter((c) => c.startsWith('admin_sid='))) };
  }

  /** A 6-digit code that is none of the three the server accepts around now. */
  function wrongCode(name: string): string {
    const now = kit.deps.now();
    const good = new Set([-1, 0, 1].map((d) => totpCode(secrets.get(name)!, now + d * 30_000)));
    for (let n = 0; ; n += 1) {
      const code = String(n).padStart(6, '0');
      if (!good.has(code)) return code;
    }
  }

  beforeAll(async () => {
    // The per-address sign-in limit (10 a minute) is another test's; this one signs in often.
    // Budgets of wrong codes are signin-limits.test.ts's; here the lockout test's five stay inside one.
    kit = await startAccountKit(backend, { RATE_LIMIT_ADMIN_SIGNIN_PER_MINUTE: '1000', ADMIN_SIGNIN_FAILURES: '20' });
    await addAdmin('boss', 'owner');
    await addAdmin('mod_one', 'moderator');
    await addAdmin('help_one', 'support');
    expect((await ops('member', 'add', 'op_member', '--password', 'correct horse', '--email', 'op@example.com')).code).toBe(0);
  });
  afterAll(() => kit?.close());

  it('admin add prints a TOTP enrolment URI once, writes an audit row as cli:<user>; list shows roles, never secrets', async () => {
    expect(secrets.get('boss')).toMatch(/^[A-Z2-7]{32}$/);
    const again = await ops('admin', 'add', 'boss', '--role', 'owner');
    expect(again.code).toBe(1);
    expect((await ops('admin', 'add', 'x', '--role', 'owner')).code).toBe(2);
    expect((await ops('admin', 'add', 'nobody', '--role', 'king')).code).toBe(2);
    const list = await ops('admin', 'list', '--json');
    expect(JSON.parse(list.out).map((a: { name: string; role: string }) => `${a.name}:${a.role}`)).toEqual([
      'boss:owner',
      'help_one:support',
      'mod_one:moderator',
    ]);
    expect(list.out).not.toContain(secrets.get('boss'));
    expect((await auditRows()).filter((r) => r.action === 'admin.add')).toMatchObject([
      { actor: 'cli:tester', target: 'boss', after_json: '{"role":"owner"}' },
      { actor: 'cli:tester', target: 'mod_one' },
      { actor: 'cli:tester', target: 'help_one' },
    ]);
  });

  it('a member session, a forged cookie or no cookie get 401 on /api/admin/me', async () => {
    const member = await signIn(kit, 'op_member');
    expect(member.res.status).toBe(200);
    expect((await get('/api/admin/me', member.cookie)).status).toBe(401);
    expect((await get('/api/admin/me', `admin_sid=${'A'.repeat(43)}`)).status).toBe(401);
    expect((await get('/api/admin/me', 'admin_sid=not-even-the-shape')).status).toBe(401);
    expect((await get('/api/admin/me')).status).toBe(401);
  });

  it('TOTP sign-in gives a strict, HttpOnly cookie for /api/admin only; /me answers name and role', async () => {
    const { res, cookie } = await totpSignIn('boss');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'boss', role: 'owner' });
    const line = setCookies(res).find((c) => c.startsWith('admin_sid='))!;
    expect(line).toMatch(/path=\/api\/admin/i);
    expect(line).toMatch(/samesite=strict/i);
    expect(line).toMatch(/httponly/i);
    const me = await get('/api/admin/me', cookie);
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ name: 'boss', role: 'owner' });
    expect(me.headers['cache-control']).toBe('no-store');
    // Behind TLS (the trusted front door says https) the cookie is Secure.
    tick();
    const https = await post('/api/admin/signin/totp')
      .set('X-Forwarded-Proto', 'https')
      .send({ name: 'boss', code: totpCode(secrets.get('boss')!, kit.deps.now()) });
    expect(https.status).toBe(200);
    expect(setCookies(https).find((c) => c.startsWith('admin_sid='))).toMatch(/;\s*secure/i);
    // A member route ignores the console's cookie.
    expect((await kit.request.get('/api/me').set('Cookie', cookie)).status).toBe(401);
  });

  it('no second factor, no session: a missing or replayed code, an unknown name', async () => {
    for (const body of [{ name: 'boss' }, { name: 'boss', code: '' }, { name: 'boss', code: '12345x' }]) {
      const res = await post('/api/admin/signin/totp').send(body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/code/);
      expect(setCookies(res)).toEqual([]);
    }
    tick();
    const code = totpCode(secrets.get('boss')!, kit.deps.now());
    expect((await post('/api/admin/signin/totp').send({ name: 'boss', code })).status).toBe(200);
    const replay = await post('/api/admin/signin/totp').send({ name: 'boss', code });
    expect(replay.status).toBe(401);
    expect(setCookies(replay)).toEqual([]);
    expect((await post('/api/admin/signin/totp').send({ name: 'nobody', code })).status).toBe(401);
  });

  it('cross-origin requests are refused on every admin route', async () => {
    const { cookie } = await totpSignIn('boss');
    expect((await get('/api/admin/me', cookie).set('Sec-Fetch-Site', 'cross-site')).status).toBe(403);
    expect((await get('/api/admin/me', cookie).set('Sec-Fetch-Site', 'same-site')).status).toBe(403);
    const forged = await kit.request.post('/api/admin/signout').set('Origin', 'https://evil.example').set('Cookie', cookie);
    expect(forged.status).toBe(403);
    expect((await kit.request.post('/api/admin/signin/totp').send({ name: 'boss', code: '123456' })).status).toBe(403);
    expect((await get('/api/admin/me', cookie)).status).toBe(200);
  });

  it('five wrong codes in a row lock nothing: the right code still signs in, every failure audited (signin-limits.test.ts has the budgets)', async () => {
    for (let i = 1; i <= 5; i += 1)
      expect((await post('/api/admin/signin/totp').send({ name: 'help_one', code: wrongCode('help_one') })).status).toBe(401);
    expect((await totpSignIn('help_one')).res.status).toBe(200);
    const rows = (await auditRows()).filter((r) => r.target === 'help_one');
    expect(rows.filter((r) => r.action === 'admin.signin_failed')).toHaveLength(5);
    expect(rows.some((r) => r.action === 'admin.lockout')).toBe(false);
  });

  it('each role gets what it may do and a 403 naming what it may not', async () => {
    const owner = (await totpSignIn('boss')).cookie;
    const moderator = (await totpSignIn('mod_one')).cookie;
    const support = (await totpSignIn('help_one')).cookie;
    expect((await get('/api/admin/audit', owner)).status).toBe(200);
    expect((await get('/api/admin/reports', owner)).status).toBe(200);
    expect((await get('/api/admin/members?q=op_', owner)).status).toBe(200);

    const modAudit = await get('/api/admin/audit', moderator);
    expect(modAudit.status).toBe(403);
    expect(modAudit.body.error.message).toBe('the moderator role may not read the audit log');
    expect((await get('/api/admin/members?q=op', moderator)).body.error.message).toBe('the moderator role may not see or change members');
    expect((await get('/api/admin/reports', moderator)).body).toEqual({ reports: [] });

    expect((await get('/api/admin/audit.csv', support)).status).toBe(403);
    expect((await get('/api/admin/reports', support)).body.error.message).toBe('the support role may not handle reports');
    const found = await get('/api/admin/members?q=OP_MEM', support);
    expect(found.status).toBe(200);
    expect(found.body.members.map((m: { username: string }) => m.username)).toEqual(['op_member']);
    expect((await get('/api/admin/members?q=%25', support)).body.members).toEqual([]);
    expect((await get('/api/admin/members', support)).status).toBe(400);
    expect((await get(`/api/admin/members?q=${'x'.repeat(101)}`, support)).status).toBe(400);
  });

  it('support disables a member through the same service as the CLI, and the audit log records it', async () => {
    const member = await signIn(kit, 'op_member');
    const support = (await totpSignIn('help_one')).cookie;
    const moderator = (await totpSignIn('mod_one')).cookie;
    expect((await post('/api/admin/members/op_member/disable', moderator).send({ reason: 'x' })).status).toBe(403);
    expect((await post('/api/admin/members/op_member/disable', support).send({})).status).toBe(400);
    const res = await post('/api/admin/members/op_member/disable', support).send({ reason: 'chargeback fraud' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ username: 'op_member', sessionsEnded: 2 });
    expect((await kit.request.get('/api/me').set('Cookie', member.cookie)).status).toBe(401);
    const row = (await auditRows()).find((r) => r.action === 'member.disable')!;
    expect(row).toMatchObject({ actor: 'help_one', target: 'op_member', before_json: '{"disabled":false}' });
    expect(JSON.parse(row.after_json!)).toEqual({ disabled: true, reason: 'chargeback fraud', sessionsEnded: 2 });
    expect(row.address).toMatch(/127\.0\.0\.1/);
    // The CLI's member commands go through the same service and are audited too.
    expect((await ops('member', 'enable', 'op_member')).code).toBe(0);
    expect((await auditRows()).find((r) => r.action === 'member.enable')).toMatchObject({
      actor: 'cli:tester',
      target: 'op_member',
      before_json: '{"disabled":true,"revoked":false}',
      address: '',
    });
  });

  it('registers a passkey while signed in and confirmed, then signs in with it (user verification required)', async () => {
    const { cookie } = await totpSignIn('boss');
    tick();
    expect((await post('/api/admin/confirm/totp', cookie).send({ code: totpCode(secrets.get('boss')!, kit.deps.now()) })).status).toBe(200);
    const key = softAuthenticator();
    const options = await post('/api/admin/passkeys/options', cookie).send({});
    expect(options.status).toBe(200);
    expect(options.body.rp.id).toBe(RP_ID);
    expect(options.body.authenticatorSelection.userVerification).toBe('required');
    const registration = attestation(key, { challenge: options.body.challenge, origin: ORIGIN, rpId: RP_ID });
    expect((await post('/api/admin/passkeys/verify').send({ response: registration })).status).toBe(401);
    expect((await post('/api/admin/passkeys/verify', cookie).send({ response: registration })).status).toBe(201);
    // The challenge was good once.
    expect((await post('/api/admin/passkeys/verify', cookie).send({ response: registration })).status).toBe(400);
    expect(JSON.parse((await ops('admin', 'list', '--json')).out)[0]).toMatchObject({ name: 'boss', passkeys: 1 });

    const signInWith = async (userVerified: boolean, origin = ORIGIN) => {
      const opts = await post('/api/admin/signin/passkey/options').send({});
      expect(opts.status).toBe(200);
      const response = assertion(key, { challenge: opts.body.challenge, origin, rpId: RP_ID, userVerified });
      return post('/api/admin/signin/passkey/verify').send({ response });
    };
    const noPin = await signInWith(false);
    expect(noPin.status).toBe(401);
    expect(setCookies(noPin)).toEqual([]);
    const phished = await signInWith(true, 'https://evil.example');
    expect(phished.status).toBe(401);
    const ok = await signInWith(true);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ name: 'boss', role: 'owner' });
    const session = cookieHeader(setCookies(ok).filter((c) => c.startsWith('admin_sid=')));
    expect((await get('/api/admin/me', session)).body).toEqual({ name: 'boss', role: 'owner' });
    const actions = (await auditRows()).filter((r) => r.target === 'boss').map((r) => r.action);
    expect(actions).toContain('admin.passkey_add');
    expect((await auditRows()).filter((r) => r.action === 'admin.signin' && r.after_json === '{"method":"passkey"}')).toHaveLength(1);
  });

  it('sessions end after 30 idle minutes, at sign-out, and when the CLI disables the admin', async () => {
    const idle = (await totpSignIn('mod_one')).cookie;
    tick(29 * MINUTE);
    expect((await get('/api/admin/me', idle)).status).toBe(200);
    tick(31 * MINUTE);
    expect((await get('/api/admin/me', idle)).status).toBe(401);

    const out = (await totpSignIn('mod_one')).cookie;
    expect((await post('/api/admin/signout', out)).status).toBe(204);
    expect((await get('/api/admin/me', out)).status).toBe(401);

    const live = (await totpSignIn('mod_one')).cookie;
    const disabled = await ops('admin', 'disable', 'mod_one');
    expect(disabled.code).toBe(0);
    expect(disabled.out).toMatch(/1 console session/);
    expect((await get('/api/admin/me', live)).status).toBe(401);
    expect((await totpSignIn('mod_one')).res.status).toBe(401);
    expect((await auditRows()).find((r) => r.action === 'admin.disable')).toMatchObject({ actor: 'cli:tester', target: 'mod_one' });
  });

  it('the owner pages through the audit log and exports it as CSV', async () => {
    const { cookie } = await totpSignIn('boss');
    const first = await get('/api/admin/audit?limit=2', cookie);
    expect(first.status).toBe(200);
    expect(first.body.entries).toHaveLength(2);
    expect(first.body.entries[0].action).toBe('admin.signin');
    const second = await get(`/api/admin/audit?limit=2&before=${first.body.next}`, cookie);
    expect(second.body.entries[0].id).toBeLessThan(first.body.entries[1].id);
    expect((await get('/api/admin/audit?limit=201', cookie)).status).toBe(400);
    const csv = await get('/api/admin/audit.csv', cookie);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('id,at,actor,action,target,before,after,address');
    expect(lines.length - 1).toBe((await auditRows()).length);
    expect(lines[1]).toMatch(/^1,\d{4}-\d\d-\d\dT[^,]+,cli:tester,admin\.add,boss,,"\{""role"":""owner""\}",$/);
  });
});

describe('console sign-in limits per address', () => {
  it('the 11th sign-in request a minute from one address is a 429 before its body is read', async () => {
    const kit = await startAccountKit('sqlite', { ADMIN_SIGNIN_FAILURES: '20' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i += 1)
        statuses.push(
          (await kit.request.post('/api/admin/signin/totp').set('Origin', ORIGIN).send({ name: 'nobody', code: '123456' })).status,
        );
      expect(statuses).toEqual([...Array<number>(10).fill(401), 429]);
      expect((await kit.request.post('/api/admin/signin/passkey/options').set('Origin', ORIGIN).send({})).status).toBe(429);
    } finally {
      await kit.close();
    }
  });
});

describe('the audit log is append-only', () => {
  it('no source file but the migration writes admin_audit other than by inserting through appendAudit', () => {
    const files = execFileSync('git', ['grep', '-l', 'admin_audit', '--', '*.ts'], { encoding: 'utf8' }).trim().split('\n');
    const writers = files.filter((f) => !f.endsWith('.test.ts') && !f.includes('/migrations/'));
    expect(writers).toEqual(['db/src/admin/audit.ts']);
    expect(
      readFileSync(`${execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim()}/db/src/admin/audit.ts`, 'utf8'),
    ).not.toMatch(/\.(update|delete|del|truncate)\(/);
  });
});
