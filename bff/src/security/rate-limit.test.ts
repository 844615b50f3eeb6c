import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { testLimiters } from '../test/limiters';
import { waitFor } from '../test/redis-server';
import { memoryRateLimiter, redisRateLimiter } from './rate-limit';

const { limiters, close } = testLimiters();
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
    // Another rule counts apart, even for the same key.
    expect(await limiter.hit('login:ip:1.2.3.4', 3, 900)).toBe(true);
  });

  it('gives a hit back (never below zero) and forgets a key (sign-in limits count failures only)', async () => {
    const limiter = make();
    expect(await limiter.hit('login:user:a', 2, 60)).toBe(true);
    expect(await limiter.hit('login:user:a', 2, 60)).toBe(true);
    await limiter.refund('login:user:a', 2, 60);
    expect(await limiter.hit('login:user:a', 2, 60)).toBe(true);
    expect(await limiter.hit('login:user:a', 2, 60)).toBe(false);
    await limiter.reset('login:user:a', 2, 60);
    expect(await limiter.hit('login:user:a', 2, 60)).toBe(true);
    // A refund with nothing counted gives no extra hit.
    await limiter.refund('login:user:b', 2, 60);
    await limiter.refund('login:user:b', 2, 60);
    expect([
      await limiter.hit('login:user:b', 2, 60),
      await limiter.hit('login:user:b', 2, 60),
      await limiter.hit('login:user:b', 2, 60),
    ]).toEqual([true, true, false]);
  });

  it('opens the window afresh once it ends', async () => {
    const limiter = make();
    expect(await limiter.hit('login:user:owner', 1, 2)).toBe(true);
    expect(await limiter.hit('login:user:owner', 1, 2)).toBe(false);
    await waitFor(() => limiter.hit('login:user:owner', 1, 2), 'the 2-second window to end');
  });
});

describe('rate limiter windows', () => {
  it('keep a 15-minute window closed to its end (in-process, on a moved clock)', async () => {
    const start = Date.UTC(2026, 0, 1, 12, 0, 0);
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    try {
      const limiter = memoryRateLimiter();
      for (let i = 0; i < 3; i += 1) expect(await limiter.hit('login:user:owner', 3, 900)).toBe(true);
      expect(await limiter.hit('login:user:owner', 3, 900)).toBe(false);
      vi.setSystemTime(start + 899_000);
      expect(await limiter.hit('login:user:owner', 3, 900)).toBe(false);
      vi.setSystemTime(start + 900_000);
      expect(await limiter.hit('login:user:owner', 3, 900)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('rate limiter without Redis', () => {
  it('falls back to the process when Redis does not answer', async () => {
    const redis = new Redis('redis://127.0.0.1:1', {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    redis.on('error', () => {});
    clients.push(redis);
    const limiter = redisRateLimiter(redis, 'test:');
    expect(await limiter.hit('k', 1, 60)).toBe(true);
    expect(await limiter.hit('k', 1, 60)).toBe(false);
  });
});
