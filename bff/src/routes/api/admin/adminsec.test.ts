import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOpsCaptured } from '@media-site/ops/cli';
import { openSecret, sealSecret, totpCode } from '@media-site/db/admin';
import { insertReport } from '@media-site/db/moderation';
import { parseKeyRing } from '@media-site/contracts/token';
import { testBackends } from '@media-site/db/testing';
import { ORIGIN, signIn, startAccountKit, type AccountKit } from '../../../test/account-kit';
import { cookieHeader, setCookies } from '../../../test/cookies';
import { assertion, attestation, softAuthenticator } from '../../../test/webauthn';

// The operator console's hardening: TOTP secrets sealed at rest (ADMIN_SECRET_KEYS), the WebAuthn relying
// party from SITE_URL, every CLI change audited, and the console's takedown/restore and member
// enable/sign-out-everywhere routes.

const KEY_NEW = `new:${randomBytes(32).toString('base64url')}`;
const KEY_OLD = `old:${randomBytes(32).toString('base64url')}`;
const SITE = 'https://console.example';
const MINUTE = 60_000;

describe.each(testBackends())('operator console hardening (%s)', (backend) => {
  let kit: AccountKit;
  const secrets = new Map<string, string>();
  let clock = 0;
  const env = { USER: 'tester', ADMIN_SECRET_KEYS: `${KEY_NEW},${KEY_OLD}` };
  const ops = (...argv: string[]) => runOpsCaptured(argv, { env, knex: kit.db.knex, now: () => kit.deps.now() });
  const tick = (ms = MINUTE) => kit.setClockAhead((clock += ms));
  const post = (path: string, cookie = '') => kit.request.post(path).set('Origin', ORIGIN).set('Cookie', cookie);
  const audit = async (action: string) =>
    (await kit.db.knex('admin_audit').where({ action }).orderBy('id').select('actor', 'target', 'before_json', 'after_json')) as Record<
      string,
      string | null
    >[];
  const storedSecret = async (name: string) => String((await kit.db.knex('admins').where({ name }).first('totp_secret')).totp_secret);

  async function addAdmin(name: string, role: string) {
    const added = await ops('admin', 'add', name, '--role', role);
    expect(added.code, added.err).toBe(0);
    secrets.set(name, /secret: (\S+)/.exec(added.out)?.[1] ?? '');
  }

  async function totpSignIn(name: string) {
    tick();
    const res = await post('/api/admin/signin/totp').send({ name, code: totpCode(secrets.get(name)!, kit.deps.now()) });
    return { res, cookie: cookieHeader(setCookies(res).filter((c) => c.startsWith('admin_sid='))) };
  }

  beforeAll(async () => {
    kit = await startAccountKit(backend, {
      RATE_LIMIT_ADMIN_SIGNIN_PER_MINUTE: '1000',
      ADMIN_SECRET_KEYS: `${KEY_NEW},${KEY_OLD}`,
      SITE_URL: SITE,
    });
    await addAdmin('boss', 'owner');
    await addAdmin('mod_one', 'moderator');
    await addAdmin('help_one', 'support');
  });
  afterAll(() => kit?.close());

  it('stores TOTP secrets sealed (AES-256-GCM, key id prefix), never in plain text, and still signs in', async () => {
    const stored = await storedSecret('boss');
    expect(stored).toMatch(/^v1\.new\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(stored).not.toContain(secrets.get('boss'));
    expect(openSecret(parseKeyRing(KEY_NEW), stored)).toBe(secrets.get('boss'));
    // Another IV each time: the same secret never seals to the same text.
    expect(sealSecret(parseKeyRing(KEY_NEW), 'ABC')).not.toBe(sealSecret(parseKeyRing(KEY_NEW), 'ABC'));
    expect(() => openSecret(parseKeyRing(KEY_OLD), stored)).toThrow(/key "new"/);
    expect((await totpSignIn('boss')).res.status).toBe(200);
  });

  it('a plain row from before encryption signs in and is sealed then; an old-key row is re-sealed by admin rekey', async () => {
    await kit.db
      .knex('admins')
      .where({ name: 'help_one' })
      .update({ totp_secret: secrets.get('help_one') });
    expect((await totpSignIn('help_one')).res.status).toBe(200);
    expect(await storedSecret('help_one')).toMatch(/^v1\.new\./);

    await kit.db
      .knex('admins')
      .where({ name: 'mod_one' })
      .update({ totp_secret: sealSecret(parseKeyRing(KEY_OLD), secrets.get('mod_one')!) });
    await kit.db
      .knex('admins')
      .where({ name: 'boss' })
      .update({ totp_secret: secrets.get('boss') });
    const rekey = await ops('admin', 'rekey');
    expect(rekey.code, rekey.err).toBe(0);
    expect(rekey.out).toMatch(/re-sealed 2 admin TOTP secret\(s\) under ADMIN_SECRET_KEYS key "new"/);
    for (const name of ['boss', 'mod_one', 'help_one']) expect(await storedSecret(name)).toMatch(/^v1\.new\./);
    expect(await audit('admin.rekey')).toMatchObject([{ actor: 'cli:tester', after_json: '{"kid":"new","resealed":2}' }]);
    expect((await totpSignIn('mod_one')).res.status).toBe(200);
  });

  it('the CLI refuses the local default ADMIN_SECRET_KEYS in production', async () => {
    const refused = await runOpsCaptured(['admin', 'list'], { env: { USER: 'tester', NODE_ENV: 'production' }, knex: kit.db.knex });
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/ADMIN_SECRET_KEYS: is the local development default/);
  });

  it('takes the passkey relying party from SITE_URL, whatever the Host header: another rpID or origin is refused', async () => {
    const { cookie } = await totpSignIn('boss');
    tick();
    expect((await post('/api/admin/confirm/totp', cookie).send({ code: totpCode(secrets.get('boss')!, kit.deps.now()) })).status).toBe(200);
    const options = await post('/api/admin/passkeys/options', cookie).send({});
    expect(options.status).toBe(200);
    expect(options.body.rp.id).toBe('console.example');
    const key = softAuthenticator();
    const hostBound = attestation(key, { challenge: options.body.challenge, origin: ORIGIN, rpId: '127.0.0.1' });
    const wrong = await post('/api/admin/passkeys/verify', cookie).send({ response: hostBound });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toMatch(/did not verify/);

    const again = await post('/api/admin/passkeys/options', cookie).send({});
    const good = attestation(key, { challenge: again.body.challenge, origin: SITE, rpId: 'console.example' });
    expect((await post('/api/admin/passkeys/verify', cookie).send({ response: good })).status).toBe(201);

    const signInWith = async (origin: string, rpId: string) => {
      const opts = await post('/api/admin/signin/passkey/options').send({});
      expect(opts.body.rpId).toBe('console.example');
      return post('/api/admin/signin/passkey/verify').send({
        response: assertion(key, { challenge: opts.body.challenge, origin, rpId, userVerified: true }),
      });
    };
    expect((await signInWith(ORIGIN, '127.0.0.1')).status).toBe(401);
    expect((await signInWith('https://evil.example', 'console.example')).status).toBe(401);
    const ok = await signInWith(SITE, 'console.example');
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ name: 'boss', role: 'owner' });
  });

  it('a moderator takes an item down and restores it through the API, audited; other roles and bad input are refused', async () => {
    const moderator = (await totpSignIn('mod_one')).cookie;
    const support = (await totpSignIn('help_one')).cookie;
    const body = { path: '/vod/vod-one', reason: 'no consent on file' };
    const denied = await post('/api/admin/takedowns', support).send(body);
    expect(denied.status).toBe(403);
    expect(denied.body.error.message).toBe('the support role may not take content down or restore it');
    expect((await post('/api/admin/takedowns').send(body)).status).toBe(401);
    expect(
      (await kit.request.post('/api/admin/takedowns').set('Origin', 'https://evil.example').set('Cookie', moderator).send(body)).status,
    ).toBe(403);
    for (const [bad, message] of [
      [{ path: '/vod/vod-one' }, /reason/],
      [{ path: '/nothing/here', reason: 'x' }, /path/],
      [{ path: '/vod/vod-one', reason: 'x'.repeat(1001) }, /reason/],
      [{ path: `/vod/${'a'.repeat(600)}`, reason: 'x' }, /path/],
      [{ ...body, extra: 1 }, /extra/],
    ] as const) {
      const res = await post('/api/admin/takedowns', moderator).send(bad);
      expect(res.status, JSON.stringify(bad).slice(0, 80)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect((await post('/api/admin/takedowns', moderator).send({ ...body, report: 'R-0000000000' })).status).toBe(400);
    expect((await post('/api/admin/takedowns', moderator).send({ path: '/vod/nope', reason: 'x' })).status).toBe(404);

    const down = await post('/api/admin/takedowns', moderator).send(body);
    expect(down.status).toBe(200);
    expect(down.body).toMatchObject({ type: 'vod', path: 'vod-one' });
    expect((await post('/api/admin/takedowns', moderator).send(body)).status).toBe(409);
    expect(await kit.db.knex('takedown_log').where({ path: 'vod-one' }).first('actor', 'reason')).toEqual({
      actor: 'mod_one',
      reason: body.reason,
    });
    const restored = await post('/api/admin/restores', moderator).send({
      path: 'https://site.example/vod/vod-one',
      reason: 'consent found',
    });
    expect(restored.status).toBe(200);
    expect(await audit('content.takedown')).toMatchObject([{ actor: 'mod_one', target: 'vod vod-one' }]);
    expect(JSON.parse((await audit('content.restore'))[0]!.after_json!)).toMatchObject({ takenDown: false, reason: 'consent found' });
  });

  it('support enables a member and ends their sessions through the API, audited; a moderator may not', async () => {
    expect((await ops('member', 'add', 'op_member', '--password', 'correct horse', '--email', 'op@example.com')).code).toBe(0);
    const member = await signIn(kit, 'op_member');
    const support = (await totpSignIn('help_one')).cookie;
    const moderator = (await totpSignIn('mod_one')).cookie;
    expect((await post('/api/admin/members/op_member/signout-all', moderator)).status).toBe(403);
    expect((await post('/api/admin/members/op_member/enable', moderator)).status).toBe(403);
    expect((await post('/api/admin/members/no%20such/signout-all', support)).status).toBe(400);
    expect((await post('/api/admin/members/nobody_here/signout-all', support)).status).toBe(404);

    const ended = await post('/api/admin/members/op_member/signout-all', support);
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ username: 'op_member', sessionsEnded: 1 });
    expect((await kit.request.get('/api/me').set('Cookie', member.cookie)).status).toBe(401);
    expect(await audit('member.signout_all')).toMatchObject([
      { actor: 'help_one', target: 'op_member', after_json: '{"sessionsEnded":1}' },
    ]);

    expect((await post('/api/admin/members/op_member/enable', support)).status).toBe(409);
    expect((await ops('member', 'disable', 'op_member', '--reason', 'test')).code).toBe(0);
    const enabled = await post('/api/admin/members/op_member/enable', support);
    expect(enabled.status).toBe(200);
    expect(enabled.body).toEqual({ username: 'op_member', wasDisabled: true, wasRevoked: false });
    expect((await audit('member.enable')).at(-1)).toMatchObject({ actor: 'help_one', target: 'op_member' });
  });

  it('every CLI change is audited as cli:<user>: member add, signout-all, takedown, restore, schedule, unschedule, report decisions', async () => {
    expect((await ops('member', 'add', 'cli_member', '--password', 'correct horse')).code).toBe(0);
    expect((await ops('member', 'signout-all', 'cli_member')).code).toBe(0);
    const by = ['--by', 'ann', '--reason', 'checking'];
    expect((await ops('takedown', '/vod/vod-one', ...by)).code).toBe(0);
    expect((await ops('restore', '/vod/vod-one', ...by)).code).toBe(0);
    expect((await ops('schedule', '/vod/vod-one', '2030-01-01T00:00:00Z')).code).toBe(0);
    expect((await ops('unschedule', '/vod/vod-one')).code).toBe(0);
    await insertReport(kit.db.knex, {
      reference: 'R-0000000001',
      contentUrl: '/vod/vod-one',
      reason: 'other',
      details: 'test',
      email: null,
      now: kit.deps.now(),
    });
    expect((await ops('reports', 'ack', 'R-0000000001', '--by', 'ann')).code).toBe(0);
    const resolved = await ops('reports', 'resolve', 'R-0000000001', '--outcome', 'no_action', '--note', 'fine', '--by', 'ann');
    expect(resolved.code, resolved.err).toBe(0);
    // A refused change writes no audit row (same transaction).
    expect((await ops('reports', 'ack', 'R-0000000001', '--by', 'ann')).code).toBe(1);
    const rows: { action: string; target: string }[] = await kit.db
      .knex('admin_audit')
      .where('actor', 'cli:tester')
      .orderBy('id')
      .select('action', 'target');
    const item = 'vod vod-one';
    const report = 'R-0000000001';
    expect(rows.slice(-8).map((r) => `${r.action} ${r.target}`)).toEqual([
      'member.add cli_member',
      'member.signout_all cli_member',
      `content.takedown ${item}`,
      `content.restore ${item}`,
      `content.schedule ${item}`,
      `content.unschedule ${item}`,
      `report.ack ${report}`,
      `report.resolve ${report}`,
    ]);
    expect(JSON.parse((await audit('content.schedule'))[0]!.after_json!)).toEqual({
      publishAt: Date.UTC(2030, 0, 1),
      datetoupload: '2030-01-01',
    });
  });
});
