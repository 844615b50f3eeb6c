import type { Context, Next } from 'koa';
import { addressBlock } from './client-address';
import { enforceRateLimit, type RateLimiter } from './rate-limit';

/**
 * A per-address limit as route middleware, placed before readBody(): a refused request costs one
 * counter hit, never the read, the JSON parse or a schema's checks (twenty 16 KB payment
 * bodies a minute from one address used to be read and validated before the limit refused them).
 * The key is `{what}:{client address, an IPv6 /64 as one}`, one counter per (limit, window) as enforceRateLimit counts.
 */
export function limitPerAddress(limiter: RateLimiter, what: string, perMinute: number, message?: string) {
  return async function limitFirst(ctx: Context, next: Next): Promise<void> {
    await enforceRateLimit(limiter, `${what}:${addressBlock(ctx.ip)}`, perMinute, 60, message);
    await next();
  };
}
