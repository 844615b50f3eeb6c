import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runOpsCaptured } from '@media-site/ops/cli';
import { sealSecret, totpCode } from '@media-site/db/admin';
import { insertReport } from '@media-site/db/moderation';
import { parseKeyRing } from '@media-site/contracts/token';
import { testBackends } from '@media-site/db/testing';
import { ORIGIN, startAccountKit, type AccountKit } from '../../../test/account-kit';
import { cookieHeader, setCookies } from '../../../test/cookies';
import type { DeskRow } from './report-desk';

// The console's report desk and admin management (one service with the CLI, audited),
// and a TOTP secret sealed under a key ADMIN_SECRET_KEYS no longer holds (503, not 500).

const KEY = `k1:${randomBytes(32).toString('base64url')}`;
const GONE = `gone:${randomBytes(32).toString('base64url')}`;
const MINUTE = 60_000;
const HOUR = 3_600_000;

describe.each(testBackends())('console report desk and admin management (%s)', (backend) => {
  let kit: AccountKit;
  const secrets = new Map<string, string>();
  let clock = 0;
  const ops = (...argv: string[]) =>
    runOpsCaptured(argv, { env: { USER: 'tester', ADMIN_SECRET_KEYS: KEY }, knex: kit.db.knex, now: () => kit.deps.now() });
  const tick = (ms = MINUTE) => kit.setClockAhead((clock += ms));
  const post = (path: string, cookie: string) => kit.request.post(path).set('Origin', ORIGIN).set('Cookie', cookie);
  const get = (path: string, cookie: string) => kit.request.get(path).set('Sec-Fetch-Site', 'same-origin').set('Cookie', cookie);
  const audit = async (action: string) =>
    (await kit.db.knex('admin_audit').where({ action }).orderBy('id').select('actor', 'target', 'before_json', 'after_json')) as Record<
      string,
      string | null
    >[];

  async function totpSignIn(name: string) {
    tick();
    const res = await kit.request
      .post('/api/admin/signin/totp')
      .set('Origin', ORIGIN)
      .send({ name, code: totpCode(secrets.get(name)!, kit.deps.now()) });
    return { res, cookie: cookieHeader(setCookies(res).filter((c) => c.startsWith('admin_sid='))) };
  }

  async function signedIn(name: string): Promise<string> {
    const { res, cookie } = await totpSignIn(name);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return cookie;
  }

  /** Signed in and confirmed with a fresh code: changes to admins need it (confirm.test.ts). */
  async function confirmedIn(name: string): Promise<string> {
    const cookie = await signedIn(name);
    tick();
    const confirmed = await post('/api/admin/confirm/totp', cookie).send({ code: totpCode(secrets.get(name)!, kit.deps.now()) });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    return cookie;
  }

  async function report(reference: string, contentUrl: string, ageMs: number) {
    await insertReport(kit.db.knex, {
      reference,
      contentUrl,
      reason: 'other',
      details: 'see this',
      email: null,
      now: kit.deps.now() - ageMs,
    });
  }

  beforeAll(async () => {
    kit = await startAccountKit(backend, {
      RATE_LIMIT_ADMIN_SIGNIN_PER_MINUTE: '1000',
      ADMIN_SECRET_KEYS: KEY,
      ADMIN_CONFIRM_MINUTES: '30',
    });
    const added = await ops('admin', 'add', 'boss', '--role', 'owner');
    expect(added.code, added.err).toBe(0);
    secrets.set('boss', /secret: (\S+)/.exec(added.out)![1]!);
  });
  afterAll(() => kit?.close());

  it('an owner adds a moderator (secret shown once), changes roles, gives a new TOTP secret and disables; all audited', async () => {
    const boss = await confirmedIn('boss');
    const add = await post('/api/admin/admins', boss).send({ name: 'mod_two', role: 'moderator' });
    expect(add.status, JSON.stringify(add.body)).toBe(201);
    expect(add.body).toMatchObject({ name: 'mod_two', role: 'moderator', secret: expect.stringMatching(/^[A-Z2-7]{32}$/) });
    expect(add.body.uri).toMatch(/^otpauth:\/\/totp\/.*mod_two\?.*secret=/);
    secrets.set('mod_two', add.body.secret);
    const mod = await signedIn('mod_two');
    expect((await get('/api/admin/me', mod)).body).toEqual({ name: 'mod_two', role: 'moderator' });
    // A moderator may not manage admins; the API says so.
    const refused = await get('/api/admin/admins', mod);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toMatch(/moderator role may not manage admins/);

    expect((await post('/api/admin/admins', boss).send({ name: 'mod_two', role: 'moderator' })).status).toBe(409);
    const listed = await get('/api/admin/admins', boss);
    expect(listed.body.admins.map((a: { name: string; role: string }) => `${a.name} ${a.role}`)).toEqual([
      'boss owner',
      'mod_two moderator',
    ]);

    const role = await post('/api/admin/admins/mod_two/role', boss).send({ role: 'support' });
    expect(role.body).toEqual({ name: 'mod_two', before: 'moderator', after: 'support' });
    expect((await get('/api/admin/reports', mod)).status).toBe(403);
    expect((await post('/api/admin/admins/mod_two/role', boss).send({ role: 'moderator' })).status).toBe(200);

    const old = secrets.get('mod_two')!;
    const reset = await post('/api/admin/admins/mod_two/totp', boss);
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ name: 'mod_two', sessionsEnded: 1 });
    expect(reset.body.secret).not.toBe(old);
    expect((await get('/api/admin/me', mod)).status).toBe(401);
    expect((await totpSignIn('mod_two')).res.status).toBe(401);
    secrets.set('mod_two', reset.body.secret);
    await signedIn('mod_two');

    const rekey = await post('/api/admin/admins/rekey', boss);
    expect(rekey.body).toEqual({ resealed: 0, kid: 'k1' });

    expect((await post('/api/admin/admins/mod_two/disable', boss)).body).toEqual({ name: 'mod_two', sessionsEnded: 1 });
    expect((await totpSignIn('mod_two')).res.status).toBe(401);
    expect((await audit('admin.add')).at(-1)).toMatchObject({ actor: 'boss', target: 'mod_two', after_json: '{"role":"moderator"}' });
    expect((await audit('admin.role')).map((r) => r.after_json)).toEqual(['{"role":"support"}', '{"role":"moderator"}']);
    expect(await audit('admin.totp_reset')).toMatchObject([{ actor: 'boss', target: 'mod_two' }]);
    expect((await audit('admin.disable')).at(-1)).toMatchObject({ actor: 'boss', target: 'mod_two' });
  });

  it('the last active owner can neither disable nor demote themselves (console or CLI); with another owner they can', async () => {
    const boss = await confirmedIn('boss');
    const demote = await post('/api/admin/admins/boss/role', boss).send({ role: 'moderator' });
    expect(demote.status).toBe(409);
    expect(demote.body.error.message).toBe('boss is the last active owner: make another admin an owner first');
    expect((await post('/api/admin/admins/boss/disable', boss)).status).toBe(409);
    const cli = await ops('admin', 'disable', 'boss');
    expect(cli.code).toBe(1);
    expect(cli.err).toMatch(/last active owner/);
    expect((await ops('admin', 'role', 'boss', '--role', 'support')).code).toBe(1);
    expect(await audit('admin.role')).toHaveLength(2);

    const second = await post('/api/admin/admins', boss).send({ name: 'boss_two', role: 'owner' });
    expect(second.status).toBe(201);
    // A disabled owner does not count: mod_two (disabled above) made owner leaves boss the last active one.
    expect((await ops('admin', 'role', 'mod_two', '--role', 'owner')).code).toBe(0);
    expect((await post('/api/admin/admins/boss_two/disable', boss)).status).toBe(200);
    expect((await post('/api/admin/admins/boss/role', boss).send({ role: 'moderator' })).status).toBe(409);
  });

  it('the CLI gives a new TOTP secret too (`admin totp`), printed once and audited as cli:<user>', async () => {
    const cli = await ops('admin', 'totp', 'boss_two');
    expect(cli.code, cli.err).toBe(0);
    const secret = /secret: (\S+)/.exec(cli.out)?.[1] ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(cli.out).toMatch(/URI: {4}otpauth:\/\/totp\//);
    expect((await audit('admin.totp_reset')).at(-1)).toMatchObject({ actor: 'cli:tester', target: 'boss_two' });
    expect((await ops('admin', 'totp', 'nobody_here')).code).toBe(1);
  });

  it('refuses bad input to the admin routes with a 400 that says why', async () => {
    const boss = await confirmedIn('boss');
    const cases: [string, object, RegExp][] = [
      ['/api/admin/admins', { name: 'x'.repeat(33), role: 'owner' }, /name: at most 32 characters/],
      ['/api/admin/admins', { name: 'Bad Name', role: 'owner' }, /name: 3-32 lower-case/],
      ['/api/admin/admins', { name: 'fine_name', role: 'root' }, /role: the role must be owner, moderator or support/],
      ['/api/admin/admins', { name: 'fine_name', role: 'owner', extra: 1 }, /body|extra/],
      ['/api/admin/admins/boss/role', { role: 'god' }, /role must be/],
    ];
    for (const [path, body, message] of cases) {
      const res = await post(path, boss).send(body);
      expect(res.status, path).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect((await post(`/api/admin/admins/${'a'.repeat(40)}/disable`, boss)).status).toBe(400);
    expect((await post('/api/admin/admins/nobody_here/disable', boss)).status).toBe(404);
  });

  it('the report queue: deadline order, SLA state and words, the item preview; ack, resolve, appeal and decide audited', async () => {
    await ops('admin', 'add', 'moddy', '--role', 'moderator').then((r) => secrets.set('moddy', /secret: (\S+)/.exec(r.out)![1]!));
    await report('R-0000000A01', '/vod/vod-one', 30 * 24 * HOUR); // weeks old: overdue
    await report('R-0000000A02', 'https://site.example/vod/vod-one', 47 * HOUR); // acknowledge due within the hour
    await report('R-0000000A03', '/photos/no-such-set', 0); // just in and acknowledged: on time; names no item
    expect((await ops('reports', 'ack', 'R-0000000A03', '--by', 'ann')).code).toBe(0);
    const mod = await signedIn('moddy');
    const queue = (await get('/api/admin/reports', mod)).body.reports as DeskRow[];
    expect(queue.map((r) => `${r.reference} ${r.sla.state}`)).toEqual([
      'R-0000000A01 overdue',
      'R-0000000A02 due_soon',
      'R-0000000A03 on_time',
    ]);
    expect(queue[0]!.sla.late).toEqual(['acknowledge', 'resolve']);
    expect(queue[0]!.item).toEqual({
      type: 'vod',
      path: 'vod-one',
      title: 'VOD one',
      takenDown: false,
      page: '/vod/vod-one',
      thumbnail: '/members/vodthumbs/vod-one/vod-one_02.jpg',
    });
    expect(queue[2]!.item).toBeNull();

    const ref = 'R-0000000A01';
    expect((await post(`/api/admin/reports/${ref}/ack`, mod).send({})).body.report.acknowledged_by).toBe('moddy');
    expect((await post(`/api/admin/reports/${ref}/ack`, mod).send({})).status).toBe(409);
    const appealEarly = await post(`/api/admin/reports/${ref}/appeal`, mod).send({ text: 'no' });
    expect(appealEarly.status).toBe(409);
    expect(appealEarly.body.error.message).toMatch(/not been decided yet/);
    const taken = await post('/api/admin/takedowns', mod).send({ path: '/vod/vod-one', reason: 'report upheld', report: ref });
    expect(taken.status).toBe(200);
    const resolved = await post(`/api/admin/reports/${ref}/resolve`, mod).send({ outcome: 'removed', note: 'taken down' });
    expect(resolved.body.report).toMatchObject({ outcome: 'removed', resolved_by: 'moddy', item: { takenDown: true, thumbnail: null } });
    expect((await post(`/api/admin/reports/${ref}/appeal`, mod).send({ text: 'it was mine', email: 'me@example.com' })).status).toBe(200);
    const decided = await post(`/api/admin/reports/${ref}/decide`, mod).send({ decision: 'upheld', note: 'still no consent' });
    expect(decided.body.report).toMatchObject({ appeal_decision: 'upheld' });
    expect((await get('/api/admin/reports', mod)).body.reports.map((r: DeskRow) => r.reference)).not.toContain(ref);

    const rows: { actor: string; action: string; target: string }[] = await kit.db
      .knex('admin_audit')
      .where({ actor: 'moddy' })
      .whereNot('action', 'admin.signin')
      .orderBy('id')
      .select('actor', 'action', 'target');
    expect(rows.map((r) => `${r.action} ${r.target}`)).toEqual([
      `report.ack ${ref}`,
      'content.takedown vod vod-one',
      `report.resolve ${ref}`,
      `report.appeal ${ref}`,
      `report.decide ${ref}`,
    ]);
    // The appellant's acknowledgement and the decision were queued with the changes.
    const mails = await kit.db.knex('mail_outbox').where('mail_key', 'like', `report:${ref}:%`).select('mail_key');
    expect(mails.map((m: { mail_key: string }) => m.mail_key).sort()).toEqual([
      `report:${ref}:appeal-decided:0`,
      `report:${ref}:appeal-received`,
    ]);
  });

  it('refuses bad report input with a 400, and support with a 403', async () => {
    const mod = await signedIn('moddy');
    const ref = 'R-0000000A02';
    const cases: [string, object, RegExp][] = [
      [`/api/admin/reports/${ref}/resolve`, { outcome: 'removed', note: 'x'.repeat(1001) }, /note: at most 1000 characters/],
      [`/api/admin/reports/${ref}/resolve`, { outcome: 'maybe', note: 'x' }, /outcome/],
      [`/api/admin/reports/${ref}/resolve`, { outcome: 'removed', note: '   ' }, /note is required/],
      [`/api/admin/reports/${ref}/decide`, { decision: 'upheld', note: 'x'.repeat(1001) }, /note: at most/],
      [`/api/admin/reports/${ref}/appeal`, { text: 'x', email: 'not an address' }, /email must be an e-mail address/],
      [`/api/admin/reports/${ref}/appeal`, { text: 'x', email: 'a@b.co\r\nBcc: x@y.zz' }, /email must be an e-mail address/],
      [`/api/admin/reports/${ref}/appeal`, { text: 'x', email: 'a\u0001b@example.com' }, /email must be an e-mail address/],
      [`/api/admin/reports/${ref}/appeal`, { text: 'x', email: 'g:x@example.com;' }, /email must be an e-mail address/],
      ['/api/admin/reports/R-BAD/ack', {}, /not a report reference/],
    ];
    for (const [path, body, message] of cases) {
      const res = await post(path, mod).send(body);
      expect(res.status, path).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect((await post('/api/admin/reports/R-0000000ZZZ/ack', mod).send({})).status).toBe(404);
    await ops('admin', 'add', 'helpy', '--role', 'support').then((r) => secrets.set('helpy', /secret: (\S+)/.exec(r.out)![1]!));
    const support = await signedIn('helpy');
    expect((await get('/api/admin/reports', support)).status).toBe(403);
    expect((await post(`/api/admin/reports/${ref}/ack`, support).send({})).status).toBe(403);
  });

  it('a TOTP secret sealed under a key ADMIN_SECRET_KEYS does not hold: 503, the key id in the log only', async () => {
    await ops('admin', 'add', 'stale_key', '--role', 'support').then((r) => secrets.set('stale_key', /secret: (\S+)/.exec(r.out)![1]!));
    await kit.db
      .knex('admins')
      .where({ name: 'stale_key' })
      .update({ totp_secret: sealSecret(parseKeyRing(GONE), secrets.get('stale_key')!) });
    const logged = vi.spyOn(kit.deps.logger, 'error');
    try {
      const { res, cookie } = await totpSignIn('stale_key');
      expect(res.status).toBe(503);
      expect(cookie).toBe('');
      expect(res.body.error.message).toBe(
        'Sign-in with a code is unavailable: the server cannot read the stored secret for this account. Tell the site operator; a passkey may still work.',
      );
      expect(JSON.stringify(res.body)).not.toContain('gone');
      const line = logged.mock.calls.find((c) => String(c[1]).includes('stale_key'));
      expect(line?.[0]).toMatchObject({ admin: 'stale_key', kid: 'gone', problem: 'missing_key' });
      expect(String(line?.[1])).toMatch(/sealed under key "gone", which ADMIN_SECRET_KEYS does not hold/);
    } finally {
      logged.mockRestore();
    }
    // Re-sealing cannot open it either: a 503 with the way out, the key id in the log.
    const boss = await confirmedIn('boss');
    const rekey = await post('/api/admin/admins/rekey', boss);
    expect(rekey.status).toBe(503);
    expect(rekey.body.error.message).toMatch(/^Nothing was re-sealed: a TOTP secret is sealed under a key the server no longer holds/);
    // A new secret is the way out when the key is lost.
    expect((await post('/api/admin/admins/stale_key/totp', boss)).status).toBe(200);
    expect((await post('/api/admin/admins/rekey', boss)).status).toBe(200);
    // No failure counted against the admin: it was not their mistake.
    expect(await audit('admin.signin_failed')).not.toContainEqual(expect.objectContaining({ target: 'stale_key' }));
  });
});
