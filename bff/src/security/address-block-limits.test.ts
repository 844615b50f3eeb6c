import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, startAccountKit, type AccountKit } from '../test/account-kit';

// Every per-address budget of the bff counts an IPv6 /64 as one client (addressBlock).
// The kit's peer is loopback, a trusted proxy by default, so X-Forwarded-For names the client.
const PER_MINUTE = 3;
const SAME_64 = ['2001:db8:7:8::1', '2001:db8:7:8::2', '2001:db8:7:8:ffff::3', '2001:db8:7:8:1:2:3:4'];

describe('per-address limits group IPv6 by /64', () => {
  let kit: AccountKit;
  beforeAll(async () => {
    kit = await startAccountKit('sqlite', {
      RATE_LIMIT_USERNAME_PER_MINUTE: String(PER_MINUTE),
      RATE_LIMIT_PAYMENT_PER_MINUTE: String(PER_MINUTE),
      RATE_LIMIT_LOGIN_PER_MINUTE: String(PER_MINUTE),
    });
  });
  afterAll(() => kit?.close());

  const calls = {
    'username checks': (from: string, i: number) =>
      kit.request
        .get('/api/username-available')
        .query({ u: `probe_${i}` })
        .set('X-Forwarded-For', from),
    'payment steps': (from: string, i: number) =>
      kit.request
        .post('/api/get_ccbill_token')
        .set({ Origin: ORIGIN, 'X-Forwarded-For': from })
        .send({ username: `payer_${i}`, password: 'correct horse' }),
    'sign-in': (from: string, i: number) =>
      kit.request
        .post('/api/login')
        .set({ Origin: ORIGIN, 'X-Forwarded-For': from })
        .send({ username: `nobody_${i}`, password: 'wrong password' }),
  };

  it.each(Object.entries(calls))('%s: four addresses of one /64 share one budget; another /64 has its own', async (_name, call) => {
    const statuses: number[] = [];
    for (const [i, from] of SAME_64.entries()) statuses.push((await call(from, i)).status);
    expect(statuses.slice(0, PER_MINUTE)).not.toContain(429);
    expect(statuses[PER_MINUTE]).toBe(429);
    expect((await call('2001:db8:7:9::1', 9)).status).not.toBe(429);
  });
});
