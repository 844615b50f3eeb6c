import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCatalogCommand } from '@media-site/db/cli';
import { testLimiters } from '../../../test/limiters';
import { ORIGIN, startAccountKit, type AccountKit } from '../payments/test-kit';

// issue 11: ten wrong passwords from anywhere locked the owner out. Now: per address, per
// (address, username), per known device, and one budget per username for unknown browsers, which
// bounds guessing from any number of addresses without touching the owner's own browser.
// Windows open with a key's first hit and last 15 minutes: none ends in the middle of a test.
const { limiters, close } = testLimiters();
afterAll(close);

const PER_ACCOUNT = 4;
const PER_ADDRESS_MINUTE = 6;

describe.each(limiters)('sign-in limits (%s)', (_name, makeLimiter) => {
  let kit: AccountKit;
  beforeAll(async () => {
    kit = await startAccountKit('sqlite', { RATE_LIMIT_LOGIN_PER_MINUTE: String(PER_ADDRESS_MINUTE), RATE_LIMIT_LOGIN_PER_ACCOUNT: String(PER_ACCOUNT) }, {}, { limiter: makeLimiter() });
    for (const username of ['owner', 'owner_b', 'owner_c', 'owner_d', 'someone']) {
      const code = await runCatalogCommand(['member', 'add', username, '--password', 'correct horse'], { env: {}, knex: kit.db.knex, out: () => {}, err: () => {} });
      expect(code).toBe(0);
    }
  });
  afterAll(() => kit?.close());

  const login = (username: string, password: string, from: string, cookie?: string) =>
    kit.request
      .post('/api/login')
      .set({ Origin: ORIGIN, 'X-Forwarded-For': from, ...(cookie ? { Cookie: cookie } : {}) })
      .send({ username, password });
  const deviceOf = (res: { headers: Record<string, unknown> }) => {
    // Lenient, so that a missing cookie shows as the lock-out it causes.
    return ([] as string[]).concat((res.headers['set-cookie'] as string[] | undefined) ?? []).find((c) => c.startsWith('login_device=')) ?? '';
  };
  const cookieValue = (set: string) => set.split(';')[0] ?? '';

  it('an attacker spraying the owner from many addresses cannot lock the owner out, and the right guess gets them nothing', async () => {
    const first = await login('owner', 'correct horse', '203.0.113.10');
    expect(first.status).toBe(200);
    const device = cookieValue(deviceOf(first));

    const statuses: number[] = [];
    for (let i = 1; i <= 30; i += 1) statuses.push((await login('owner', `guess number ${i}`, `198.51.100.${i}`)).status);
    // The owner's browser, at home or anywhere else.
    expect((await login('owner', 'correct horse', '203.0.113.10', device)).status).toBe(200);
    expect((await login('owner', 'correct horse', '192.0.2.77', device)).status).toBe(200);

    // The owner's own first sign-in came from an unknown browser too: the budget had PER_ACCOUNT - 1 left.
    expect(statuses).toEqual([...Array<number>(PER_ACCOUNT - 1).fill(401), ...Array<number>(30 - PER_ACCOUNT + 1).fill(429)]);
    const guessedRight = await login('owner', 'correct horse', '198.51.100.201');
    expect(guessedRight.status).toBe(429);
    expect(guessedRight.body.error.code).toBe('rate_limited');
    expect(deviceOf(first)).toMatch(/; path=\/api\/login; expires=[^;]+; samesite=lax; httponly$/i);
    // Other accounts are untouched, from the attacker's addresses too.
    expect((await login('someone', 'correct horse', '198.51.100.1')).status).toBe(200);
  });

  it('a device cookie counts for its own username only, and only when genuine', async () => {
    const own = cookieValue(deviceOf(await login('someone', 'correct horse', '198.51.100.60')));
    for (let i = 1; i <= PER_ACCOUNT; i += 1) expect((await login('owner_b', 'wrong guess', `198.51.100.${60 + i}`)).status).toBe(401);
    expect((await login('owner_b', 'wrong guess', '198.51.100.70', own)).status).toBe(429);
    const forged = own.replace('.someone.', '.owner_b.');
    expect(forged).not.toBe(own);
    expect((await login('owner_b', 'wrong guess', '198.51.100.71', forged)).status).toBe(429);
  });

  it('a stolen device cookie buys only that device’s budget', async () => {
    const device = cookieValue(deviceOf(await login('owner_c', 'correct horse', '203.0.113.30')));
    const statuses: number[] = [];
    for (let i = 1; i <= PER_ACCOUNT + 3; i += 1) statuses.push((await login('owner_c', 'wrong guess', `198.51.100.${100 + i}`, device)).status);
    expect(statuses).toEqual([...Array<number>(PER_ACCOUNT).fill(401), 429, 429, 429]);
  });

  it('limits one address per username, and per minute across usernames', async () => {
    const device = cookieValue(deviceOf(await login('owner_d', 'correct horse', '203.0.113.40')));
    // Two attempts with the device cookie, one more without, all from one address: the pair's budget is spent...
    expect((await login('owner_d', 'wrong guess', '203.0.113.41', device)).status).toBe(401);
    expect((await login('owner_d', 'wrong guess', '203.0.113.41', device)).status).toBe(401);
    expect((await login('owner_d', 'wrong guess', '203.0.113.41')).status).toBe(401);
    expect((await login('owner_d', 'wrong guess', '203.0.113.41')).status).toBe(401);
    expect((await login('owner_d', 'correct horse', '203.0.113.41', device)).status).toBe(429);
    // ...while neither the device's nor the account's budget is: the owner elsewhere is fine.
    expect((await login('owner_d', 'correct horse', '203.0.113.42', device)).status).toBe(200);

    const statuses: number[] = [];
    for (let i = 1; i <= PER_ADDRESS_MINUTE + 2; i += 1) statuses.push((await login(`spray_${i}`, 'wrong guess', '203.0.113.50')).status);
    expect(statuses).toEqual([...Array<number>(PER_ADDRESS_MINUTE).fill(401), 429, 429]);
  });
});
