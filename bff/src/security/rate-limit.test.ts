import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { testLimiters } from '../test/limiters';
import { RedisRateLimiter } from './rate-limit';

// A clock the tests move; it starts on a 15-minute boundary (Redis windows are aligned to the clock).
let clock = Date.UTC(2026, 0, 1, 12, 0, 0);
const { limiters, close } = testLimiters(() => clock);
const clients: Redis[] = [];
afterAll(() => {
  close();
  clients.forEach((c) => c.disconnect());
});

describe.each(limiters)('rate limiter (%s)', (_name, make) => {
  it('allows `limit` hits per window and key, then refuses', async () => {
    const limiter = make();
    const results = [];
    for (let i = 0; i < 4; i += 1) results.push(await limiter.hit('login:ip:1.2.3.4', 3, 60));
    expect(results).toEqual([true, true, true, false]);
    expect(await limiter.hit('login:ip:5.6.7.8', 3, 60)).toBe(true);
  });

  it('keeps a longer window closed to its end, then starts afresh', async () => {
    const limiter = make();
    const start = clock;
    for (let i = 0; i < 3; i += 1) expect(await limiter.hit('login:user:owner', 3, 900)).toBe(true);
    expect(await limiter.hit('login:user:owner', 3, 900)).toBe(false);
    clock = start + 899_000;
    expect(await limiter.hit('login:user:owner', 3, 900)).toBe(false);
    clock = start + 900_000;
    expect(await limiter.hit('login:user:owner', 3, 900)).toBe(true);
  });
});

describe('rate limiter without Redis', () => {
  it('falls back to the process when Redis does not answer', async () => {
    const redis = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 0, enableOfflineQueue: false, lazyConnect: true, retryStrategy: () => null });
    redis.on('error', () => {});
    clients.push(redis);
    const limiter = new RedisRateLimiter(redis, 'test:');
    expect(await limiter.hit('k', 1, 60)).toBe(true);
    expect(await limiter.hit('k', 1, 60)).toBe(false);
  });
});
