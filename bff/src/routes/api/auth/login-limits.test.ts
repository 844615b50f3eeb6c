import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { runOpsCommand } from '@media-site/ops/cli';
import { hashesInFlight, hashLogNFromEnv, PRODUCTION_LOG_N, setHashLogN, setHashQueueLimits } from '@media-site/db/members';
import { createLoginChallenge } from '../../../security/altcha';
import { testLimiters } from '../../../test/limiters';
import { ORIGIN, startAccountKit, type AccountKit } from '../../../test/account-kit';

// Ten wrong passwords from anywhere used to lock the owner out. Now: per address, per
// (address, username), per known device, and one budget per username for unknown browsers, which
// bounds guessing from any number of addresses without touching the owner's own browser.
// The budgets count failures only, and past one a sign-in needs a proof of work (ALTCHA)
// instead of a 429, so the owner can always get in from a new browser.
// Windows open with a key's first hit and last 15 minutes: none ends in the middle of a test.
const { limiters, close } = testLimiters();
afterAll(close);

const PER_ACCOUNT = 4;
const PER_ADDRESS_MINUTE = 6;

describe.each(limiters)('sign-in limits (%s)', (_name, makeLimiter) => {
  let kit: AccountKit;
  beforeAll(async () => {
    kit = await startAccountKit(
      'sqlite',
      { RATE_LIMIT_LOGIN_PER_MINUTE: String(PER_ADDRESS_MINUTE), RATE_LIMIT_LOGIN_PER_ACCOUNT: String(PER_ACCOUNT) },
      {},
      { limiter: makeLimiter() },
    );
    const configured = hashLogNFromEnv();
    for (const username of ['owner', 'owner_b', 'owner_c', 'owner_d', 'owner_e', 'owner_f', 'owner_g', 'someone']) {
      // owner_g's hash at the production cost: the queue test needs its checks to stay in flight.
      setHashLogN(username === 'owner_g' ? PRODUCTION_LOG_N : configured);
      const code = await runOpsCommand(['member', 'add', username, '--password', 'correct horse'], {
        env: {},
        knex: kit.db.knex,
        out: () => {},
        err: () => {},
      });
      expect(code).toBe(0);
    }
    setHashLogN(configured);
  });
  afterAll(() => kit?.close());

  const login = (username: string, password: string, from: string, cookie?: string, altcha?: string) =>
    kit.request
      .post('/api/login')
      .set({ Origin: ORIGIN, 'X-Forwarded-For': from, ...(cookie ? { Cookie: cookie } : {}) })
      .send({ username, password, ...(altcha === undefined ? {} : { altcha }) });
  /** What the widget does: fetch a challenge, solve it, post the payload as base64 JSON. */
  const solve = async (challenge: Challenge) => {
    const solution = await solveChallenge({ challenge, deriveKey });
    if (!solution) throw new Error('no solution');
    return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  };
  const proof = async (from: string) => {
    const res = await kit.request.get('/api/login-challenge').set({ 'X-Forwarded-For': from });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return solve(res.body as Challenge);
  };
  const deviceOf = (res: { headers: Record<string, unknown> }) => {
    // Lenient, so that a missing cookie shows as the lock-out it causes.
    return (
      ([] as string[]).concat((res.headers['set-cookie'] as string[] | undefined) ?? []).find((c) => c.startsWith('login_device=')) ?? ''
    );
  };
  const cookieValue = (set: string) => set.split(';')[0] ?? '';

  it('successful sign-ins from new browsers spend no budget: the owner is never locked out by signing in', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= PER_ACCOUNT * 2 + 1; i += 1) statuses.push((await login('owner_e', 'correct horse', `192.0.2.${i}`)).status);
    expect(statuses).toEqual(Array<number>(PER_ACCOUNT * 2 + 1).fill(200));
  });

  it('an attacker spraying the owner from many addresses cannot lock the owner out, and past the budget every guess needs a proof of work', async () => {
    const first = await login('owner', 'correct horse', '203.0.113.10');
    expect(first.status).toBe(200);
    const device = cookieValue(deviceOf(first));

    const statuses: number[] = [];
    for (let i = 1; i <= 30; i += 1) statuses.push((await login('owner', `guess number ${i}`, `198.51.100.${i}`)).status);
    // The owner's browser, at home or anywhere else.
    expect((await login('owner', 'correct horse', '203.0.113.10', device)).status).toBe(200);
    expect((await login('owner', 'correct horse', '192.0.2.77', device)).status).toBe(200);

    // The owner's own first sign-in succeeded: it spent nothing.
    expect(statuses).toEqual([...Array<number>(PER_ACCOUNT).fill(401), ...Array<number>(30 - PER_ACCOUNT).fill(403)]);
    const guessedRight = await login('owner', 'correct horse', '198.51.100.201');
    expect(guessedRight.status).toBe(403);
    expect(guessedRight.body.error.code).toBe('challenge_required');
    expect(guessedRight.body.error.message).toMatch(/confirm you are a person/);
    expect(deviceOf(guessedRight)).toBe('');
    expect(deviceOf(first)).toMatch(/; path=\/api\/login; expires=[^;]+; samesite=lax; httponly$/i);
    // Other accounts are untouched, from the attacker's addresses too.
    expect((await login('someone', 'correct horse', '198.51.100.1')).status).toBe(200);
  });

  it('a device cookie counts for its own username only, and only when genuine', async () => {
    const own = cookieValue(deviceOf(await login('someone', 'correct horse', '198.51.100.60')));
    for (let i = 1; i <= PER_ACCOUNT; i += 1) expect((await login('owner_b', 'wrong guess', `198.51.100.${60 + i}`)).status).toBe(401);
    expect((await login('owner_b', 'wrong guess', '198.51.100.70', own)).body.error.code).toBe('challenge_required');
    const forged = own.replace('.someone.', '.owner_b.');
    expect(forged).not.toBe(own);
    expect((await login('owner_b', 'wrong guess', '198.51.100.71', forged)).body.error.code).toBe('challenge_required');
  });

  it('a stolen device cookie buys only that device’s budget', async () => {
    const device = cookieValue(deviceOf(await login('owner_c', 'correct horse', '203.0.113.30')));
    const statuses: number[] = [];
    for (let i = 1; i <= PER_ACCOUNT + 3; i += 1)
      statuses.push((await login('owner_c', 'wrong guess', `198.51.100.${100 + i}`, device)).status);
    expect(statuses).toEqual([...Array<number>(PER_ACCOUNT).fill(401), 403, 403, 403]);
  });

  it('limits one address per username, and per minute across usernames', async () => {
    const device = cookieValue(deviceOf(await login('owner_d', 'correct horse', '203.0.113.40')));
    // Two attempts with the device cookie, one more without, all from one address: the pair's budget is spent...
    expect((await login('owner_d', 'wrong guess', '203.0.113.41', device)).status).toBe(401);
    expect((await login('owner_d', 'wrong guess', '203.0.113.41', device)).status).toBe(401);
    expect((await login('owner_d', 'wrong guess', '203.0.113.41')).status).toBe(401);
    expect((await login('owner_d', 'wrong guess', '203.0.113.41')).status).toBe(401);
    expect((await login('owner_d', 'correct horse', '203.0.113.41', device)).body.error.code).toBe('challenge_required');
    // ...while neither the device's nor the account's budget is: the owner elsewhere is fine.
    expect((await login('owner_d', 'correct horse', '203.0.113.42', device)).status).toBe(200);

    const statuses: number[] = [];
    for (let i = 1; i <= PER_ADDRESS_MINUTE + 2; i += 1) statuses.push((await login(`spray_${i}`, 'wrong guess', '203.0.113.50')).status);
    expect(statuses).toEqual([...Array<number>(PER_ADDRESS_MINUTE).fill(401), 429, 429]);
  });

  it('past the failure budget, a correct password needs a solved challenge; each solution works once and not after expiry', async () => {
    for (let i = 1; i <= PER_ACCOUNT; i += 1) expect((await login('owner_f', 'wrong guess', `198.51.100.${150 + i}`)).status).toBe(401);
    const refused = await login('owner_f', 'correct horse', '192.0.2.150');
    expect([refused.status, refused.body.error.code]).toEqual([403, 'challenge_required']);

    const payload = await proof('192.0.2.150');
    const wrong = await login('owner_f', 'wrong guess', '192.0.2.150', undefined, payload);
    expect(wrong.status).toBe(401);
    // Spent by the wrong guess: the same solution again is refused before any password check.
    const replayed = await login('owner_f', 'correct horse', '192.0.2.151', undefined, payload);
    expect([replayed.status, replayed.body.error.code]).toEqual([403, 'challenge_required']);
    expect(replayed.body.error.message).toMatch(/already used/);

    const fresh = await login('owner_f', 'correct horse', '192.0.2.151', undefined, await proof('192.0.2.151'));
    expect(fresh.status).toBe(200);
    expect(fresh.body.username).toBe('owner_f');
    // The new browser is a known device now: no proof needed there.
    expect((await login('owner_f', 'correct horse', '192.0.2.151', cookieValue(deviceOf(fresh)))).status).toBe(200);

    // A challenge made ten minutes ago (lifetime five), solved in time, arrives too late.
    const old = await solve(await createLoginChallenge(kit.deps.settings.signinKeys, Date.now() - 10 * 60_000));
    const late = await login('owner_f', 'correct horse', '192.0.2.152', undefined, old);
    expect([late.status, late.body.error.message]).toEqual([403, expect.stringMatching(/expired/)]);
    // Altered (another key than the work found), not ours, or not a payload at all.
    const altered = JSON.parse(Buffer.from(await proof('192.0.2.152'), 'base64').toString()) as { solution: { derivedKey: string } };
    altered.solution.derivedKey = altered.solution.derivedKey.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const forged = Buffer.from(JSON.stringify(altered)).toString('base64');
    for (const bad of [forged, 'bm90IGpzb24=', '', 'x'.repeat(4096)]) {
      const res = await login('owner_f', 'correct horse', '192.0.2.153', undefined, bad);
      expect([res.status, res.body.error?.code]).toEqual([403, 'challenge_required']);
    }
    // Bad input is a 400, not a 500.
    expect((await login('owner_f', 'correct horse', '192.0.2.153', undefined, 'x'.repeat(4097))).status).toBe(400);
  });

  it('the hashing queue answers 503 at once when full, per address and for the process', async () => {
    setHashQueueLimits({ max: 3, perOwner: 2 });
    try {
      // supertest sends on then(): start two without waiting for them.
      const two = [
        login('owner_g', 'wrong guess', '192.0.2.200').then((r) => r),
        login('owner_g', 'wrong guess', '192.0.2.200').then((r) => r),
      ];
      await expect.poll(hashesInFlight, { interval: 5 }).toBe(2);
      const third = await login('owner_g', 'wrong guess', '192.0.2.200');
      // Answered while the other two still hash: nobody waited behind them.
      expect(hashesInFlight()).toBe(2);
      expect([third.status, third.body.error.code, third.headers['retry-after']]).toEqual([503, 'busy', '1']);
      const other = login('owner_g', 'wrong guess', '192.0.2.201').then((r) => r);
      await expect.poll(hashesInFlight, { interval: 5 }).toBe(3);
      expect((await login('owner_g', 'correct horse', '192.0.2.202')).status).toBe(503);
      expect((await Promise.all([...two, other])).map((r) => r.status)).toEqual([401, 401, 401]);
      // Refused attempts spent no budget: the owner signs in with neither proof nor wait.
      expect((await login('owner_g', 'correct horse', '192.0.2.202')).status).toBe(200);
    } finally {
      setHashQueueLimits({ max: 8, perOwner: 2 });
    }
  });
});
