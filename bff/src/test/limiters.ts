import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { testRedisUrl } from '@media-site/db/testing';
import { memoryRateLimiter, redisRateLimiter, type RateLimiter } from '../security/rate-limit';

/**
 * The rate limiters a test runs against: in-process always, Redis when REDIS_URL is set (each under
 * a key prefix of its own). Windows run on the real clock (Redis keeps them); tests that need a
 * window to end use short ones.
 */
export function testLimiters(): { limiters: [string, () => RateLimiter][]; close(): void } {
  const redisUrl = testRedisUrl();
  const clients: Redis[] = [];
  const limiters: [string, () => RateLimiter][] = [['in-process', () => memoryRateLimiter()]];
  if (redisUrl) {
    limiters.push([
      'redis',
      () => {
        const redis = new Redis(redisUrl, { maxRetriesPerRequest: 0 });
        clients.push(redis);
        return redisRateLimiter(redis, `test:rl:${randomBytes(4).toString('hex')}:`);
      },
    ]);
  }
  return { limiters, close: () => clients.forEach((c) => c.disconnect()) };
}
