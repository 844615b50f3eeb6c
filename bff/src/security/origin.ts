import type { Context, Next } from 'koa';
import { ForbiddenError } from '../errors';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

function hostnameOf(value: string): string | undefined {
  try {
    return new URL(value).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Cross-site request forgery guard for state-changing requests: the Origin (or, failing that, the
 * Referer) must be the site itself or a configured origin. Ports are not compared: the front door
 * rewrites Host without one, and cookies are not port-bound anyway.
 */
export function requireSameOrigin(allowedOrigins: readonly string[]) {
  return async function checkOrigin(ctx: Context, next: Next): Promise<void> {
    if (!SAFE.has(ctx.method)) {
      if (ctx.get('Sec-Fetch-Site') === 'cross-site') throw new ForbiddenError('cross-site request refused');
      const origin = ctx.get('Origin') || ctx.get('Referer');
      const allowed =
        origin !== '' &&
        origin !== 'null' &&
        (allowedOrigins.some((o) => origin === o || origin.startsWith(`${o}/`)) || hostnameOf(origin) === ctx.hostname.toLowerCase());
      if (!allowed) throw new ForbiddenError('request origin not allowed');
    }
    await next();
  };
}
