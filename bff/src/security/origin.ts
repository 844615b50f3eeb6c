import type { Context, Next } from 'koa';
import { ForbiddenError } from '../errors';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `scheme://host[:port]` with the default port dropped, or undefined when `value` is not an http(s) URL. */
export function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The origin the browser is on: the Host it sent (the front door passes it on unchanged, port
 * included) and `ctx.protocol`: https when our socket is TLS or a trusted proxy says so (security/client.ts).
 */
function siteOrigin(ctx: Context): string | undefined {
  const host = ctx.get('Host');
  return host ? originOf(`${ctx.protocol}://${host}`) : undefined;
}

/**
 * Cross-site request forgery guard for state-changing requests: the Origin (or, failing that, the
 * Referer) must be the site itself or a configured origin, compared on scheme, host and port.
 */
export function requireSameOrigin(allowedOrigins: readonly string[]) {
  return async function checkOrigin(ctx: Context, next: Next): Promise<void> {
    if (!SAFE.has(ctx.method)) {
      if (ctx.get('Sec-Fetch-Site') === 'cross-site') throw new ForbiddenError('cross-site request refused');
      const origin = originOf(ctx.get('Origin') || ctx.get('Referer'));
      const allowed = origin !== undefined && (allowedOrigins.includes(origin) || origin === siteOrigin(ctx));
      if (!allowed) throw new ForbiddenError('request origin not allowed');
    }
    await next();
  };
}
