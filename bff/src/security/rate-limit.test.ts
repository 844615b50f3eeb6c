import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { testRedisUrl } from '@media-site/db/testing';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from './rate-limit';

const redisUrl = testRedisUrl();
const clients: Redis[] = [];
afterAll(() => clients.forEach((c) => c.disconnect()));

const limiters: [string, () => RateLimiter][] = [['memory', () => new MemoryRateLimiter()]];
if (redisUrl) {
  limiters.push([
    'redis',
    () => {
      const redis = new Redis(redisUrl, { maxRetriesPerRequest: 0 });
      clients.push(redis);
      return new RedisRateLimiter(redis, `test:rl:${randomBytes(4).toString('hex')}:`);
    },
  ]);
}

describe.each(limiters)('rate limiter (%s)', (_name, make) => {
  it('allows `limit` hits per window and key, then refuses', async () => {
    const limiter = make();
    const results = [];
    for (let i = 0; i < 4; i += 1) results.push(await limiter.hit('login:ip:1.2.3.4', 3, 60));
    expect(results).toEqual([true, true, true, false]);
    expect(await limiter.hit('login:ip:5.6.7.8', 3, 60)).toBe(true);
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
