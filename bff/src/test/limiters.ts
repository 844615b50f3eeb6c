import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { testRedisUrl } from '@media-site/db/testing';
import { MemoryRateLimiter, RedisRateLimiter, type RateLimiter } from '../security/rate-limit';

/**
 * The rate limiters a test runs against: in-process always, Redis when REDIS_URL is set (each under
 * a key prefix of its own). `now`: a clock for both (a fixed one keeps windows from rolling over).
 */
export function testLimiters(now: () => number = Date.now): { limiters: [string, () => RateLimiter][]; close(): void } {
  const redisUrl = testRedisUrl();
  const clients: Redis[] = [];
  const limiters: [string, () => RateLimiter][] = [['in-process', () => new MemoryRateLimiter(now)]];
  if (redisUrl) {
    limiters.push([
      'redis',
      () => {
        const redis = new Redis(redisUrl, { maxRetriesPerRequest: 0 });
        clients.push(redis);
        return new RedisRateLimiter(redis, `test:rl:${randomBytes(4).toString('hex')}:`, now);
      },
    ]);
  }
  return { limiters, close: () => clients.forEach((c) => c.disconnect()) };
}
