import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { runOpsCaptured } from '@media-site/ops/cli';
import { totpCode } from '@media-site/db/admin';
import { testBackends } from '@media-site/db/testing';
import { ORIGIN, startAccountKit, type AccountKit } from '../../../test/account-kit';
import { cookieHeader, setCookies } from '../../../test/cookies';
import { assertion, attestation, softAuthenticator } from '../../../test/webauthn';

// Wrong console codes lock nobody out: anyone who knows an admin's name could otherwise keep that
// admin (the owner included) out for good. Budgets per address and per browser, a proof of work
// past them, a daily ceiling for browsers the name never signed in from, and passkeys untouched.

const RP_ID = '127.0.0.1';
const FREE_FAILURES = 5;
const NEW_BROWSER_PER_DAY = 12;

describe.each(testBackends())('console sign-in: wrong codes lock nobody out (%s)', (backend) => {
  let kit: AccountKit;
  const secrets = new Map<string, string>();
  let clock = 0;
  const ops = (...argv: string[]) => runOpsCaptured(argv, { env: { USER: 'tester' }, knex: kit.db.knex, now: () => kit.deps.now() });
  /** Each good code below is a fresh TOTP step. */
  const tick = () => kit.setClockAhead((clock += 60_000));
  const post = (path: string, from: string, cookie = '') =>
    kit.request.post(path).set({ Origin: ORIGIN, 'X-Forwarded-For': from, ...(cookie ? { Cookie: cookie } : {}) });
  const code = (name: string) => totpCode(secrets.get(name)!, kit.deps.now());
  function wrongCode(name: string): string {
    const good = new Set([-1, 0, 1].map((d) => totpCode(secrets.get(name)!, kit.deps.now() + d * 30_000)));
    for (let n = 0; ; n += 1) if (!good.has(String(n).padStart(6, '0'))) return String(n).padStart(6, '0');
  }
  const signInWithCode = (name: string, from: string, c: string, cookie = '', altcha?: string) =>
    post('/api/admin/signin/totp', from, cookie).send({ name, code: c, ...(altcha ? { altcha } : {}) });
  async function proof(from: string): Promise<string> {
    const res = await kit.request.get('/api/login-challenge').set({ 'X-Forwarded-For': from });
    const challenge = res.body as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  }
  const cookiesOf = (res: { headers: Record<string, unknown> }, name: string) =>
    cookieHeader(setCookies(res).filter((c) => c.startsWith(`${name}=`)));
  const audit = async (action: string, target: string) =>
    (await kit.db.knex('admin_audit').where({ action, target }).orderBy('id').select('after_json', 'address')) as {
      after_json: string;
      address: string;
    }[];

  beforeAll(async () => {
    kit = await startAccountKit(backend, {
      RATE_LIMIT_ADMIN_SIGNIN_PER_MINUTE: '1000',
      ADMIN_SIGNIN_FAILURES: String(FREE_FAILURES),
      ADMIN_SIGNIN_NEW_BROWSER_FAILURES_PER_DAY: String(NEW_BROWSER_PER_DAY),
    });
    for (const [name, role] of [
      ['owner_a', 'owner'],
      ['owner_b', 'owner'],
      ['mod_c', 'moderator'],
      ['gone_d', 'support'],
    ] as const) {
      const added = await ops('admin', 'add', name, '--role', role);
      expect(added.code, added.err).toBe(0);
      secrets.set(name, /secret: (\S+)/.exec(added.out)?.[1] ?? '');
    }
  });
  afterAll(() => kit?.close());

  it("an attacker's wrong codes for the owner's name do not stop the owner's code (known or new browser) or passkey", async () => {
    // The owner signs in once from their browser (it becomes a known one), confirms, adds a passkey.
    tick();
    const first = await signInWithCode('owner_a', '10.0.0.2', code('owner_a'));
    expect(first.status).toBe(200);
    const device = cookiesOf(first, 'admin_device');
    expect(setCookies(first).find((c) => c.startsWith('admin_device='))).toMatch(/path=\/api\/admin\/signin.*httponly/i);
    const session = cookiesOf(first, 'admin_sid');
    tick();
    expect((await post('/api/admin/confirm/totp', '10.0.0.2', session).send({ code: code('owner_a') })).status).toBe(200);
    const key = softAuthenticator();
    const options = await post('/api/admin/passkeys/options', '10.0.0.2', session).send({});
    expect(options.status).toBe(200);
    const registration = attestation(key, { challenge: options.body.challenge, origin: ORIGIN, rpId: RP_ID });
    expect((await post('/api/admin/passkeys/verify', '10.0.0.2', session).send({ response: registration })).status).toBe(201);

    // Five wrong codes from one address: each a plain refusal, never a lock.
    for (let i = 0; i < FREE_FAILURES; i += 1)
      expect((await signInWithCode('owner_a', '203.0.113.9', wrongCode('owner_a'))).status).toBe(401);
    const sixth = await signInWithCode('owner_a', '203.0.113.9', wrongCode('owner_a'));
    expect(sixth.status).toBe(403);
    expect(sixth.body.error.code).toBe('challenge_required');

    // The owner's own browser: straight in.
    tick();
    const known = await signInWithCode('owner_a', '10.0.0.2', code('owner_a'), device);
    expect(known.status).toBe(200);
    // A new browser: the unknown-browser budget is spent, so a proof of work, then in.
    tick();
    const fresh = code('owner_a');
    const asked = await signInWithCode('owner_a', '198.51.100.4', fresh);
    expect(asked.status).toBe(403);
    expect(asked.body.error.code).toBe('challenge_required');
    expect((await signInWithCode('owner_a', '198.51.100.4', fresh, '', await proof('198.51.100.4'))).status).toBe(200);
    // A passkey: never asked for anything because of codes.
    const opts = await post('/api/admin/signin/passkey/options', '198.51.100.5').send({});
    const response = assertion(key, { challenge: opts.body.challenge, origin: ORIGIN, rpId: RP_ID, userVerified: true });
    const byPasskey = await post('/api/admin/signin/passkey/verify', '198.51.100.5').send({ response });
    expect(byPasskey.status).toBe(200);
    expect(byPasskey.body).toEqual({ name: 'owner_a', role: 'owner' });
    // Every wrong code is in the audit log, from where it came.
    const failed = await audit('admin.signin_failed', 'owner_a');
    expect(failed.filter((r) => r.address === '203.0.113.9')).toHaveLength(FREE_FAILURES);
  });

  it('past the daily ceiling new browsers get no more codes for that name; its known browser and other names still do', async () => {
    tick();
    const first = await signInWithCode('owner_b', '10.0.1.2', code('owner_b'));
    expect(first.status).toBe(200);
    const device = cookiesOf(first, 'admin_device');
    // Guessers from many addresses, each solving the proof of work once its budget is spent.
    let spent = 0;
    for (let i = 0; spent < NEW_BROWSER_PER_DAY; i += 1) {
      const from = `192.0.2.${i + 1}`;
      let res = await signInWithCode('owner_b', from, wrongCode('owner_b'));
      if (res.status === 403) res = await signInWithCode('owner_b', from, wrongCode('owner_b'), '', await proof(from));
      expect(res.status).toBe(401);
      spent += 1;
    }
    tick();
    const refused = await signInWithCode('owner_b', '192.0.2.200', code('owner_b'), '', await proof('192.0.2.200'));
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/passkey, or a browser you signed in from before/);
    // The owner's known browser is not a new one; another admin's name is untouched.
    expect((await signInWithCode('owner_b', '10.0.1.2', code('owner_b'), device)).status).toBe(200);
    tick();
    expect((await signInWithCode('mod_c', '192.0.2.201', code('mod_c'))).status).toBe(200);
  });

  it('a name nobody has (or a disabled admin) is answered like a wrong code, after the same database work, and audited', async () => {
    expect((await ops('admin', 'disable', 'gone_d')).code).toBe(0);
    const queries = async (name: string, c: string) => {
      let count = 0;
      // The sign-in's own queries: the catalog cache's generation poll (catalog_meta) runs on the
      // same pool on its own timer and once landed inside one of these windows under load.
      const onQuery = (query: { sql?: string }) => {
        if (!/catalog_meta/.test(query.sql ?? '')) count += 1;
      };
      kit.db.knex.on('query', onQuery);
      try {
        const res = await signInWithCode(name, '10.9.9.9', c);
        return { status: res.status, body: res.body as unknown, count };
      } finally {
        kit.db.knex.off('query', onQuery);
      }
    };
    const known = await queries('mod_c', wrongCode('mod_c'));
    const unknown = await queries('no_such_admin', '123456');
    const disabled = await queries('gone_d', code('gone_d'));
    expect(unknown).toEqual(known);
    expect(disabled).toEqual(known);
    expect(known.status).toBe(401);
    expect((await audit('admin.signin_failed', 'no_such_admin')).map((r) => JSON.parse(r.after_json))).toEqual([
      { method: 'totp', known: false },
    ]);
    expect(await audit('admin.signin_failed', 'gone_d')).toHaveLength(1);
  });

  it('two requests racing with the same good code give one session', async () => {
    tick();
    const c = code('mod_c');
    const both = await Promise.all([signInWithCode('mod_c', '10.7.7.1', c), signInWithCode('mod_c', '10.7.7.2', c)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 401]);
  });
});
