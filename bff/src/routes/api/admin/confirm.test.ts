import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOpsCaptured } from '@media-site/ops/cli';
import { totpCode } from '@media-site/db/admin';
import { testBackends } from '@media-site/db/testing';
import { ORIGIN, startAccountKit, type AccountKit } from '../../../test/account-kit';
import { cookieHeader, setCookies } from '../../../test/cookies';
import { assertion, attestation, softAuthenticator, type SoftAuthenticator } from '../../../test/webauthn';

// A stolen console cookie alone cannot leave anything behind: a passkey, an admin, a role or a
// secret needs a fresh TOTP code or passkey in that session; the recovery (`admin totp`) revokes
// every passkey; passkeys can be listed, named and revoked; a new one is mailed to the admin.

const RP_ID = '127.0.0.1';
const MINUTE = 60_000;

describe.each(testBackends())('console confirmations and passkeys (%s)', (backend) => {
  let kit: AccountKit;
  const secrets = new Map<string, string>();
  let clock = 0;
  const ops = (...argv: string[]) => runOpsCaptured(argv, { env: { USER: 'tester' }, knex: kit.db.knex, now: () => kit.deps.now() });
  const tick = (ms = MINUTE) => kit.setClockAhead((clock += ms));
  const post = (path: string, cookie = '') => kit.request.post(path).set('Origin', ORIGIN).set('Cookie', cookie);
  const get = (path: string, cookie = '') => kit.request.get(path).set('Sec-Fetch-Site', 'same-origin').set('Cookie', cookie);
  const code = (name: string) => totpCode(secrets.get(name)!, kit.deps.now());

  async function add(name: string, role: string, ...more: string[]) {
    const added = await ops('admin', 'add', name, '--role', role, ...more);
    expect(added.code, added.err).toBe(0);
    secrets.set(name, /secret: (\S+)/.exec(added.out)?.[1] ?? '');
  }
  async function signIn(name: string) {
    tick();
    const res = await post('/api/admin/signin/totp').send({ name, code: code(name) });
    expect(res.status).toBe(200);
    return cookieHeader(setCookies(res).filter((c) => c.startsWith('admin_sid=')));
  }
  async function confirm(name: string, session: string) {
    tick();
    const res = await post('/api/admin/confirm/totp', session).send({ code: code(name) });
    expect(res.status).toBe(200);
  }
  async function register(session: string, key: SoftAuthenticator, name?: string) {
    const options = await post('/api/admin/passkeys/options', session).send({});
    if (options.status !== 200) return options;
    const response = attestation(key, { challenge: options.body.challenge, origin: ORIGIN, rpId: RP_ID });
    return post('/api/admin/passkeys/verify', session).send({ response, ...(name ? { name } : {}) });
  }
  async function passkeySignIn(key: SoftAuthenticator) {
    const opts = await post('/api/admin/signin/passkey/options').send({});
    return post('/api/admin/signin/passkey/verify').send({
      response: assertion(key, { challenge: opts.body.challenge, origin: ORIGIN, rpId: RP_ID, userVerified: true }),
    });
  }

  beforeAll(async () => {
    kit = await startAccountKit(backend, { RATE_LIMIT_ADMIN_SIGNIN_PER_MINUTE: '1000', ADMIN_CONFIRM_MINUTES: '5' });
    await add('chief', 'owner', '--email', 'chief@example.com');
    await add('victim', 'moderator');
  });
  afterAll(() => kit?.close());

  it('a session that has not confirmed cannot add a passkey, an admin, a role, a secret or enable anyone', async () => {
    const stolen = await signIn('chief');
    for (const [path, body] of [
      ['/api/admin/passkeys/options', {}],
      ['/api/admin/admins', { name: 'sneaky', role: 'owner' }],
      ['/api/admin/admins/victim/role', { role: 'owner' }],
      ['/api/admin/admins/victim/totp', {}],
      ['/api/admin/admins/victim/disable', {}],
      ['/api/admin/admins/victim/enable', {}],
      ['/api/admin/admins/victim/email', { email: 'x@example.com' }],
      ['/api/admin/admins/victim/passkeys/revoke', {}],
      ['/api/admin/admins/rekey', {}],
    ] as const) {
      const res = await post(path, stolen).send(body);
      expect([path, res.status, res.body.error?.code]).toEqual([path, 403, 'confirm_required']);
    }
    // Reading is not a change: the list still answers.
    expect((await get('/api/admin/admins', stolen)).status).toBe(200);
    expect(await kit.db.knex('admins').where({ name: 'sneaky' }).first()).toBeUndefined();
  });

  it('a fresh code confirms for ADMIN_CONFIRM_MINUTES; the code the session signed in with does not; a passkey confirms too', async () => {
    tick();
    const signInCode = code('chief');
    const res = await post('/api/admin/signin/totp').send({ name: 'chief', code: signInCode });
    const session = cookieHeader(setCookies(res).filter((c) => c.startsWith('admin_sid=')));
    const replay = await post('/api/admin/confirm/totp', session).send({ code: signInCode });
    expect(replay.status).toBe(403);
    expect(replay.body.error.message).toMatch(/next code/);
    await confirm('chief', session);
    const key = softAuthenticator();
    const added = await register(session, key, 'Desk key');
    expect(added.status).toBe(201);
    expect(added.body.passkey).toMatchObject({ name: 'Desk key', lastUsedAt: null });
    tick(6 * MINUTE);
    expect((await post('/api/admin/passkeys/options', session).send({})).body.error.code).toBe('confirm_required');
    // The passkey confirms (only the admin's own, with user verification).
    const opts = await post('/api/admin/confirm/passkey/options', session).send({});
    expect(opts.status).toBe(200);
    expect(opts.body.allowCredentials).toHaveLength(1);
    const noPin = assertion(key, { challenge: opts.body.challenge, origin: ORIGIN, rpId: RP_ID, userVerified: false });
    expect((await post('/api/admin/confirm/passkey/verify', session).send({ response: noPin })).status).toBe(403);
    const opts2 = await post('/api/admin/confirm/passkey/options', session).send({});
    const good = assertion(key, { challenge: opts2.body.challenge, origin: ORIGIN, rpId: RP_ID, userVerified: true });
    expect((await post('/api/admin/confirm/passkey/verify', session).send({ response: good })).status).toBe(200);
    expect((await post('/api/admin/passkeys/options', session).send({})).status).toBe(200);
    // The admin is told: a mail to the address the owner gave.
    const mail = await kit.db.knex('mail_outbox').where({ template: 'admin-passkey-added' }).first('to_address', 'subject', 'text_body');
    expect(mail).toMatchObject({ to_address: 'chief@example.com' });
    expect(mail.text_body).toMatch(/Desk key/);
    expect(mail.text_body).toMatch(/admin totp chief/);
  });

  it('five wrong confirmation codes end the session: a stolen cookie cannot go on guessing', async () => {
    const stolen = await signIn('victim');
    for (let i = 1; i <= 4; i += 1) expect((await post('/api/admin/confirm/totp', stolen).send({ code: '000000' })).status).toBe(403);
    const fifth = await post('/api/admin/confirm/totp', stolen).send({ code: '000000' });
    expect(fifth.status).toBe(401);
    expect((await get('/api/admin/me', stolen)).status).toBe(401);
    const live = await signIn('victim');
    expect((await post('/api/admin/confirm/totp', live).send({ code: 'abc' })).status).toBe(400);
  });

  it('a passkey added from a stolen session is refused after `admin totp`; --keep-passkeys keeps them', async () => {
    // The thief holds the victim's session, and the victim had just confirmed (the worst case).
    const session = await signIn('victim');
    await confirm('victim', session);
    const thief = softAuthenticator();
    expect((await register(session, thief)).status).toBe(201);
    expect((await passkeySignIn(thief)).status).toBe(200);
    // The documented recovery: a new TOTP secret, every session ended, every passkey revoked.
    const reset = await ops('admin', 'totp', 'victim');
    expect(reset.code, reset.err).toBe(0);
    expect(reset.out).toMatch(/1 passkey\(s\) revoked/);
    secrets.set('victim', /secret: (\S+)/.exec(reset.out)?.[1] ?? '');
    expect((await get('/api/admin/me', session)).status).toBe(401);
    expect((await passkeySignIn(thief)).status).toBe(401);
    // A passkey the admin vouches for can be kept.
    const s2 = await signIn('victim');
    await confirm('victim', s2);
    const own = softAuthenticator();
    expect((await register(s2, own, 'Own key')).status).toBe(201);
    const kept = await ops('admin', 'totp', 'victim', '--keep-passkeys');
    expect(kept.out).toMatch(/0 passkey\(s\) revoked/);
    secrets.set('victim', /secret: (\S+)/.exec(kept.out)?.[1] ?? '');
    expect((await passkeySignIn(own)).status).toBe(200);
    const actions = (await kit.db.knex('admin_audit').where({ target: 'victim' }).orderBy('id').pluck('action')) as string[];
    expect(actions).toContain('admin.passkey_revoke');
  });

  it('passkeys are listed, named and revoked by their admin (console and CLI); an owner revokes another admin’s', async () => {
    const session = await signIn('chief');
    const listed = await get('/api/admin/passkeys', session);
    expect(listed.status).toBe(200);
    const desk = listed.body.passkeys.find((p: { name: string }) => p.name === 'Desk key');
    expect(desk.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(listed.body)).not.toMatch(/publicKey|public_key|credential/i);
    // Naming needs no confirmation; a bad name is a 400.
    expect((await post(`/api/admin/passkeys/${desk.id}/name`, session).send({ name: 'Old desk key' })).status).toBe(200);
    expect((await post(`/api/admin/passkeys/${desk.id}/name`, session).send({ name: 'x'.repeat(65) })).status).toBe(400);
    expect((await post(`/api/admin/passkeys/${desk.id}/name`, session).send({ name: 'a\u0000b' })).status).toBe(400);
    expect((await post('/api/admin/passkeys/abc/name', session).send({ name: 'x' })).status).toBe(400);
    // Another admin's passkey is not this admin's to name or revoke.
    const theirs = (await ops('admin', 'passkeys', 'victim', '--json')).out;
    const theirId = (JSON.parse(theirs) as { id: number }[])[0]!.id;
    expect((await post(`/api/admin/passkeys/${theirId}/name`, session).send({ name: 'mine now' })).status).toBe(404);
    // Revoking needs a confirmation.
    expect((await post(`/api/admin/passkeys/${desk.id}/revoke`, session)).body.error.code).toBe('confirm_required');
    await confirm('chief', session);
    expect((await post(`/api/admin/passkeys/${theirId}/revoke`, session)).status).toBe(404);
    expect((await post(`/api/admin/passkeys/${desk.id}/revoke`, session)).status).toBe(200);
    expect((await get('/api/admin/passkeys', session)).body.passkeys).toEqual([]);
    // The owner sees and revokes another admin's passkeys.
    expect((await get('/api/admin/admins/victim/passkeys', session)).body.passkeys).toHaveLength(1);
    expect((await post('/api/admin/admins/victim/passkeys/revoke', session).send({})).body).toEqual({ name: 'victim', revoked: 1 });
    expect((await post('/api/admin/admins/victim/passkeys/revoke', session).send({})).status).toBe(404);
    // The CLI's list and revoke.
    expect((await ops('admin', 'passkeys', 'victim')).out).toMatch(/no passkey/);
    expect((await ops('admin', 'revoke-passkeys', 'victim')).code).toBe(2);
  });

  it('a disabled admin can be enabled again (CLI and console), audited', async () => {
    expect((await ops('admin', 'disable', 'victim')).code).toBe(0);
    expect((await post('/api/admin/signin/totp').send({ name: 'victim', code: code('victim') })).status).toBe(401);
    const enabled = await ops('admin', 'enable', 'victim');
    expect(enabled.code, enabled.err).toBe(0);
    expect((await ops('admin', 'enable', 'victim')).code).toBe(1);
    await signIn('victim');
    const session = await signIn('chief');
    await confirm('chief', session);
    expect((await post('/api/admin/admins/victim/disable', session)).status).toBe(200);
    expect((await post('/api/admin/admins/victim/enable', session)).body).toEqual({ name: 'victim' });
    expect((await post('/api/admin/admins/victim/email', session).send({ email: 'a@b.c\r\nBcc: x@y.z' })).status).toBe(400);
    expect((await post('/api/admin/admins/victim/email', session).send({ email: 'victim@example.com' })).status).toBe(200);
    const actions = (await kit.db.knex('admin_audit').where({ target: 'victim' }).pluck('action')) as string[];
    expect(actions.filter((a) => a === 'admin.enable')).toHaveLength(2);
    expect(actions).toContain('admin.email');
  });
});
