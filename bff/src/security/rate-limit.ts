import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimitedError } from '../errors';

export interface RateLimiter {
  /** Counts one hit; false once `limit` hits arrived in the current window. */
  hit(key: string, limit: number, windowSeconds: number): Promise<boolean>;
  /** Gives one hit back in the current window (never below zero): an attempt that should not count. */
  refund(key: string, limit: number, windowSeconds: number): Promise<void>;
  /** Forgets the key's count under this rule. */
  reset(key: string, limit: number, windowSeconds: number): Promise<void>;
}

/**
 * Fixed windows by rate-limiter-flexible: a window opens with a key's first hit and lasts
 * `windowSeconds`. One limiter per (limit, window) rule, made on first use.
 */
class FlexibleRateLimiter implements RateLimiter {
  private readonly rules = new Map<string, RateLimiterAbstract>();

  constructor(private readonly make: (points: number, duration: number, keyPrefix: string) => RateLimiterAbstract) {}

  private rule(limit: number, windowSeconds: number): RateLimiterAbstract {
    const rule = `${limit}/${windowSeconds}`;
    let limiter = this.rules.get(rule);
    if (!limiter) {
      limiter = this.make(limit, windowSeconds, `rl:${rule}`);
      this.rules.set(rule, limiter);
    }
    return limiter;
  }

  async refund(key: string, limit: number, windowSeconds: number): Promise<void> {
    const limiter = this.rule(limit, windowSeconds);
    // Only inside a live window: a reward on an expired key would open a window below zero, an
    // extra attempt. Best effort (an unrefunded hit errs on the strict side), so failures are dropped.
    try {
      const res = await limiter.get(key);
      if (res && res.consumedPoints > 0) await limiter.reward(key, 1);
    } catch {
      /* the store is away: the hit stays counted */
    }
  }

  async reset(key: string, limit: number, windowSeconds: number): Promise<void> {
    try {
      await this.rule(limit, windowSeconds).delete(key);
    } catch {
      /* the store is away: the count stays until its window ends */
    }
  }

  async hit(key: string, limit: number, windowSeconds: number): Promise<boolean> {
    const limiter = this.rule(limit, windowSeconds);
    try {
      await limiter.consume(key);
      return true;
    } catch (refused) {
      if (refused instanceof RateLimiterRes) return false;
      throw refused;
    }
  }
}

/** In process memory: the embedded default. */
export function memoryRateLimiter(): RateLimiter {
  return new FlexibleRateLimiter((points, duration, keyPrefix) => new RateLimiterMemory({ points, duration, keyPrefix }));
}

/**
 * Shared across bff instances through Redis (`{prefix}rl:{limit}/{window}:{key}`); while Redis is not
 * ready or a command fails, the same rule counts in this process instead (rate-limiter-flexible's
 * insurance limiter), so an outage neither blocks sign-in nor lifts the limits.
 */
export function redisRateLimiter(redis: Redis, prefix: string): RateLimiter {
  return new FlexibleRateLimiter(
    (points, duration, keyPrefix) =>
      new RateLimiterRedis({
        storeClient: redis,
        points,
        duration,
        keyPrefix: `${prefix}${keyPrefix}`,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory({ points, duration, keyPrefix }),
      }),
  );
}

/** Throws 429 once `key` exceeded `limit` hits in the current window (a minute unless told). */
export async function enforceRateLimit(
  limiter: RateLimiter,
  key: string,
  limit: number,
  windowSeconds = 60,
  message = 'too many attempts, wait a minute and try again',
): Promise<void> {
  if (!(await limiter.hit(key, limit, windowSeconds))) throw new RateLimitedError(message);
}
