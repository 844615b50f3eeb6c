import type { Redis } from 'ioredis';
import { RateLimitedError } from '../errors';

export interface RateLimiter {
  /** Counts one hit; false once `limit` hits arrived in the current window. */
  hit(key: string, limit: number, windowSeconds: number): Promise<boolean>;
}

/** Fixed windows in process memory: the embedded default, and the fallback when Redis fails. */
export class MemoryRateLimiter implements RateLimiter {
  private windows = new Map<string, { count: number; endsAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async hit(key: string, limit: number, windowSeconds: number): Promise<boolean> {
    const now = this.now();
    if (this.windows.size > 100_000) for (const [k, w] of this.windows) if (w.endsAt <= now) this.windows.delete(k);
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { count: 0, endsAt: now + windowSeconds * 1000 };
      this.windows.set(key, window);
    }
    window.count += 1;
    return window.count <= limit;
  }
}

/** Shared across bff instances through Redis; if Redis does not answer, limits per process instead. */
export class RedisRateLimiter implements RateLimiter {
  private readonly fallback: MemoryRateLimiter;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly now: () => number = Date.now,
  ) {
    this.fallback = new MemoryRateLimiter(now);
  }

  async hit(key: string, limit: number, windowSeconds: number): Promise<boolean> {
    const redisKey = `${this.prefix}rl:${key}:${Math.floor(this.now() / 1000 / windowSeconds)}`;
    try {
      const result = await this.redis.multi().incr(redisKey).expire(redisKey, windowSeconds + 1).exec();
      const count = Number(result?.[0]?.[1]);
      if (!Number.isFinite(count)) throw new Error('no count');
      return count <= limit;
    } catch {
      return this.fallback.hit(key, limit, windowSeconds);
    }
  }
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
